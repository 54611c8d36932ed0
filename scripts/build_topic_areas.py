"""Build generator/data/topic_areas.json: which research areas each topic's papers belong to in the corpora.

Run from the project root (about ten seconds):

    python scripts/build_topic_areas.py

The topics index lists each topic under the area that holds most of its papers
in the digest. In a small digest that count is one or two papers, and a topic
can land under an area that only evaluates it ("Robotics & Manipulation" under
"Datasets & Benchmarks"). This file gives each topic its areas' shares in the
'tune' part (bench/split.py) of ICLR 2025, whose primary areas are the current
taxonomy: the papers whose first topic, as the shipped topic model tags them,
is that topic. Topics with fewer than MIN_PAPERS such papers get no entry. The
held-out part is never read. Deterministic: the same corpus and models give the
same file. Rebuild it after retraining the topic model.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich.area_gate import TOPIC_AREAS_FILE
from generator.enrich.areas import load_taxonomy
from generator.enrich.tags import load_topics
from generator.enrich.topic_choice import tag_topics
from generator.text import to_plain

MIN_PAPERS = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpora" / "iclr2025.jsonl"))
    parser.add_argument("--out", default=str(ROOT / "generator" / TOPIC_AREAS_FILE))
    args = parser.parse_args()
    names = {area.label: area.name for area in load_taxonomy()}
    with open(args.corpus, encoding="utf-8") as lines:
        records = [r for r in map(json.loads, lines) if part_of(r["id"]) == "tune" and r["primary_area"] in names]
    found = tag_topics([to_plain(r["abstract"]) for r in records], load_topics())
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for record, tags in zip(records, found, strict=True):
        if tags:
            counts[tags[0].name][names[record["primary_area"]]] += 1
    shares = {
        topic: {area: round(n / sum(areas.values()), 3) for area, n in sorted(areas.items()) if n}
        for topic, areas in sorted(counts.items())
        if sum(areas.values()) >= MIN_PAPERS
    }
    Path(args.out).write_text(json.dumps(shares, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                              encoding="utf-8")
    print(f"{len(shares)} topics from {len(records)} ICLR 2025 tune papers -> {args.out}")


if __name__ == "__main__":
    main()
