"""Write a small sample of a corpus, for an example that runs without the corpora (examples/trends/).

Run from the project root:

    python scripts/sample_corpus.py ../shared/corpora/iclr2024.jsonl examples/trends/data/iclr2024.jsonl
    python scripts/sample_corpus.py ../shared/corpora/iclr2025.jsonl examples/trends/data/iclr2025.jsonl

The sample is `--papers` accepted papers of the corpus's tune part (bench/split.py), the first
by a hash of their id, with the fields a paper list gives: id, title, abstract, keywords,
primary_area, venue and year. ICLR 2026 is the evaluation year: a record of 2026 is refused.
The same corpus gives the same file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of

#: The fields an example keeps of each record, in this order.
FIELDS = ("id", "title", "abstract", "keywords", "primary_area", "venue", "year")
#: The evaluation year: never sampled.
EVALUATION_YEAR = 2026


def sample(lines: list[str], papers: int) -> list[dict]:
    """Return `papers` accepted tune records of a corpus's JSON lines, the first by a hash of their id."""
    chosen = []
    for line in lines:
        record = json.loads(line)
        if int(record.get("year") or 0) == EVALUATION_YEAR or str(EVALUATION_YEAR) in str(record.get("venue")):
            raise SystemExit(f"{record['id']}: a record of {EVALUATION_YEAR}, the evaluation year; not sampled")
        if record.get("status") == "accept" and record.get("abstract") and part_of(record["id"]) == "tune":
            chosen.append({field: record.get(field) for field in FIELDS})
    chosen.sort(key=lambda r: hashlib.sha256(f"example:{r['id']}".encode()).hexdigest())
    return sorted(chosen[:papers], key=lambda r: r["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--papers", type=int, default=40)
    args = parser.parse_args()
    records = sample(args.corpus.read_text(encoding="utf-8").splitlines(), args.papers)
    args.output.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    print(f"wrote {len(records)} records of {args.corpus.name} to {args.output}")


if __name__ == "__main__":
    main()
