"""Measure how long real abstracts are, for the bounds a plain-text paragraph and `max_abstract_chars`
are checked against (prints figures; not a test).

    python bench/abstract_bounds.py [--corpora DIR]

Reads every abstract of the four corpora (iclr2024, iclr2025, other-venues, fields.jsonl.gz) and
prints the characters and sentences (counted as generator/read/layout.py counts them) at the
median, the 99th, 99.9th and 99.99th percentiles and the maximum, the shortest percentiles (what
tells one abstract a line from hard-wrapped lines), and the longest records with their ids.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.read.layout import LONG_LINE, MAX_CHARS, MAX_SENTENCES, sentence_count
from generator.settings import Settings

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora"


def abstracts(folder: Path) -> Iterator[tuple[str, str, str]]:
    """Yield (file, id, abstract) of every record with an abstract."""
    for name in ("iclr2024.jsonl", "iclr2025.jsonl", "other-venues.jsonl", "fields.jsonl.gz"):
        opener = gzip.open if name.endswith(".gz") else open
        with opener(folder / name, "rt", encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if (record.get("abstract") or "").strip():
                    yield name, str(record.get("id", "")), record["abstract"]


def at(values: list[int], share: float) -> int:
    return values[min(len(values) - 1, int(share * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    args = parser.parse_args()
    rows = [(len(text), sentence_count(text), name, key) for name, key, text in abstracts(args.corpora)]
    chars = sorted(r[0] for r in rows)
    sentences = sorted(r[1] for r in rows)
    print(f"{len(rows):,} abstracts")
    for label, values in (("characters", chars), ("sentences", sentences)):
        print(f"{label}: median {at(values, .5):,}, p99 {at(values, .99):,}, p99.9 {at(values, .999):,}, "
              f"p99.99 {at(values, .9999):,}, max {values[-1]:,}")
    print(f"shortest: p0.1 {at(chars, .001):,} characters, p1 {at(chars, .01):,}; "
          f"{sum(c < LONG_LINE for c in chars):,} abstracts under LONG_LINE ({LONG_LINE})")
    print("longest records (characters, sentences, file, id):")
    for row in sorted(rows, reverse=True)[:5]:
        print(f"  {row[0]:,}  {row[1]}  {row[2]}  {row[3]}")
    past = [r for r in rows if r[0] > MAX_CHARS or r[1] > MAX_SENTENCES]
    print(f"past the layout bounds ({MAX_CHARS:,} characters or {MAX_SENTENCES} sentences): {len(past)}; "
          f"past max_abstract_chars ({Settings.max_abstract_chars:,}): "
          f"{sum(r[0] > Settings.max_abstract_chars for r in rows)}; past max_abstract_sentences "
          f"({Settings.max_abstract_sentences}): {sum(r[1] > Settings.max_abstract_sentences for r in rows)}")


if __name__ == "__main__":
    main()
