"""Write a strict reader's request: papers of a held-out part with their inferred titles (prints figures; not a test).

    python bench/reader_request.py select --seed 29 --out ids.txt [--exclude other-ids.txt]
    python bench/reader_request.py write ids.txt --out /work/reader/requests/29-before.jsonl [--real-titles]

`select` draws papers from the held-out part of ICLR 2025 (bench/split.py; `--part tune`
for papers to calibrate on) by a
seeded shuffle, half of them whose title today carries no name (`headline`) and
half with one (`named-method`), and writes their ids; choose them before any
result is read, and never tune on them. `write` runs the whole enrich stage on
the held-out part (titles, summaries, topics and areas as a digest of that size
gets them) and writes the chosen papers as JSON lines with exactly the fields of
the reader's rubric (../shared/reader-rubric.md): id, abstract, author_keywords,
areas, topics, inferred_title, summary. `--real-titles` puts the authors' own
title in `inferred_title` instead: the reference run, in a request of its own.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich import enrich
from generator.enrich.titles import infer_title
from generator.read import read_sources
from generator.settings import Settings

CORPUS = ROOT.parent / "shared" / "corpora" / "iclr2025.jsonl"


def part_records(corpus: Path, part: str) -> list[dict]:
    """Return the records of one part of a corpus (bench/split.py), in file order."""
    with open(corpus, encoding="utf-8") as handle:
        return [r for r in map(json.loads, handle) if part_of(r["id"]) == part and r.get("abstract")]


def select(records: list[dict], seed: int, count: int, exclude: set[str]) -> list[str]:
    """Return `count` ids: half whose inferred title has no name, half with one, in a seeded random order."""
    order = [r for r in records if r["id"] not in exclude]
    random.Random(seed).shuffle(order)
    wanted = {"headline": count // 2, "named-method": count - count // 2}
    chosen = []
    for record in order:
        # (A title in the safe form, "contribution", carries no name either.)
        source = infer_title(record["abstract"]).source
        source = "headline" if source == "contribution" else source
        if wanted[source]:
            wanted[source] -= 1
            chosen.append(record["id"])
        if not any(wanted.values()):
            break
    return chosen


def enriched(records: list[dict]):
    """Return the papers of a digest made of these records' abstracts alone (no title, no area given)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "held-out.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps({"id": record["id"], "abstract": record["abstract"],
                                         "keywords": record.get("keywords", []), "venue": "ICLR 2025"}) + "\n")
        settings = Settings(project_dir=ROOT)
        result = read_sources([path], settings)
        return enrich(result.papers, settings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    chooser = commands.add_parser("select")
    chooser.add_argument("--seed", type=int, required=True)
    chooser.add_argument("--count", type=int, default=80)
    chooser.add_argument("--out", type=Path, required=True)
    chooser.add_argument("--exclude", type=Path, action="append", default=[])
    chooser.add_argument("--corpus", type=Path, default=CORPUS)
    chooser.add_argument("--part", choices=["held-out", "tune"], default="held-out")
    writer = commands.add_parser("write")
    writer.add_argument("ids", type=Path)
    writer.add_argument("--out", type=Path, required=True)
    writer.add_argument("--real-titles", action="store_true")
    writer.add_argument("--corpus", type=Path, default=CORPUS)
    writer.add_argument("--part", choices=["held-out", "tune"], default="held-out")
    args = parser.parse_args()

    records = part_records(args.corpus, args.part)
    if args.command == "select":
        exclude = {line.strip() for path in args.exclude for line in path.read_text().splitlines() if line.strip()}
        ids = select(records, args.seed, args.count, exclude)
        args.out.write_text("".join(f"{i}\n" for i in ids), encoding="utf-8")
        print(f"wrote {len(ids)} ids to {args.out}")
        return
    ids = [line.strip() for line in args.ids.read_text().splitlines() if line.strip()]
    by_id = {r["id"]: r for r in records}
    # A tune sample only calibrates titles and summaries: its digest is the sample alone (faster).
    digest = records if args.part == "held-out" else [by_id[i] for i in ids]
    papers = {p.source_id: p for p in enriched(digest)}
    with open(args.out, "w", encoding="utf-8") as handle:
        for paper_id in ids:
            record, paper = by_id[paper_id], papers[paper_id]
            areas = [t.name for t in paper.tags if t.kind == "area"]
            row = {
                "id": paper_id,
                "abstract": record["abstract"],
                "author_keywords": list(record.get("keywords") or []),
                "areas": areas,
                "topics": [t.name for t in paper.tags if t.kind == "topic"],
                "inferred_title": " ".join(record["title"].split()) if args.real_titles else paper.title,
                "summary": paper.summary,
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(ids)} papers to {args.out}")


if __name__ == "__main__":
    main()
