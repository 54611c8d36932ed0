"""Build generator/data/words.txt from the shared corpora.

Run from the project root:  python scripts/build_wordlist.py ../shared/corpora/*.jsonl

words.txt: lowercase words seen at least MIN_COUNT times in the abstracts and
titles; hyphenated compounds ("multi-modal") are listed whole, so the reader
can tell "generaliza- tion" (join) from "multi- modal" (keep hyphen). The
held-out part of every corpus (bench/split.py) is left out.
(common_names.txt, the name-shaped words, is built by scripts/build_common_names.py.)
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.split import part_of

MIN_COUNT = 3
WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")


def main(paths: list[str]) -> None:
    counts: collections.Counter[str] = collections.Counter()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                # Held-out parts are never read: the benchmarks measure on them.
                if part_of(str(record["id"])) != "tune":
                    continue
                text = f"{record.get('title', '')} {record.get('abstract', '')}".lower()
                for word in WORD.findall(text):
                    counts[word] += 1
                    if "-" in word:
                        counts.update(word.split("-"))
    words = sorted(w for w, n in counts.items() if n >= MIN_COUNT and len(w) > 1)
    out = Path(__file__).resolve().parent.parent / "generator" / "data" / "words.txt"
    out.write_text("\n".join(words) + "\n", encoding="utf-8")
    print(f"wrote {len(words)} words to {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
