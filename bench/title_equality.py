"""Check that a change to the title and summary stage changes no output (prints counts; not a test).

    python bench/title_equality.py --write /tmp/titles-before.jsonl   # with the code before the change
    python bench/title_equality.py --compare /tmp/titles-before.jsonl # after it: 0 differences, or each one

For every paper of the chosen part of the three corpora (`../shared/corpora/*.jsonl`,
held-out by default) and of the default corpus (`data/`, read as the build reads it),
one JSON line: the title, title_source, title_confidence and summary the pipeline's
analysis gives (`enrich.analysis._analyse`: the trailing notes dropped, plain text given),
and the title `infer_title` gives from the raw abstract (what bench/titles.py measures).
A speed-up must write the same lines, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich.analysis import _analyse
from generator.enrich.titles import infer_title
from generator.pipeline import sources_or_default
from generator.read import read_sources
from generator.settings import Settings, load_settings

CORPORA = ("iclr2025", "iclr2024", "other-venues")


def papers(corpora: Path, part: str) -> Iterator[tuple[str, str, str]]:
    """Yield (corpus, id, abstract) for the default corpus, then each corpus's chosen part."""
    settings = load_settings(ROOT)
    for paper in read_sources(sources_or_default([], settings), settings).papers:
        yield "default", paper.id, paper.abstract
    for corpus in CORPORA:
        with (corpora / f"{corpus}.jsonl").open(encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if part == "all" or part_of(record["id"]) == part:
                    yield corpus, record["id"], record["abstract"]


def outputs(corpora: Path, part: str) -> Iterator[str]:
    """Yield one JSON line of outputs per paper."""
    settings = Settings()
    for corpus, paper_id, abstract in papers(corpora, part):
        job = (abstract, "", (), "", settings.max_title_chars, settings.max_summary_chars)
        analysis = _analyse(job, ())
        raw = infer_title(abstract)
        yield json.dumps({
            "corpus": corpus, "id": paper_id, "title": analysis.title, "title_source": analysis.title_source,
            "title_confidence": analysis.title_confidence, "summary": analysis.summary,
            "raw": [raw.title, raw.source, raw.name, raw.confidence],
        }, ensure_ascii=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, help="write the outputs here")
    action.add_argument("--compare", type=Path, help="compare the outputs with this file")
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--part", choices=["held-out", "tune", "all"], default="held-out")
    parser.add_argument("--show", type=int, default=10, help="print this many differences")
    args = parser.parse_args()
    lines = list(outputs(args.corpora, args.part))
    if args.write:
        args.write.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"wrote {len(lines)} papers' outputs to {args.write}")
        return
    before = args.compare.read_text(encoding="utf-8").splitlines()
    if len(before) != len(lines):
        sys.exit(f"{args.compare} has {len(before)} papers, this run {len(lines)}")
    differences = [(old, new) for old, new in zip(before, lines, strict=True) if old != new]
    counts: dict[str, int] = {}
    for line in lines:
        corpus = json.loads(line)["corpus"]
        counts[corpus] = counts.get(corpus, 0) + 1
    print(f"papers compared: {len(lines)} ({', '.join(f'{c} {n}' for c, n in counts.items())}), "
          f"part {args.part}; differences: {len(differences)}")
    for old, new in differences[: args.show]:
        print(f"  before: {old}\n  after:  {new}")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
