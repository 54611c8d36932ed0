"""Build the word lists in generator/data/ from the shared corpora.

Run from the project root:  python scripts/build_wordlist.py ../shared/corpora/*.jsonl

- words.txt: lowercase words seen at least MIN_COUNT times in the abstracts and
  titles; hyphenated compounds ("multi-modal") are listed whole, so the reader
  can tell "generaliza- tion" (join) from "multi- modal" (keep hyphen).
- common_names.txt: name-shaped words (GRPO, MTEB, RKHS) that at least
  MIN_COUNT abstracts mention. Title inference does not take such a word for
  a paper's own new name unless the paper marks it as its own. The held-out
  part of ICLR 2025 (bench/split.py) is left out, so benchmarks stay honest.
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.split import part_of
from generator.enrich.titles import looks_like_name

MIN_COUNT = 3
WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
NAME = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*\+*)(?![\w-])")


def main(paths: list[str]) -> None:
    counts: collections.Counter[str] = collections.Counter()
    names: collections.Counter[str] = collections.Counter()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if "2025" in Path(path).name and part_of(record["id"]) != "tune":
                    continue
                names.update({m for m in NAME.findall(record.get("abstract", "")) if looks_like_name(m)})
                text = f"{record.get('title', '')} {record.get('abstract', '')}".lower()
                for word in WORD.findall(text):
                    counts[word] += 1
                    if "-" in word:
                        counts.update(word.split("-"))
    words = sorted(w for w, n in counts.items() if n >= MIN_COUNT and len(w) > 1)
    out = Path(__file__).resolve().parent.parent / "generator" / "data" / "words.txt"
    out.write_text("\n".join(words) + "\n", encoding="utf-8")
    print(f"wrote {len(words)} words to {out}")
    common = sorted(n for n, c in names.items() if c >= MIN_COUNT)
    header = "# Name-shaped words that at least 3 ICLR 2024/2025 abstracts mention (scripts/build_wordlist.py).\n"
    (out.parent / "common_names.txt").write_text(header + "\n".join(common) + "\n", encoding="utf-8")
    print(f"wrote {len(common)} common names")


if __name__ == "__main__":
    main(sys.argv[1:])
