"""Build generator/data/common_names.txt from the tune part of the ICLR corpora.

Run from the project root:

    python scripts/build_common_names.py

The list holds name-shaped words (GRPO, MTEB, RKHS) that at least MIN_COUNT
abstracts of the tune part (bench/split.py) of ../shared/corpora/iclr2024.jsonl
and iclr2025.jsonl mention. Title inference does not take such a word for a
paper's own new name unless the paper marks it as its own (and the name scorer
weighs it as evidence, so retrain with scripts/train_title_model.py after a
rebuild). Held-out abstracts are never read: bench/titles.py stays honest.
Other corpora can be given as arguments; the same files give the same list.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich.titles import looks_like_name

CORPORA = [ROOT.parent / "shared" / "corpora" / f for f in ("iclr2024.jsonl", "iclr2025.jsonl")]
OUT = ROOT / "generator" / "data" / "common_names.txt"
MIN_COUNT = 3
NAME = re.compile(r"(?<![\w-])((?:\d{1,2}(?=[A-Za-z]))?[A-Za-z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*\+*)(?![\w-])")


def common_names(paths: list[Path]) -> list[str]:
    """Return the name-shaped words that at least MIN_COUNT tune abstracts mention, sorted."""
    names: collections.Counter[str] = collections.Counter()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if part_of(record["id"]) != "tune":
                    continue
                names.update({m for m in NAME.findall(record.get("abstract", "")) if looks_like_name(m)})
    return sorted(n for n, c in names.items() if c >= MIN_COUNT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", type=Path, default=CORPORA)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    names = common_names(args.corpora)
    sources = ", ".join(p.name for p in args.corpora)
    header = (
        f"# Name-shaped words that at least {MIN_COUNT} abstracts of the tune part of {sources} mention\n"
        "# (python scripts/build_common_names.py; held-out abstracts are never read).\n"
    )
    args.out.write_text(header + "\n".join(names) + "\n", encoding="utf-8")
    print(f"wrote {len(names)} common names to {args.out}")


if __name__ == "__main__":
    main()
