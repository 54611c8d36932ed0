"""Build generator/data/term_df.json, the document frequencies related papers weigh words by.

Run from the project root (about half a minute):

    python scripts/build_term_weights.py [corpus.jsonl ...]

For each word (tokenised as enrich/vectors.py tokenises a paper: title and plain
abstract, English stop words left out), the number of abstracts of the corpora's
'tune' part (bench/split.py) that use it; words used by fewer than MIN_DF
abstracts are left out (a digest's own rare words are weighed by how many of its
papers use them). Weights that do not depend on the digest make one paper's
neighbours depend only on the papers themselves, so an edit recomputes a few
rows of the similarity matrix, not all of them. The held-out part is never read.
Deterministic: the same corpora give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich.vectors import TERM_FILE, analyzer
from generator.text import to_plain

CORPORA = [ROOT.parent / "shared" / "corpora" / f for f in ("iclr2024.jsonl", "iclr2025.jsonl", "other-venues.jsonl")]
MIN_DF = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", type=Path, default=CORPORA)
    parser.add_argument("--out", type=Path, default=ROOT / "generator" / TERM_FILE)
    args = parser.parse_args()
    tokens = analyzer()
    counts: Counter[str] = Counter()
    documents = 0
    for path in args.corpora:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if part_of(str(record["id"])) != "tune" or not record.get("abstract"):
                    continue
                documents += 1
                counts.update(set(tokens(f"{record.get('title', '')}. {to_plain(record['abstract'])}")))
    words = {word: n for word, n in sorted(counts.items()) if n >= MIN_DF}
    args.out.write_text(
        json.dumps({"documents": documents, "words": words}, separators=(",", ":"), sort_keys=True) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {len(words)} words from {documents} tune abstracts to {args.out}")


if __name__ == "__main__":
    main()
