"""Fit the paragraph model: does a paragraph of a text digest go on from the abstract before it?

    python scripts/train_paragraph_model.py ../shared/corpora/other-venues.jsonl \
        ../shared/corpora/iclr2024.jsonl ../shared/corpora/iclr2025.jsonl

Two sentence scorers come first: how abstracts open (their first sentence
against every other sentence) and how they close (their last sentence against
every other). Then a logistic model over `generator.read.paragraphs.features` (the
scorers' out-of-fold log-odds among them) learns from the inner paragraph
breaks of real multi-paragraph abstracts (positives) and the breaks between two
abstracts, in file order and in shuffled orders (negatives). Pairs a rule of
`generator.read.paragraphs.RULES` decides are left out. The threshold (log-odds)
sits just above the break between two abstracts ranked `--allowed` + 1 from the
top (default: one break of about 100,000 may score above it).

Only the 'tune' part of `bench/split.py` is read; `bench/paragraphs.py`
reports on the held-out part. Writes `generator/data/paragraph_model.json`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.read import decode, split_paragraphs
from generator.read.paragraph_model import MODEL_FILE, Model, Scorer, closing_tokens, opening_tokens, sentences
from generator.read.paragraphs import FEATURES, RULES, features, profile

#: Words in at least this share of abstracts carry no sign of a shared subject.
COMMON_SHARE = 0.01
#: Shuffled orders of the abstracts that add breaks between two abstracts.
SHUFFLES = 4
#: How far above the highest-scoring break between two abstracts the threshold sits (log-odds).
MARGIN = 0.05
#: Sentence-scorer tokens seen in fewer abstracts are dropped; smaller weights are not shipped.
MIN_DF, MIN_WEIGHT = 5, 0.05
FOLDS = 3


def record_paragraphs(abstract: str) -> list[str]:
    """Return an abstract's paragraphs exactly as the text reader sees them among many (CR line ends included)."""
    text = decode(abstract.encode("utf-8"), "record").strip()
    return [p.text for p in split_paragraphs(text, layouts=False) if re.search(r"\w", p.text)]


def load(paths: list[Path], part: str) -> list[list[str]]:
    """Return the paragraphs of every record of `part`, file by file in file order."""
    records = []
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if part_of(str(record["id"])) == part and (record.get("abstract") or "").strip():
                    paragraphs = record_paragraphs(record["abstract"])
                    if paragraphs:
                        records.append(paragraphs)
    return records


def common_words(records: list[list[str]]) -> list[str]:
    counts: Counter[str] = Counter()
    for paragraphs in records:
        counts.update(set(re.findall(r"[a-z][a-z-]{3,}", " ".join(paragraphs).lower())))
    return sorted(word for word, n in counts.items() if n >= COMMON_SHARE * len(records))


def sentence_scorer(docs: list[list[str]], labels: list[int], groups: list[int]) -> tuple[Scorer, np.ndarray]:
    """Fit a sentence scorer; return it and its out-of-fold log-odds for every sentence."""
    vectorizer = CountVectorizer(analyzer=lambda tokens: tokens, min_df=MIN_DF, binary=True)
    x = vectorizer.fit_transform(docs)
    y = np.array(labels)
    oof = np.zeros(len(labels))
    for train, test in GroupKFold(FOLDS).split(x, y, groups):
        fold = LogisticRegression(C=0.5, solver="liblinear", class_weight="balanced").fit(x[train], y[train])
        oof[test] = fold.decision_function(x[test])
    model = LogisticRegression(C=0.5, solver="liblinear", class_weight="balanced").fit(x, y)
    names = vectorizer.get_feature_names_out()
    weights = {str(n): round(float(w), 4) for n, w in zip(names, model.coef_[0], strict=True) if abs(w) >= MIN_WEIGHT}
    return Scorer(round(float(model.intercept_[0]), 4), weights), oof


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", type=Path, nargs="+")
    parser.add_argument("--output", type=Path, default=ROOT / "generator" / "data" / MODEL_FILE)
    parser.add_argument("-C", type=float, default=0.3)
    parser.add_argument("--allowed", type=int, default=1,
                        help="breaks between two abstracts of the training data the threshold may leave above it")
    args = parser.parse_args()
    records = load(args.corpora, "tune")
    common = common_words(records)
    split = [[sentences(p) for p in paragraphs] for paragraphs in records]

    open_docs: list[list[str]] = []
    close_docs: list[list[str]] = []
    open_labels, open_groups, open_at = [], [], {}
    close_labels, close_groups, close_at = [], [], {}
    for r, paragraphs in enumerate(split):
        last = len(paragraphs) - 1
        for p, parts in enumerate(paragraphs):
            for s, sentence in enumerate(parts):
                if s == 0:
                    open_at[r, p] = len(open_docs)
                open_docs.append(opening_tokens(sentence))
                open_labels.append(int(p == 0 and s == 0))
                open_groups.append(r)
                if s == len(parts) - 1:
                    close_at[r, p] = len(close_docs)
                close_docs.append(closing_tokens(sentence))
                close_labels.append(int(p == last and s == len(parts) - 1))
                close_groups.append(r)
    start, start_oof = sentence_scorer(open_docs, open_labels, open_groups)
    end, end_oof = sentence_scorer(close_docs, close_labels, close_groups)
    model = Model({}, 0.0, 1.0, frozenset(common), start, end)

    profiles = [
        [profile(text, model, float(start_oof[open_at[r, p]]), float(end_oof[close_at[r, p]]))
         for p, text in enumerate(paragraphs)]
        for r, paragraphs in enumerate(records)
    ]
    rows, labels = [], []

    def add(before, current, label: int) -> None:
        values = features(before, current, model.common)
        # Pairs a rule decides are not the model's to learn.
        if not any(values[rule] for rule in RULES):
            rows.append(values)
            labels.append(label)

    for shaped in profiles:
        for p in range(1, len(shaped)):
            add(shaped[:p], shaped[p], 1)
    rng = random.Random(14)
    orders = [list(range(len(records)))]
    for _ in range(SHUFFLES):
        order = list(range(len(records)))
        rng.shuffle(order)
        orders.append(order)
    for order in orders:
        for a, b in itertools.pairwise(order):
            add(profiles[a], profiles[b][0], 0)
    x = np.array([[row[name] for name in FEATURES] for row in rows])
    y = np.array(labels)
    pair = LogisticRegression(C=args.C, max_iter=5000, class_weight="balanced").fit(x, y)
    scores = np.round(pair.decision_function(x), 6)
    highest_break = float(np.sort(scores[y == 0])[-1 - args.allowed])
    threshold = round(highest_break + MARGIN, 4)
    caught = float((scores[y == 1] >= threshold).mean())
    print(f"{len(records)} tune abstracts: {int(y.sum())} inner breaks, {int((y == 0).sum())} breaks between abstracts")
    print(f"sentence scorers: {len(start.weights)} opening and {len(end.weights)} closing tokens; "
          f"{len(common)} common words")
    print(f"highest break between abstracts allowed {highest_break:.4f} log-odds; threshold {threshold}; "
          f"inner breaks joined {caught:.3f}")
    for name, weight in sorted(zip(FEATURES, pair.coef_[0], strict=True), key=lambda kv: -abs(kv[1])):
        print(f"  {name:24s} {weight:+.3f}")
    data = {
        "about": "paragraph model: logistic regression over generator.read.paragraphs.features; "
                 "retrain with scripts/train_paragraph_model.py",
        "features": list(FEATURES),
        "weights": {name: round(float(w), 6) for name, w in zip(FEATURES, pair.coef_[0], strict=True)},
        "bias": round(float(pair.intercept_[0]), 6),
        "threshold": threshold,
        "common": common,
        "start": {"bias": start.bias, "weights": dict(sorted(start.weights.items()))},
        "end": {"bias": end.bias, "weights": dict(sorted(end.weights.items()))},
    }
    args.output.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.output} ({args.output.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
