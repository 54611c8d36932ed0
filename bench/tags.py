"""Measure tagging: area accuracy, topic precision, tag sizes and speed (prints figures; not a test).

    python bench/tags.py --corpus2025 ../shared/corpora/iclr2025.jsonl --corpus2024 ../shared/corpora/iclr2024.jsonl

- area accuracy: an area model is trained (as scripts/train_area_model.py does)
  on the tuning part of ICLR 2025 and predicts the held-out part (bench/split.py);
  top-1 and top-2 against `primary_area`.
- topic precision: on ICLR 2024 (author keywords), the share of papers whose
  first topic's name, phrases or acronyms match one of its keywords; and the
  share of papers that get at least one topic.
- tag sizes: largest tag share and topics under 3 papers before folding, on the
  default corpus and on a 5,000-paper sample.
- speed: model load time, and time to tag 20,000 abstracts (areas + topics).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of  # noqa: E402
from generator.areas import AreaModel, load_taxonomy  # noqa: E402
from generator.enrich import enrich  # noqa: E402
from generator.read import read_sources  # noqa: E402
from generator.settings import Settings  # noqa: E402
from generator.tags import fold_topics, load_topics, match_topics, normalise_keyword  # noqa: E402
from generator.text import to_plain  # noqa: E402


def load(path: str) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def area_accuracy(records: list[dict]) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from train_area_model import train  # noqa: E402

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


def topic_precision(records: list[dict]) -> None:
    topics = load_topics()
    by_name = {t.name: t for t in topics}
    with_keywords = [r for r in records if r.get("keywords")]
    hits = tagged = 0
    for record in with_keywords:
        found = match_topics(to_plain(record["abstract"]), topics)
        if not found:
            continue
        tagged += 1
        topic = by_name[found[0].name]
        keywords = [k for k in record["keywords"] if isinstance(k, str)]
        norm = {normalise_keyword(k) for k in keywords}
        if normalise_keyword(topic.name) in norm or any(
            (topic.phrase_pattern and topic.phrase_pattern.search(k)) or
            (topic.acronym_pattern and topic.acronym_pattern.search(k)) for k in keywords
        ):
            hits += 1
    print(f"topic precision (ICLR 2024, {len(with_keywords)} papers with keywords): "
          f"first topic matches a keyword {hits / max(tagged, 1):.3f}; papers with a topic {tagged / len(with_keywords):.3f}")


def sizes(label: str, abstracts: list[str], settings: Settings) -> None:
    topics = load_topics()
    candidates = [match_topics(a, topics) for a in abstracts]
    before = Counter(t.slug for tags in candidates for t in tags)
    folded = fold_topics(candidates, settings.min_topic_papers, settings.max_topic_share, settings.max_topics_per_paper)
    after = Counter(t.slug for tags in folded for t in tags)
    n = len(abstracts)
    small = sum(1 for c in before.values() if c < settings.min_topic_papers)
    print(f"tag sizes, {label} ({n} papers): before folding {len(before)} topics, largest share "
          f"{max(before.values()) / n:.2f}, {small} under 3 papers; after folding {len(after)} topics, largest share "
          f"{max(after.values(), default=0) / n:.2f}, smallest {min(after.values(), default=0)}; "
          f"papers with a topic {sum(1 for t in folded if t) / n:.2f}")


def speed(records: list[dict]) -> None:
    start = time.perf_counter()
    model = AreaModel()
    load_time = time.perf_counter() - start
    abstracts = [r["abstract"] for r in records][:20000]
    while len(abstracts) < 20000:
        abstracts += abstracts[: 20000 - len(abstracts)]
    start = time.perf_counter()
    plains = [to_plain(a) for a in abstracts]
    model.predict(plains)
    topics = load_topics()
    [match_topics(p, topics) for p in plains]
    print(f"speed: area model loads in {load_time:.2f} s; tagging 20,000 abstracts (plain text, areas, topics) "
          f"takes {time.perf_counter() - start:.1f} s  (target < 20 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus2025", default=str(ROOT.parent / "shared" / "corpora" / "iclr2025.jsonl"))
    parser.add_argument("--corpus2024", default=str(ROOT.parent / "shared" / "corpora" / "iclr2024.jsonl"))
    args = parser.parse_args()
    print(f"$ python bench/tags.py --corpus2025 {args.corpus2025} --corpus2024 {args.corpus2024}")
    r2025, r2024 = load(args.corpus2025), load(args.corpus2024)
    area_accuracy(r2025)
    topic_precision(r2024)
    settings = Settings(project_dir=ROOT)
    default = read_sources([ROOT / "data" / "iclr2026"], settings).papers
    sizes("default corpus", [p.abstract for p in default], settings)
    sample = random.Random(1).sample(r2025 + r2024, 5000)
    sizes("5,000-paper sample", [to_plain(r["abstract"]) for r in sample], settings)
    papers = enrich(default, settings)
    shares = Counter(t.name for p in papers for t in p.tags)
    print("default corpus tags:", ", ".join(f"{name} {count}" for name, count in shares.most_common()))
    speed(r2025 + r2024)


if __name__ == "__main__":
    main()
