"""Write a strict-reader request: papers with the tags a digest of their venue gives them (not a test).

    python bench/reader_request_tags.py --label 30-before --seed before --iclr2025 80 --other 40
    python bench/reader_request_tags.py --label 30-final-2 --ids sample-final-ids.txt
    python bench/reader_request_tags.py --label 30-tune-a --seed tune-a --part tune --extra 3 --areas 3 --fresh

Papers are drawn at random (by `--seed`, before any result is seen) from one
part (bench/split.py: `--part`, held-out unless told) of ICLR 2025 and of the
other venues, or named one id a line (`--ids`); `--fresh` leaves out every
paper of an earlier request. Each one is tagged inside a digest of the papers
of that part of its venue and year (at most `--digest` of them, the chosen
ones among them), read as a user would read the venue's list: abstract and
author keywords, with no title (titles are inferred) and no area.

For labels rather than a check, `--extra K` adds up to K further candidate
topics the digest does not show (the topic model's next most likely ones, at
least `CANDIDATE_FLOOR`), after the topics shown, and `--areas K` lists the
K most likely areas, so that the reader judges more candidates than the tool
shows (bench/reader_labels.py reads the verdicts back).

The request goes to /work/reader/requests/<label>.jsonl with the rubric's
fields (`id`, `abstract`, `author_keywords`, `areas`, `topics`,
`inferred_title`, `summary`); the `.ready` file is left for the caller to
create. `--show` prints the papers beside their tags instead of writing anything.
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
from generator.enrich.areas import load_model
from generator.enrich.topic_model import featurize, load_topic_model
from generator.read import read_sources
from generator.settings import Settings
from generator.text import to_plain

CORPORA = ROOT.parent / "shared" / "corpora"
REQUESTS = Path("/work/reader/requests")
#: A further candidate topic shown to the reader needs at least this probability.
CANDIDATE_FLOOR = 0.05


def _load(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def venue_digest(records: list[dict], folder: Path) -> tuple[Settings, list]:
    """Return the settings and papers of a digest of a venue's records in `folder`, read as a user would read them.

    Abstract and keywords only: no title (titles are inferred), no area.
    """
    path = folder / "digest.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            row = {"id": record["id"], "abstract": record["abstract"], "keywords": record.get("keywords") or []}
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    settings = Settings(project_dir=folder)
    return settings, read_sources([path], settings).papers


def reader_fields(paper) -> dict:
    """Return what a reader judges of an enriched paper besides its abstract: areas, topics, title, summary."""
    return {
        "areas": [t.name for t in paper.tags if t.kind == "area"],
        "topics": [t.name for t in paper.tags if t.kind == "topic"],
        "inferred_title": paper.title,
        "summary": paper.summary,
    }


def tag_in_venue_digest(chosen: list[dict], venue_papers: list[dict]) -> dict[str, dict]:
    """Return, by corpus id, the reader fields of `chosen` papers tagged in the digest of `venue_papers`."""
    with tempfile.TemporaryDirectory() as folder:
        settings, papers = venue_digest(venue_papers, Path(folder))
        papers = enrich(papers, settings)
    wanted = {r["id"] for r in chosen}
    return {paper.source_id: reader_fields(paper) for paper in papers if paper.source_id in wanted}


def extra_candidates(abstract: str, shown: list[str], count: int) -> list[str]:
    """Return up to `count` topics the model finds likely for an abstract beyond those `shown`, most likely first."""
    model = load_topic_model()
    plain = to_plain(abstract)
    features = featurize([plain], model.area_model, model.feature_topics)
    probabilities = (model.probabilities(features) * model.allowed([plain]))[0]
    taken = {name.casefold() for name in shown}
    ranked = sorted(range(len(model.names)), key=lambda t: (-probabilities[t], model.names[t]))
    return [
        model.names[t] for t in ranked
        if probabilities[t] >= CANDIDATE_FLOOR and model.names[t] in model.learned
        and model.names[t].casefold() not in taken
    ][:count]


def likely_areas(abstract: str, shown: list[str], count: int) -> list[str]:
    """Return the areas shown, then the next most likely ones, `count` in all."""
    guesses = load_model().predict_plausible([to_plain(abstract)])[0]
    names = list(shown)
    for guess in guesses:
        if len(names) >= count:
            break
        if guess.area.name not in names:
            names.append(guess.area.name)
    return names


def _draw(args: argparse.Namespace, pools: dict[str, list[dict]]) -> list[dict]:
    if args.ids:
        by_id = {r["id"]: r for pool in pools.values() for r in pool}
        ids = [line.strip() for line in args.ids.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [by_id[i] for i in ids]
    rng = random.Random(f"reader:{args.seed}")
    if args.fresh:
        seen = {json.loads(line)["id"] for path in sorted(REQUESTS.glob("*.jsonl"))
                for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
        pools = {name: [r for r in pool if r["id"] not in seen] for name, pool in pools.items()}
    return rng.sample(pools["iclr2025"], args.iclr2025) + rng.sample(pools["other"], args.other)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", required=True)
    parser.add_argument("--seed", default="")
    parser.add_argument("--ids", type=Path, help="a file of the papers' ids, one a line (instead of drawing)")
    parser.add_argument("--part", choices=("held-out", "tune"), default="held-out")
    parser.add_argument("--iclr2025", type=int, default=80)
    parser.add_argument("--other", type=int, default=40)
    parser.add_argument("--fresh", action="store_true", help="leave out the papers of earlier requests")
    parser.add_argument("--digest", type=int, default=0, help="papers of a venue's digest at most (0: all)")
    parser.add_argument("--extra", type=int, default=0, help="further candidate topics per paper")
    parser.add_argument("--areas", type=int, default=0, help="areas listed per paper (0: those shown)")
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--out", type=Path, help="write here instead of the reader's requests folder")
    args = parser.parse_args()
    if not args.ids and not args.seed:
        parser.error("give --seed (to draw papers) or --ids")
    pools = {
        "iclr2025": [r for r in _load(args.corpora / "iclr2025.jsonl") if part_of(r["id"]) == args.part],
        "other": [r for r in _load(args.corpora / "other-venues.jsonl") if part_of(r["id"]) == args.part],
    }
    chosen = _draw(args, pools)
    by_venue: dict[str, list[dict]] = defaultdict(list)
    for record in pools["iclr2025"] + pools["other"]:
        by_venue[record["venue"]].append(record)
    fields: dict[str, dict] = {}
    for venue in sorted({r["venue"] for r in chosen}):
        mine = [r for r in chosen if r["venue"] == venue]
        others = [r for r in by_venue[venue] if r not in mine]
        if args.digest and len(by_venue[venue]) > args.digest:
            others = random.Random(f"digest:{args.seed}:{venue}").sample(others, max(args.digest - len(mine), 0))
        fields.update(tag_in_venue_digest(mine, mine + others))
    lines = []
    for record in chosen:
        row = {"id": record["id"], "abstract": record["abstract"],
               "author_keywords": record.get("keywords") or [], **fields[record["id"]]}
        if args.extra:
            row["topics"] = row["topics"] + extra_candidates(record["abstract"], row["topics"], args.extra)
        if args.areas:
            row["areas"] = likely_areas(record["abstract"], row["areas"], args.areas)
        lines.append(json.dumps(row, ensure_ascii=False))
        if args.show:
            print(f"--- {record['venue']} {record['id']}: {record['title']}\n    {row['topics']} | {row['areas']}")
    if not args.show:
        out = args.out or REQUESTS / f"{args.label}.jsonl"
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {len(lines)} papers to {out}")


if __name__ == "__main__":
    main()
