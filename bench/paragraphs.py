"""Measure paragraph joining in text digests (prints figures; not a test).

    python bench/paragraphs.py [--corpora DIR] [--examples N]

Each corpus is written in the seed format (a header line, then abstracts
separated by blank lines, an abstract's own paragraph breaks as blank lines
too, as a real dump holds them) and read back through the real reader.
other-venues.jsonl is reported by `bench/split.py`'s parts: 'tune' (the part
the model was fitted on) and 'held-out' (never used for it); the ICLR corpora
have no inner paragraphs, so every page must be one record.

Figures per corpus: records, pages, records whole on one page (target >= 99.5%),
fragment pages (a page that starts inside a record; target <= 0.1% of records),
pages holding two records (a page with a record's first paragraph after its
own start; target 0), joins by reason, and the reading time with joining on
and off. Records and pages are compared by their normalised words, so the
reader's merging of identical abstracts and mending of hyphenation are fair.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.split import part_of
from generator.read import decode, dedupe_key, read_sources, split_paragraphs
from generator.read.paragraphs import PARAGRAPH_BREAK
from generator.settings import Settings

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def load(path: Path, part: str) -> list[str]:
    """Return the abstracts of one part of a corpus ('all', 'tune' or 'held-out'), in file order."""
    abstracts = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            text = (record.get("abstract") or "").strip()
            if text and (part == "all" or part_of(str(record["id"])) == part):
                abstracts.append(text)
    return abstracts


def keys(abstract: str) -> list[str]:
    """Return the normalised words of each paragraph of an abstract, as the reader splits it among many
    (CR line ends too; alone in a file, a record of long lines would read one abstract a line)."""
    text = decode(abstract.encode("utf-8"), "record")
    return [k for k in (dedupe_key(p.text) for p in split_paragraphs(text, layouts=False)) if k]


def measure(name: str, abstracts: list[str], folder: Path, examples: int, join: bool = True) -> None:
    path = folder / f"{name}.txt"
    path.write_text("Bench Papers\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    settings = Settings(project_dir=folder, join_paragraphs=join)
    started = time.perf_counter()
    result = read_sources([path], settings)
    seconds = time.perf_counter() - started
    started = time.perf_counter()
    read_sources([path], replace(settings, join_paragraphs=False))
    seconds_off = time.perf_counter() - started

    records = [keys(a) for a in abstracts]
    records = [r for r in records if r]
    starts = {r[0] for r in records}
    pages = [[dedupe_key(p) for p in paper.abstract.split(PARAGRAPH_BREAK)] for paper in result.papers]
    page_set = {tuple(page) for page in pages}
    whole = sum(tuple(r) in page_set for r in records)
    fragments = [page for page in pages if page[0] not in starts]
    doubles = [page for page in pages if any(k in starts for k in page[1:])]
    reasons = Counter(p.message.split(": ", 1)[1] for p in result.problems if p.kind == "joined")
    multi = sum(len(r) > 1 for r in records)
    print(f"\n## {name}")
    print(f"records {len(records)} ({multi} with several paragraphs), pages {len(pages)}")
    print(f"records whole on one page {whole} ({whole / len(records):.2%})")
    print(f"fragment pages {len(fragments)} ({len(fragments) / len(records):.2%} of records)")
    print(f"pages holding two records {len(doubles)}")
    print(f"joins {sum(reasons.values())}: " + ", ".join(f"{reason} {n}" for reason, n in reasons.most_common()))
    print(f"read {seconds:.2f} s ({len(records) / seconds:,.0f} abstracts/s); joining off {seconds_off:.2f} s")
    by_key = {tuple(page): paper for page, paper in zip(pages, result.papers, strict=True)}
    rng = random.Random(14)
    for label, shown in (("fragment", fragments), ("two records", doubles)):
        for page in rng.sample(shown, min(examples, len(shown))):
            print(f"  {label}: {by_key[tuple(page)].abstract[:160]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--examples", type=int, default=3, help="fragment and two-record pages shown per corpus")
    parser.add_argument("--no-join", action="store_true", help="read with join_paragraphs = false (the figures before)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, file, part in (
            ("other-venues tune", "other-venues.jsonl", "tune"),
            ("other-venues held-out", "other-venues.jsonl", "held-out"),
            ("iclr2024", "iclr2024.jsonl", "all"),
            ("iclr2025", "iclr2025.jsonl", "all"),
        ):
            measure(name, load(args.corpora / file, part), Path(folder), args.examples, not args.no_join)
        both = load(args.corpora / "iclr2024.jsonl", "all") + load(args.corpora / "iclr2025.jsonl", "all")
        measure("20,000 abstracts (iclr2024 + iclr2025 + other-venues)",
                (both + load(args.corpora / "other-venues.jsonl", "all"))[:20000], Path(folder), 0, not args.no_join)


if __name__ == "__main__":
    main()
