"""Measure tagging: area accuracy, topic precision, tag sizes and speed (prints figures; not a test).

    python bench/tags.py --corpus2025 ../shared/corpora/iclr2025.jsonl --corpus2024 ../shared/corpora/iclr2024.jsonl

- area accuracy: an area model is trained (as scripts/train_area_model.py does)
  on the tuning part of ICLR 2025 and predicts the held-out part (bench/split.py);
  top-1 and top-2 against `primary_area`; then the shipped model's first area and the
  area reranker's (area_gate.py) against it.
- topic precision: on the held-out part of ICLR 2024 and of the other venues
  (papers with author keywords, never used to train or pick thresholds), the
  share of tagged papers whose first topic is named by a keyword or the title
  (`names_topic`, the rule of the training labels), the same over all topics,
  the share of papers with at least one topic, and per topic for the 15 largest.
- tag sizes: largest tag share and topics under 3 papers before and after
  folding, on the default corpus and on a 5,000-paper sample.
- topic names that read like an area name (`reads_like_area`).
- other fields (`--fields`, bench/field_tags.py): per held-out venue-year of
  fields.jsonl.gz, the field model's accuracy, the field topics' coverage and precision
  by title labels, and the largest area's share before and after.
- speed: model load times, and time to tag 20,000 abstracts (plain text, areas,
  topics) in one process and on two cores (forked workers, as enrich runs).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich import enrich
from generator.enrich.area_gate import reranked
from generator.enrich.areas import AreaModel, load_model, load_taxonomy
from generator.enrich.folding import GENERIC_AREAS, fold_topics, reads_like_area, topic_parents
from generator.enrich.keywords import keyword_subject, keyword_tags, named_topics
from generator.enrich.tags import load_topics, mentions_language_model, tag_slug
from generator.enrich.topic_choice import tag_topics
from generator.enrich.topic_model import TopicModel, load_topic_model
from generator.read import read_sources
from generator.settings import Settings
from generator.text import to_plain

#: A topic holding more than this share of a digest is large: it should show sub-topics.
LARGE_SHARE = 0.15


def load(path: str) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def area_accuracy(records: list[dict]) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from train_area_model import train

    labels = [a.label for a in load_taxonomy()]
    tune = [r for r in records if part_of(r["id"]) == "tune" and r["primary_area"] in labels]
    held = [r for r in records if part_of(r["id"]) == "held-out" and r["primary_area"] in labels]
    vectorizer, model = train([to_plain(r["abstract"]) for r in tune], [r["primary_area"] for r in tune], labels)
    scores = model.predict_proba(vectorizer.transform([to_plain(r["abstract"]) for r in held]))
    order = np.argsort(-scores, axis=1)
    truth = np.array([labels.index(r["primary_area"]) for r in held])
    top1 = (order[:, 0] == truth).mean()
    top2 = ((order[:, 0] == truth) | (order[:, 1] == truth)).mean()
    print(f"area accuracy (train {len(tune)} tune, test {len(held)} held-out ICLR 2025): "
          f"top-1 {top1:.3f}, top-2 {top2:.3f}  (targets 0.62 / 0.80 on unseen data)")
    ratio = Settings().second_area_ratio
    ranked = np.sort(scores, axis=1)[:, ::-1]
    shown = ranked[:, 1] >= ratio * ranked[:, 0]
    second_right = order[:, 1] == truth
    # The area shown first: a specific one before a catch-all when both are shown (folding.area_tags).
    generic = np.array([label in GENERIC_AREAS for label in labels])
    swap = shown & generic[order[:, 0]] & ~generic[order[:, 1]]
    first = np.where(swap, order[:, 1], order[:, 0])
    print(f"first area shown (a specific area before a catch-all when both are shown, on {swap.mean():.3f} of "
          f"papers): right on {(first == truth).mean():.3f}")
    print(f"second area (shown when at least {ratio} of the first's probability): shown on {shown.mean():.3f} "
          f"of papers, "
          f"right on {second_right[shown].mean():.3f} of those; the true area is shown first or second on "
          f"{((order[:, 0] == truth) | (shown & second_right)).mean():.3f}")


def shipped_areas(records: list[dict]) -> None:
    """Print how often the shipped area model's first area, and the reranked one, is the held-out primary area."""
    labels = {a.label: a.name for a in load_taxonomy()}
    held = [r for r in records if part_of(r["id"]) == "held-out" and r["primary_area"] in labels]
    plains = [to_plain(r["abstract"]) for r in held]
    topics = tag_topics(plains, load_topics())
    guesses = load_model().predict_plausible(plains)
    truth = [labels[r["primary_area"]] for r in held]
    first = np.mean([g[0].area.name == t for g, t in zip(guesses, truth, strict=True)])
    after = np.mean([reranked(g, tags, p)[0].area.name == t
                     for g, tags, p, t in zip(guesses, topics, plains, truth, strict=True)])
    print(f"shipped area model (tune part only) on {len(held)} held-out ICLR 2025 papers: first area is the primary "
          f"area {first:.3f}; after the area reranker {after:.3f}")


def topic_precision(label: str, records: list[dict], per_topic: bool = False) -> None:
    """Print first-topic precision and coverage on the held-out papers with author keywords."""
    topics = load_topics()
    held = [r for r in records if part_of(r["id"]) == "held-out" and r.get("keywords")]
    found = tag_topics([to_plain(r["abstract"]) for r in held], topics)
    hits = tagged = 0
    assigned: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for record, tags in zip(held, found, strict=True):
        if not tags:
            continue
        tagged += 1
        named = named_topics(topics, [k for k in record["keywords"] if isinstance(k, str)], record["title"])
        hits += tags[0].name in named
        for tag in tags:
            assigned[tag.name] += 1
            right[tag.name] += tag.name in named
    all_tags = sum(assigned.values())
    print(f"topic precision, {label} held-out ({len(held)} papers with keywords): first topic named by a keyword "
          f"or the title {hits / max(tagged, 1):.3f}; any topic {sum(right.values()) / max(all_tags, 1):.3f}; "
          f"papers with a topic {tagged / max(len(held), 1):.3f}; topics per tagged paper "
          f"{all_tags / max(tagged, 1):.2f}  (targets 0.80 / 0.95)")
    # A paper none of whose keywords (nor its title) names any topic can never count as right:
    # the share that can is the ceiling of "first topic right" over all papers.
    nameable = sum(1 for r in held if named_topics(topics, r["keywords"], r["title"]))
    print(f"  papers whose keywords or title name some topic (the labels' reach): {nameable / max(len(held), 1):.3f}; "
          f"right first topics over all papers {hits / max(len(held), 1):.3f} (the targets need "
          f"{0.80 * 0.95:.2f})")
    if per_topic:
        print("  largest topics (precision, support):", "; ".join(
            f"{name} {right[name] / count:.2f} ({count})" for name, count in assigned.most_common(15)))


def sizes(label: str, abstracts: list[str], settings: Settings) -> None:
    """Print topic sizes before and after folding, and how many large topics have sub-topics."""
    topics = load_topics()
    candidates = tag_topics(abstracts, topics, settings.max_topics_per_paper)
    before = Counter(t.slug for tags in candidates for t in tags)
    folded = fold_topics(candidates, settings.min_topic_papers, settings.max_topics_per_paper,
                         parents=topic_parents(topics))
    after = Counter(t.slug for tags in folded for t in tags)
    # A parent's page lists its sub-topics' papers too.
    names = {t.slug: t.name for tags in folded for t in tags}
    subtree = Counter(after)
    children: Counter[str] = Counter()
    for tags in folded:
        for tag in tags:
            if tag.parent and tag_slug(tag.parent) not in {t.slug for t in tags}:
                subtree[tag_slug(tag.parent)] += 1
                names[tag_slug(tag.parent)] = tag.parent
            if tag.parent:
                children[tag_slug(tag.parent)] += 1
    n = len(abstracts)
    large = [slug for slug, count in subtree.items() if count > LARGE_SHARE * n]
    print(f"tag sizes, {label} ({n} papers): {len(before)} topics found, {len(after)} shown; papers with a topic "
          f"{sum(1 for t in candidates if t) / n:.3f} found, {sum(1 for t in folded if t) / n:.3f} shown "
          f"({sum(1 for t in folded if not t)} without); largest topic {max(subtree.values(), default=0) / n:.2f} of "
          f"the digest; {len(large)} topics over {LARGE_SHARE:.0%}, {sum(1 for s in large if children[s])} of them "
          f"with sub-topics ({', '.join(names[s] for s in sorted(large, key=lambda s: -subtree[s]))})")


def era(other: list[dict]) -> None:
    """Print the share of papers before 2019 given an LLM-era topic or area without mentioning a language model."""
    old = [r for r in other if r.get("year") and int(r["year"]) < 2019]
    plains = [to_plain(r["abstract"]) for r in old]
    llm_era = {t.name for t in load_topics() if t.requires_pattern is not None}
    found = tag_topics(plains, load_topics())
    areas = load_model().predict_plausible(plains)
    area = "LLMs & Foundation Models"
    flagged = [
        (record, [t.name for t in tags if t.name in llm_era] + ([area] if guesses[0].area.name == area else []))
        for record, plain, tags, guesses in zip(old, plains, found, areas, strict=True)
        if not mentions_language_model(plain)
    ]
    flagged = [(record, names) for record, names in flagged if names]
    print(f"LLM-era tags before 2019 ({len(old)} papers of ICLR 2017/2018 and NeurIPS 2018): "
          f"{len(flagged) / max(len(old), 1):.3f} have an LLM-era topic or area without mentioning a language model "
          f"(target <= 0.01)", *(f"[{r['title'][:50]}: {', '.join(n)}]" for r, n in flagged[:3]))


def keyword_merges(records: list[dict]) -> None:
    """Print how the keyword tags of a sample of keywords merge: spellings per tag, and some merged groups."""
    sample = random.Random(2).sample([r for r in records if r.get("keywords")], 2000)
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    topics = load_topics()
    for record in sample:
        for keyword in record["keywords"]:
            for tag in keyword_tags((keyword,), topics):
                spellings[tag.slug][keyword_subject(keyword)] += 1
    merged = {slug: c for slug, c in spellings.items() if len(c) > 1}
    keywords = sum(sum(c.values()) for c in spellings.values())
    print(f"keyword tags of 2,000 papers: {keywords} keywords make {len(spellings)} tags; {len(merged)} tags merge "
          "several spellings, e.g.", "; ".join(
              " = ".join(f"{k} ({n})" for k, n in c.most_common(4))
              for _, c in sorted(merged.items(), key=lambda kv: -sum(kv[1].values()))[:6]))


def area_names_check() -> None:
    """Print the topic names that read like an area name (shared content words)."""
    flagged = [t.name for t in load_topics() if reads_like_area(t.name)]
    print(f"topic names reading like an area: {len(flagged)}", *(f"({', '.join(flagged)})" for _ in flagged[:1]))


def _tag_batch(abstracts: list[str]) -> int:
    """Tag a batch as enrich does: plain text, one TF-IDF for areas and topics."""
    plains = [to_plain(a) for a in abstracts]
    tfidf = load_model().features(plains)
    load_model().predict(plains, features=tfidf)
    tag_topics(plains, load_topics(), model=load_topic_model(), tfidf=tfidf)
    return len(plains)


def speed(records: list[dict]) -> None:
    """Print model load times and the time to tag 20,000 abstracts in one and in two processes."""
    start = time.perf_counter()
    model = AreaModel()
    area_load = time.perf_counter() - start
    start = time.perf_counter()
    TopicModel(area_model=model)
    topic_load = time.perf_counter() - start
    abstracts = [r["abstract"] for r in records][:20000]
    while len(abstracts) < 20000:
        abstracts += abstracts[: 20000 - len(abstracts)]
    batches = [abstracts[i : i + 250] for i in range(0, len(abstracts), 250)]
    load_topic_model()  # loaded before the fork, as enrich does
    start = time.perf_counter()
    sum(map(_tag_batch, batches))
    one = time.perf_counter() - start
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        sum(pool.imap(_tag_batch, batches))
    two = time.perf_counter() - start
    print(f"speed: area model loads in {area_load:.2f} s, topic model in {topic_load:.2f} s; tagging 20,000 "
          f"abstracts (plain text, areas, topics) takes {one:.1f} s in one process, {two:.1f} s on two cores  "
          "(target < 20 s on two cores)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus2025", default=str(ROOT.parent / "shared" / "corpora" / "iclr2025.jsonl"))
    parser.add_argument("--corpus2024", default=str(ROOT.parent / "shared" / "corpora" / "iclr2024.jsonl"))
    parser.add_argument("--other", default=str(ROOT.parent / "shared" / "corpora" / "other-venues.jsonl"))
    parser.add_argument("--no-speed", action="store_true", help="skip the 20,000-abstract timing")
    parser.add_argument("--fields", action="store_true",
                        help="only the other fields' held-out venue-years (bench/field_tags.py)")
    args = parser.parse_args()
    if args.fields:
        from bench.field_tags import held_out, measure

        for venue, records in held_out(Path(args.other).parent).items():
            measure(venue, records)
        return
    print(f"$ python bench/tags.py --corpus2025 {args.corpus2025} --corpus2024 {args.corpus2024} --other {args.other}")
    r2025, r2024, other = load(args.corpus2025), load(args.corpus2024), load(args.other)
    area_accuracy(r2025)
    shipped_areas(r2025)
    topic_precision("ICLR 2024", r2024, per_topic=True)
    topic_precision("other venues", other, per_topic=True)
    era(other)
    area_names_check()
    keyword_merges(r2024 + other)
    settings = Settings(project_dir=ROOT)
    default = read_sources([ROOT / "data" / "iclr2026"], settings).papers
    sizes("default corpus", [to_plain(p.abstract) for p in default], settings)
    held = [r for r in r2025 + r2024 + other if part_of(r["id"]) == "held-out"]
    sample = random.Random(1).sample(held, min(5000, len(held)))
    sizes("5,000-paper sample", [to_plain(r["abstract"]) for r in sample], settings)
    papers = enrich(default, settings)
    shares = Counter(t.name for p in papers for t in p.tags)
    print(f"default corpus: {sum(1 for p in papers if not any(t.kind == 'topic' for t in p.tags))} papers without a "
          "topic (target 0); tags:", ", ".join(f"{name} {count}" for name, count in shares.most_common()))
    if not args.no_speed:
        speed(r2025 + r2024)


if __name__ == "__main__":
    main()
