"""Write strict-reader requests for issue 44: 40 held-out papers of each field, tagged in their venue's digest.

    python bench/reader_request_fields.py --label 44-after
    python bench/reader_request_fields.py --label 44-before --code /work/main   # main's code, same papers
    python bench/reader_request_fields.py --label 44-s18 --sample-label 44-s18  # a fresh sample, new papers

Samples (drawn by a fixed seed before any result is seen; their ids are kept in
bench/reader_samples/44-<sample>.txt): ICLR 2025's held-out part (papers of no earlier
sample), ACL 2022, CVPR 2019 and IROS 2022 (held-out venue-years, bench/split.py). Each
paper is tagged inside a digest of at most `--digest` papers of its venue-year (the chosen
ones among them), read as a user would read the venue's list: abstract and keywords, no
title (titles are inferred). `--sample-label NAME` draws a fresh sample of papers no earlier
sample holds (any bench/reader_samples/*.txt) and keeps its ids in <NAME>-<sample>.txt.
`--code DIR` runs another checkout's generator (main, for "before"). One file a sample:
/work/reader/requests/<label>-<sample>.jsonl with the rubric's fields (`id`, `abstract`,
`author_keywords`, `areas`, `topics`, `inferred_title`, `summary`).
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import HELD_OUT_VENUES, paper_key, part_of

CORPORA = ROOT.parent / "shared" / "corpora"
REQUESTS = Path("/work/reader/requests")
SAMPLES = ROOT / "bench" / "reader_samples"
#: Sample name -> the venue-year whose held-out papers it draws from.
VENUES = {"iclr2025": "ICLR 2025", "acl": "ACL 2022", "cvpr": "CVPR 2019", "iros": "IROS 2022"}


def pools(corpora: Path) -> dict[str, list[dict]]:
    """Return the held-out papers of each sample's venue-year."""
    found: dict[str, list[dict]] = {name: [] for name in VENUES}
    with open(corpora / "iclr2025.jsonl", encoding="utf-8") as handle:
        found["iclr2025"] = [r for r in map(json.loads, handle) if part_of(r["id"]) == "held-out"]
    assert {VENUES[n] for n in ("acl", "cvpr", "iros")} <= HELD_OUT_VENUES
    by_venue = {venue: name for name, venue in VENUES.items() if name != "iclr2025"}
    with gzip.open(corpora / "fields.jsonl.gz", "rt", encoding="utf-8") as handle:
        for record in map(json.loads, handle):
            if record.get("venue") in by_venue and record.get("abstract"):
                # Some venue-years give no ids (CVPR 2019): the title names the paper.
                found[by_venue[record["venue"]]].append({**record, "id": paper_key(record)})
    return found


def draw(name: str, pool: list[dict], count: int, sample: str = "44", seed: str = "44") -> list[dict]:
    """Return the sample's papers: those its ids file names, else drawn (and the file written).

    A new sample (`sample` names its ids files, `bench/reader_samples/<sample>-<name>.txt`) draws
    papers of no earlier sample: a reader never judges a paper twice.
    """
    ids_file = SAMPLES / f"{sample}-{name}.txt"
    by_id = {r["id"]: r for r in pool}
    if ids_file.is_file():
        return [by_id[line.strip()] for line in ids_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    seen = {line.strip() for path in SAMPLES.glob("*.txt") for line in path.read_text(encoding="utf-8").splitlines()}
    chosen = random.Random(f"reader:{seed}:{name}").sample([r for r in pool if r["id"] not in seen], count)
    ids_file.write_text("".join(r["id"] + "\n" for r in chosen), encoding="utf-8")
    return chosen


def tagger_of(code: Path | None):
    """Return `tag_in_venue_digest` of a checkout's bench and generator (this one's without `code`).

    The checkout's bench module is loaded from its file: `bench` is this checkout's package already, and
    a module of it would put this checkout's generator first on the path again.
    """
    if code is None:
        from bench.reader_request_tags import tag_in_venue_digest

        return tag_in_venue_digest
    code = code.resolve()
    if "generator" in sys.modules:
        raise SystemExit("--code: the generator is imported already; it would not be the checkout's")
    sys.path.insert(0, str(code))
    spec = importlib.util.spec_from_file_location("code_reader_request_tags", code / "bench" / "reader_request_tags.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    loaded = Path(sys.modules["generator"].__file__ or "").resolve()
    if not loaded.is_relative_to(code):
        raise SystemExit(f"--code {code}: its generator did not load ({loaded} did)")
    return module.tag_in_venue_digest


#: Sample name -> its field (the title-topics ceiling is measured in the fields' vocabularies).
FIELD_OF = {"acl": "Natural Language Processing", "cvpr": "Computer Vision", "iros": "Robotics"}


def title_topics(title: str, field: str) -> dict:
    """Return the topics and area a paper's real title names in its field (none: the tagger's area stays).

    What a tagger that knew the title would show: the labels the field topic model learns from
    (`tags.topic_hits(strict=True)`), narrowest first, at most three; the area of the first.
    """
    from generator.enrich.field_vocabulary import field_topics, load_vocabulary
    from generator.enrich.tags import topic_hits

    vocabulary = load_vocabulary()
    topics = field_topics(vocabulary)
    area_of = {t: a.name for f in vocabulary.fields if f.name == field for a in f.areas for t in a.topics}
    parents = {t.name: t.parent for t in topics if t.parent}
    named: list[str] = []
    for index, _, _, _ in sorted(topic_hits(title, topics, strict=True), key=lambda hit: hit[1]):
        if topics[index].name in area_of and topics[index].name not in named:
            named.append(topics[index].name)
    named = [t for t in named if not any(parents.get(other) == t for other in named)][:3]
    return {"topics": named, **({"areas": [area_of[named[0]]]} if named else {})}


def venue_sample(
    name: str, pool: list[dict], count: int, digest: int, sample: str, seed: str | None = None
) -> tuple[list[dict], list[dict]]:
    """Return a sample's papers and the digest they are tagged in (them and others of the venue, `digest` at most)."""
    chosen = draw(name, pool, count, sample, seed or sample)
    ids = {r["id"] for r in chosen}
    rest = random.Random(f"digest:44:{name}").sample(
        [r for r in pool if r["id"] not in ids], min(digest - len(chosen), len(pool) - len(chosen))
    )
    return chosen, chosen + rest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", required=True)
    parser.add_argument("--code", type=Path, help="a checkout whose generator tags the papers (default: this one)")
    parser.add_argument("--sample-label", default="44",
                        help="names the sample's ids files (44: the sample judged before; a new name draws new papers)")
    parser.add_argument("--seed", help="seed of a new sample's draw (default: the sample label)")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--digest", type=int, default=600, help="papers of a venue's digest at most")
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--out", type=Path, default=REQUESTS)
    parser.add_argument("--title-topics", action="store_true",
                        help="the ceiling of title labels: each paper's topics are those its real title names")
    args = parser.parse_args()
    tag_in_venue_digest = tagger_of(args.code)
    for name, pool in pools(args.corpora).items():
        chosen, digest = venue_sample(name, pool, args.count, args.digest, args.sample_label, args.seed)
        fields = tag_in_venue_digest(chosen, digest)
        if args.title_topics and name in FIELD_OF:
            fields = {r["id"]: {**fields[r["id"]], **title_topics(r["title"], FIELD_OF[name])} for r in chosen}
        out = args.out / f"{args.label}-{name}.jsonl"
        with open(out, "w", encoding="utf-8") as handle:
            for record in chosen:
                row = {"id": record["id"], "abstract": record["abstract"],
                       "author_keywords": record.get("keywords") or [], **fields[record["id"]]}
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"wrote {len(chosen)} papers to {out}")


if __name__ == "__main__":
    main()
