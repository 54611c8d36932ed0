"""Calibrate the field tagger's no-topic path and catch-all areas on the tune part (prints figures; not a test).

    python bench/field_fallback.py [--corpora ../shared/corpora]

Papers: the threshold fold of the tune part (the fifth of it that picked the field topic model's
thresholds, `train_topic_model.calibration_fold`; never a held-out venue-year), each shown in its
venue's field. Labels: the topics its title names (`keywords.named_topics`, the model's label rule).

- `fields.FALLBACK_MARGIN`: for each share of a topic's threshold, the papers without a topic that
  the near-threshold path gives one, and how often that topic is one the title names, on papers
  whose title names a topic of the field. The chosen margin is the lowest share at which that
  precision, over the fields' papers together, reaches the precision the thresholds aim at (0.6).
- `fields.PHRASED_CONTRIBUTION_SCORE`, `fields.PHRASED_EVIDENCE`: for each pair of scores (named in
  a contribution sentence / anywhere), the topics without a classifier given to a paper with no
  topic, and how often the title names them (on papers whose title names a topic of the field), as
  its first topic and as a further topic.
- `fields.OPENING_EVIDENCE`: for each phrase weight, the papers with no topic that a topic named in
  the abstract's first sentence is given to, and how often the title names it (on papers whose title
  names a topic of the field).
- `fields.CATCH_ALL_RATIO`: for each ratio, the papers whose area moves off a catch-all area, and
  how often the area their title names is the catch-all and how often the new one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_field_model import CORPORA, capped, read_corpora
from train_topic_model import calibration_fold

from generator.enrich import fields as fields_module
from generator.enrich.areas import load_model
from generator.enrich.field_vocabulary import AREA_PREFIX, MACHINE_LEARNING, field_topics, load_vocabulary
from generator.enrich.fields import load_field_tagger
from generator.enrich.keywords import named_topics
from generator.text import to_plain

#: The precision the field topic model's thresholds aim at (scripts/train_field_model.py --precision).
AIM = 0.6
MARGINS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
RATIOS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
#: A field is listed by itself when at least this many of its titled papers get a topic at the lowest margin.
MEASURED = 20


def tagged_with(tagger, field: str, plains: list[str], tfidf, **constants: float) -> list:
    """Return the papers' field tags with some of `fields`' constants set for the call (then restored)."""
    saved = {name: getattr(fields_module, name) for name in constants}
    for name, value in constants.items():
        setattr(fields_module, name, value)
    try:
        return tagger.tag_in(plains, tfidf, [field] * len(plains))
    finally:
        for name, value in saved.items():
            setattr(fields_module, name, value)


def tagged(tagger, field: str, plains: list[str], tfidf, margin: float, ratio: float) -> list:
    """Return the papers' field tags with the given margin and catch-all ratio."""
    # Without the first-sentence path, which comes after the near-threshold one (`FieldTagger._fallback`).
    return tagged_with(tagger, field, plains, tfidf, FALLBACK_MARGIN=margin, CATCH_ALL_RATIO=ratio,
                       OPENING_EVIDENCE=1e9)


#: The (contribution sentence, anywhere) scores measured for topics without a classifier; 1e9: no phrase reaches it.
PHRASED_SCORES = ((1.0, 1e9), (1.0, 1.5), (1.0, 2.0), (1.5, 1.5), (2.0, 2.0))
WITHOUT = (1e9, 1e9)


def phrased(tagger, field: str, plains: list[str], tfidf, scores: tuple[float, float]) -> list:
    """Return the papers' field tags with topics without a classifier given at these scores to a paper with none."""
    contribution, anywhere = scores
    return tagged_with(tagger, field, plains, tfidf, PHRASED_CONTRIBUTION_SCORE=contribution,
                       PHRASED_EVIDENCE=anywhere)


#: The phrase weights measured for a topic named in the first sentence (1e9: none is enough).
OPENING_WEIGHTS = (1.0, 1.5, 1e9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", default=str(CORPORA))
    args = parser.parse_args()
    vocabulary = load_vocabulary()
    topics = field_topics(vocabulary)
    tagger = load_field_tagger()
    assert tagger is not None, "train the field models first: python scripts/train_field_model.py"
    records = [r for r in capped(read_corpora(Path(args.corpora)), 20000) if calibration_fold(r["id"])]
    pooled = {margin: [0, 0] for margin in MARGINS}
    moved = {(ratio, bare): [0, 0, 0] for ratio in (*RATIOS, 1e9) for bare in (False, True)}
    by_field: dict[str, dict[float, tuple[int, int]]] = {}
    phrased_counts: dict[tuple[float, float], list[int]] = {}
    opening_counts: dict[float, list[int]] = {}
    for field in vocabulary.fields:
        mine = [r for r in records if r["field"] == field.name]
        if field.name == MACHINE_LEARNING or not mine or not tagger.has_areas(field.name):
            continue
        plains = [to_plain(r["abstract"]) for r in mine]
        tfidf = load_model().features(plains)
        names = {t for a in field.areas for t in a.topics} | {AREA_PREFIX + a.name for a in field.areas}
        named = [named_topics(topics, [k for k in r.get("keywords") or [] if isinstance(k, str)], r["title"]) & names
                 for r in mine]
        # Without the near-threshold path (a margin no probability reaches) and without the catch-all rule.
        before = tagged(tagger, field.name, plains, tfidf, 1e9, 1e9)
        bare = [i for i, t in enumerate(before) if not t.topics]
        line = []
        for margin in MARGINS:
            after = tagged(tagger, field.name, plains, tfidf, margin, 1e9)
            given = [i for i in bare if after[i].topics]
            titled = [i for i in given if named[i]]
            hits = sum(after[i].topics[0].name in named[i] for i in titled)
            pooled[margin][0] += hits
            pooled[margin][1] += len(titled)
            by_field.setdefault(field.name, {})[margin] = (hits, len(titled))
            line.append(f"{margin}: {len(given)} given, {hits}/{len(titled)}")
        print(f"{field.name} ({len(mine)} papers, {len(bare)} without a topic): " + "; ".join(line))
        strict = phrased(tagger, field.name, plains, tfidf, WITHOUT)
        for score in PHRASED_SCORES:
            after = phrased(tagger, field.name, plains, tfidf, score)
            first = [i for i in range(len(mine)) if after[i].topics and not strict[i].topics and named[i]]
            added = [(i, t.name) for i in range(len(mine)) if strict[i].topics and named[i]
                     for t in after[i].topics if t.name not in {s.name for s in strict[i].topics}]
            counts = phrased_counts.setdefault(score, [0, 0, 0, 0])
            counts[0] += sum(after[i].topics[0].name in named[i] for i in first)
            counts[1] += len(first)
            counts[2] += sum(name in named[i] for i, name in added)
            counts[3] += len(added)
        no_opening = tagged_with(tagger, field.name, plains, tfidf, OPENING_EVIDENCE=1e9)
        for weight in OPENING_WEIGHTS[:-1]:
            after = tagged_with(tagger, field.name, plains, tfidf, OPENING_EVIDENCE=weight)
            given = [i for i in range(len(mine)) if after[i].topics and not no_opening[i].topics]
            counts = opening_counts.setdefault(weight, [0, 0, 0])
            counts[0] += len(given)
            counts[1] += sum(after[i].topics[0].name in named[i] for i in given if named[i])
            counts[2] += sum(1 for i in given if named[i])
        # Without the catch-all rule: every area specific.
        catch_all, tagger._catch_all = tagger._catch_all, frozenset()
        base = tagged(tagger, field.name, plains, tfidf, fields_module.FALLBACK_MARGIN, 1e9)
        tagger._catch_all = catch_all
        for ratio in (*RATIOS, 1e9):
            after = tagged(tagger, field.name, plains, tfidf, fields_module.FALLBACK_MARGIN, ratio)
            for i in range(len(mine)):
                if after[i].areas[0].name != base[i].areas[0].name and named[i]:
                    counts = moved[(ratio, not after[i].topics)]
                    counts[0] += 1
                    counts[1] += AREA_PREFIX + base[i].areas[0].name in named[i]
                    counts[2] += AREA_PREFIX + after[i].areas[0].name in named[i]
    print("near-threshold topics the title names, all fields (papers whose title names a topic of the field):")
    print("  " + "; ".join(f"{m}: {h}/{n} = {h / max(n, 1):.3f}" for m, (h, n) in pooled.items()))
    # The fields together must reach the aim: one field's few dozen titled papers move by several points a paper.
    chosen = next((m for m in MARGINS if pooled[m][0] >= AIM * pooled[m][1]), None)
    print(f"  lowest margin reaching {AIM} over every field: {chosen} (shipped: {fields_module.FALLBACK_MARGIN})")
    # Each field with enough titled papers to tell (MEASURED of them at the lowest margin), for the record.
    measured = [f for f, row in by_field.items() if row[MARGINS[0]][1] >= MEASURED]
    each = next((m for m in MARGINS if all(by_field[f][m][0] >= AIM * by_field[f][m][1] for f in measured)), None)
    print(f"  lowest margin reaching {AIM} in each of {', '.join(measured)}: {each}")
    print("topics without a classifier given to a paper with no topic, by the phrase score they need in a contribution")
    print("sentence / anywhere (titled papers: the title names it):")
    shipped = (fields_module.PHRASED_CONTRIBUTION_SCORE, fields_module.PHRASED_EVIDENCE)
    for (contribution, anywhere), (hits, gained, further_hits, further) in phrased_counts.items():
        print(f"  {contribution:g} / {anywhere:g}: first topic of a paper without one {hits}/{gained}; "
              f"a further topic {further_hits}/{further}{' (shipped)' if (contribution, anywhere) == shipped else ''}")
    print("topics named in the first sentence given to a paper with no topic, by the phrase weight they need")
    print("(titled papers: the title names it):")
    for weight, (opened, opened_hits, opened_titled) in opening_counts.items():
        mark = " (shipped)" if weight == fields_module.OPENING_EVIDENCE else ""
        print(f"  {weight:g}: {opened} given, {opened_hits}/{opened_titled} = "
              f"{opened_hits / max(opened_titled, 1):.3f}{mark}")
    print("catch-all areas given way (titled papers whose area changes: title names the catch-all / the new area);")
    print("at 1e9 only a further topic's area replaces a catch-all:")
    for without in (False, True):
        print(f"  {'without' if without else 'with'} a topic: " + "; ".join(
            f"{r:g}: {n} moved, {was} / {now}" for (r, kind), (n, was, now) in moved.items() if kind == without))


if __name__ == "__main__":
    main()
