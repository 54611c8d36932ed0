"""Write a strict-reader request: held-out papers with the tags a digest of their venue gives them (not a test).

    python bench/reader_request_tags.py --label 30-before --seed before --iclr2025 80 --other 40

Papers are drawn at random (by `--seed`, before any result is seen) from the
held-out part (bench/split.py) of ICLR 2025 and of the other venues. Each one
is tagged inside a digest of every held-out paper of its venue and year, read
as a user would read the venue's list: abstract and author keywords, with no
title (titles are inferred) and no area. The request goes to
/work/reader/requests/<label>.jsonl with the rubric's fields (`id`,
`abstract`, `author_keywords`, `areas`, `topics`, `inferred_title`,
`summary`); the `.ready` file is left for the caller to create. `--show`
prints the papers beside their tags instead of writing anything.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich import enrich
from generator.read import read_sources
from generator.settings import Settings

CORPORA = ROOT.parent / "shared" / "corpora"
REQUESTS = Path("/work/reader/requests")


def _load(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def tag_in_venue_digest(chosen: list[dict], venue_papers: list[dict]) -> dict[str, dict]:
    """Return, by corpus id, the reader fields of `chosen` papers tagged in the digest of `venue_papers`."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "digest.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for record in venue_papers:
                row = {"id": record["id"], "abstract": record["abstract"], "keywords": record.get("keywords") or []}
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        settings = Settings(project_dir=Path(folder))
        papers = enrich(read_sources([path], settings).papers, settings)
    wanted = {r["id"] for r in chosen}
    result = {}
    for paper in papers:
        if paper.source_id in wanted:
            result[paper.source_id] = {
                "areas": [t.name for t in paper.tags if t.kind == "area"],
                "topics": [t.name for t in paper.tags if t.kind == "topic"],
                "inferred_title": paper.title,
                "summary": paper.summary,
            }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--iclr2025", type=int, default=80)
    parser.add_argument("--other", type=int, default=40)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    rng = random.Random(f"reader:{args.seed}")
    pools = {
        "iclr2025": [r for r in _load(args.corpora / "iclr2025.jsonl") if part_of(r["id"]) == "held-out"],
        "other": [r for r in _load(args.corpora / "other-venues.jsonl") if part_of(r["id"]) == "held-out"],
    }
    chosen = rng.sample(pools["iclr2025"], args.iclr2025) + rng.sample(pools["other"], args.other)
    by_venue: dict[str, list[dict]] = defaultdict(list)
    for record in pools["iclr2025"] + pools["other"]:
        by_venue[record["venue"]].append(record)
    fields: dict[str, dict] = {}
    for venue in sorted({r["venue"] for r in chosen}):
        fields.update(tag_in_venue_digest([r for r in chosen if r["venue"] == venue], by_venue[venue]))
    lines = []
    for record in chosen:
        row = {"id": record["id"], "abstract": record["abstract"],
               "author_keywords": record.get("keywords") or [], **fields[record["id"]]}
        lines.append(json.dumps(row, ensure_ascii=False))
        if args.show:
            print(f"--- {record['venue']} {record['id']}: {record['title']}\n    {row['topics']} | {row['areas']}")
    if not args.show:
        out = REQUESTS / f"{args.label}.jsonl"
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {len(lines)} papers to {out}")


if __name__ == "__main__":
    main()
