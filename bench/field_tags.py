"""Measure the field vocabulary on the held-out venue-years (prints figures; not a test).

    python bench/field_tags.py [--corpora ../shared/corpora] [--tune [--show N]] [--open-rate R] [--no-titles]

For each venue-year of `bench.split.HELD_OUT_VENUES` (never read to train or tune):

- field: the share of its papers the field model places in the venue's field;
- topics (papers of the digest shown in their own field, as enrich does): the share with a
  topic, the share of those whose first topic the title names (the field topic model's
  label rule, `keywords.named_topics`: a strict label, since a title often names the subject
  in other words), and the share with any topic the title names;
- areas: the largest area's share of the digest, as shown now (field areas for the papers of
  the digest's field, ICLR areas for the others) and before (ICLR's 21 areas for every paper,
  as main shows them). The held-out venue-years give no subject tracks (their `track` is the
  status), so there is no venue share to set beside it;
- open topics: how many of the papers without a topic get one, for how many the open topic's
  phrase is in the paper's real title, and the open topics' names; `--open-rate` sets the least
  title rate a phrase needs, `--no-titles` finds them as in a digest without titles;
- speed: the field model and the field topic model per abstract, one core's CPU time.

`python bench/tags.py --fields` runs it too.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import HELD_OUT_VENUES
from generator.enrich.area_gate import reranked
from generator.enrich.areas import load_model
from generator.enrich.field_vocabulary import AREA_PREFIX, field_topics, load_vocabulary
from generator.enrich.fields import load_field_tagger
from generator.enrich.folding import area_tags
from generator.enrich.keywords import named_topics
from generator.enrich.open_topics import open_topics
from generator.enrich.own_fields import digest_field, in_digest_fields
from generator.enrich.tags import load_topics
from generator.enrich.topic_choice import tag_topics
from generator.enrich.topic_model import load_topic_model
from generator.settings import Settings
from generator.text import to_plain

#: Whether open topics read the papers' titles (`--no-titles`: a digest without them).
OPEN_TITLES = [True]
#: The fields `--tune` measures (those the strict readers judge).
TUNE_FIELDS = ("Natural Language Processing", "Computer Vision", "Robotics")


def held_out(corpora: Path) -> dict[str, list[dict]]:
    """Return the records of each held-out venue-year."""
    venues: dict[str, list[dict]] = {v: [] for v in sorted(HELD_OUT_VENUES)}
    with gzip.open(corpora / "fields.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("venue") in venues and record.get("abstract"):
                venues[record["venue"]].append(record)
    return venues


def tune_fold(corpora: Path) -> dict[str, list[dict]]:
    """Return, per field of `TUNE_FIELDS`, the papers of the tune part's threshold fold (never a held-out one).

    The threshold fold is the fifth of the tune part that picked the field topic model's thresholds
    (`train_topic_model.calibration_fold`): no classifier was fitted on it, so it is where the
    tagger's rules are tuned.
    """
    sys.path.insert(0, str(ROOT / "scripts"))
    from train_field_model import capped, read_corpora
    from train_topic_model import calibration_fold

    records = [r for r in capped(read_corpora(corpora), 20000) if calibration_fold(r["id"])]
    return {field: [r for r in records if r["field"] == field] for field in TUNE_FIELDS}


def show(records: list[dict], count: int) -> None:
    """Print `count` papers (the first by a hash of their titles): title, field areas and topics, for reading."""
    plains = [to_plain(r["abstract"]) for r in records]
    tagger = load_field_tagger()
    assert tagger is not None
    tags = in_digest_fields(tagger.tag(load_model().features(plains)), plains)
    order = sorted(range(len(records)), key=lambda i: hashlib.sha256(records[i]["title"].encode()).hexdigest())
    for i in order[:count]:
        areas = "; ".join(a.name for a in tags[i].areas)
        topics = "; ".join(t.name for t in tags[i].topics) or "(none)"
        print(f"- {records[i]['title']}\n    area: {areas} | topics: {topics}")


def measure(venue: str, records: list[dict], own: str | None = None) -> None:
    """Print one venue-year's figures (or a field's tune fold: `own` its field)."""
    vocabulary = load_vocabulary()
    topics = field_topics(vocabulary)
    tagger = load_field_tagger()
    assert tagger is not None, "train the field models first: python scripts/train_field_model.py"
    plains = [to_plain(r["abstract"]) for r in records]
    tfidf = load_model().features(plains)
    start = time.process_time()
    tags = tagger.tag(tfidf)
    fields = [t.field for t in tags]
    tags = in_digest_fields(tags, plains)
    seconds = time.process_time() - start
    own = own or vocabulary.field_of_venue(venue)
    main = digest_field(fields)
    in_field = [i for i, f in enumerate(fields) if f == own]
    print(f"{venue} ({len(records)} papers, field {own}): field right {len(in_field) / len(records):.3f}; "
          f"digest's field {main}; {1000 * seconds / len(records):.2f} ms an abstract")
    shown = [i for i, t in enumerate(tags) if t.areas]
    tagged = [i for i in shown if tags[i].topics]
    named = [named_topics(topics, [], records[i]["title"]) for i in range(len(records))]
    first = sum(tags[i].topics[0].name in named[i] for i in tagged)
    anyone = sum(any(t.name in named[i] for t in tags[i].topics) for i in tagged)
    if shown:
        print(f"  shown in their field: {len(shown)}; with a topic {len(tagged) / len(shown):.3f}; first topic named "
              f"by the title {first / max(len(tagged), 1):.3f}; any topic named {anyone / max(len(tagged), 1):.3f}; "
              f"topics a tagged paper {sum(len(tags[i].topics) for i in tagged) / max(len(tagged), 1):.2f}")
    if shown:
        _areas_named(tags, shown, named, vocabulary)
        bare = [i for i in shown if not tags[i].topics]
        titles = [r["title"] if OPEN_TITLES[0] else "" for r in records]
        opened = open_topics(titles, plains, bare, Settings().min_topic_papers)
        names = Counter(tag.name for tag in opened.values())
        # The open topic's phrase in the paper's real title: the subject its authors named.
        titled = sum(tag.evidence[1].removeprefix("phrase: ").lower() in records[i]["title"].lower()
                     for i, tag in opened.items())
        source = "titles as the source gives them" if OPEN_TITLES[0] else "no titles"
        print(f"  open topics ({source}): {len(opened)} of {len(bare)} papers without a topic "
              f"in {len(names)} open topics, the phrase in the real title for {titled}: "
              + ", ".join(f"{n} {c}" for n, c in names.most_common(8)))
    ratio = Settings().second_area_ratio
    guesses = load_model().predict_plausible(plains, features=tfidf)
    before_topics = tag_topics(plains, load_topics(), model=load_topic_model(), tfidf=tfidf)
    before = Counter(area_tags(reranked(g, t, p)[:2], ratio, specific_first=False)[0].name
                     for g, t, p in zip(guesses, before_topics, plains, strict=True))
    now = Counter(
        tags[i].areas[0].name if i in set(shown) else name
        for i, name in enumerate(area_tags(reranked(g, t, p)[:2], ratio, specific_first=False)[0].name
                                 for g, t, p in zip(guesses, before_topics, plains, strict=True))
    )
    (b_name, b_count), (n_name, n_count) = before.most_common(1)[0], now.most_common(1)[0]
    print(f"  largest area: before {b_name} {b_count / len(records):.3f}; now {n_name} {n_count / len(records):.3f}")
    print("  areas now: " + ", ".join(f"{name} {count}" for name, count in now.most_common(6)))


def _areas_named(tags: list, shown: list[int], named: list[set[str]], vocabulary) -> None:
    """Print the share of papers whose first area the title names (through any topic of the area).

    Of the papers shown in their field whose title names a topic of it (the field topic model's
    label rule), in all and apart for those with a topic and those listed under an area only; and
    the share of those titled papers that have a topic the title names (the strict label's recall).
    """
    def area_named(i: int) -> bool:
        return AREA_PREFIX + tags[i].areas[0].name in named[i]

    own = {f.name: {AREA_PREFIX + a.name for a in f.areas} for f in vocabulary.fields}
    titled = [i for i in shown if own[tags[i].field] & named[i]]
    with_topic = [i for i in titled if tags[i].topics]
    without = [i for i in titled if not tags[i].topics]
    hit = sum(any(t.name in named[i] for t in tags[i].topics) for i in titled)
    print(f"  titles naming a topic: {len(titled)}; first area named {_share(titled, area_named)} "
          f"(with a topic {_share(with_topic, area_named)}, "
          f"area only {_share(without, area_named)} of {len(without)}); a topic named {hit / max(len(titled), 1):.3f}")


def _share(rows: list[int], test) -> str:
    return f"{sum(map(test, rows)) / max(len(rows), 1):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", default=str(ROOT.parent / "shared" / "corpora"))
    parser.add_argument("--tune", action="store_true",
                        help="the tune part's threshold fold of NLP, vision, robotics (not the held-out venue-years)")
    parser.add_argument("--show", type=int, default=0, help="with --tune: print this many papers' tags of each field")
    parser.add_argument("--open-rate", type=float, help="open topics' least title rate (open_topics.MIN_TITLE_RATE)")
    parser.add_argument("--no-titles", action="store_true",
                        help="open topics as a digest without titles finds them (contribution sentences only)")
    args = parser.parse_args()
    if args.open_rate is not None:
        # The module, not the function generator.enrich exports under its name.
        module = importlib.import_module("generator.enrich.open_topics")
        module.MIN_TITLE_RATE = args.open_rate  # type: ignore[attr-defined]
    OPEN_TITLES[0] = not args.no_titles
    if args.tune:
        for field, records in tune_fold(Path(args.corpora)).items():
            if args.show:
                print(f"## {field}")
                show(records, args.show)
            else:
                measure(f"{field}, tune fold", records, field)
        return
    for venue, records in held_out(Path(args.corpora)).items():
        measure(venue, records)


if __name__ == "__main__":
    main()
