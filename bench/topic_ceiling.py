"""What other topic classifiers would score: first-topic precision on the threshold fold (prints figures; not a test).

    python bench/topic_ceiling.py

Reads only the 'tune' part (bench/split.py), as scripts/train_topic_model.py
does: the classifiers are fitted on its four fifths and measured on the fifth
that picks the thresholds (`calibration_fold`), split into ICLR 2024 and the
other venues. Each line changes one thing against the shipped recipe (one L2
logistic regression per topic, C=4, thresholds for precision 0.65, the best
topic from probability 0.1 when none passes) and prints first-topic precision
and the share of papers tagged, by the rule of bench/tags.py:

- regularisation C 2 and 8; other venues' papers weighted twice;
- thresholds aimed at precision 0.5 and 0.8, and a lower fallback floor;
- the first topic ordered by probability over threshold;
- a softmax ranker over the topics (each labelled paper spread over its
  topics) choosing the first topic, the per-topic models deciding which pass;
- nearest-neighbour label transfer (cosine over the same features, the 10
  nearest training papers) blended with the classifiers;
- the shipped model's figures per venue of the fold, beside the labels' reach
  there (the share of papers whose keywords or title name any topic).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_topic_model import (
    CORPORA,
    calibration_fold,
    keywords_of,
    label_matrix,
    labelled_records,
    pick_threshold,
    read_jsonl,
)

from bench.split import part_of
from generator.enrich.areas import load_model
from generator.enrich.keywords import named_topics
from generator.enrich.tags import load_topics
from generator.enrich.topic_choice import tag_topics
from generator.enrich.topic_model import featurize
from generator.text import to_plain


class Data:
    """The tune part's features and labels, as the training script builds them."""

    def __init__(self) -> None:
        topics = load_topics()
        area_model = load_model()
        self.records = labelled_records(CORPORA)
        extra = [r for r in read_jsonl(CORPORA / "iclr2025.jsonl") if part_of(r["id"]) == "tune"]
        self.x = featurize([to_plain(r["abstract"]) for r in self.records], area_model, topics).matrix.tocsr()
        self.x_extra = featurize([to_plain(r["abstract"]) for r in extra], area_model, topics).matrix.tocsr()
        self.y = label_matrix(topics, [(keywords_of(r), r["title"]) for r in self.records])
        self.y_extra = label_matrix(topics, [([], r["title"]) for r in extra])
        calib = np.array([calibration_fold(r["id"]) for r in self.records])
        self.fit, self.cal = np.flatnonzero(~calib), np.flatnonzero(calib)
        self.other = np.array([r.get("venue") != "ICLR 2024" for r in self.records])


def fit_topics(data: Data, c: float = 4.0, other_weight: float = 1.0) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Fit one logistic regression per topic with 25 positives or more; return the topics, weights, intercepts."""
    from sklearn.linear_model import LogisticRegression

    learned, coefs, intercepts = [], [], []
    for t in range(data.y.shape[1]):
        positives = np.flatnonzero(data.y_extra[:, t])
        x = sp.vstack([data.x[data.fit], data.x_extra[positives]], format="csr")
        y = np.concatenate([data.y[data.fit, t], np.ones(len(positives), dtype=bool)]).astype(np.int8)
        if y.sum() < 25:
            continue
        weight = np.concatenate([np.where(data.other[data.fit], other_weight, 1.0), np.ones(len(positives))])
        model = LogisticRegression(C=c, solver="liblinear", max_iter=500, random_state=0)
        model.fit(x, y, sample_weight=weight)
        learned.append(t)
        coefs.append(model.coef_[0])
        intercepts.append(model.intercept_[0])
    return learned, np.stack(coefs, axis=1), np.array(intercepts)


def score(data: Data, learned: list[int], probs: np.ndarray, order: np.ndarray | None = None,
          precision: float = 0.65, floor: float = 0.1) -> dict[str, tuple[float, float]]:
    """Return, per group of the fold, first-topic precision and the share tagged."""
    truth = data.y[data.cal][:, learned]
    thresholds = np.array([pick_threshold(np.round(probs[:, j], 3), truth[:, j], precision, 0.2, 3)
                           for j in range(len(learned))])
    order = probs if order is None else order
    passing = probs >= thresholds
    has = passing.any(axis=1)
    first = np.where(has, np.where(passing, order, -np.inf).argmax(axis=1), order.argmax(axis=1))
    tagged = has | (probs[np.arange(len(probs)), first] >= floor)
    right = truth[np.arange(len(truth)), first] & tagged
    groups = {"ICLR 2024": ~data.other[data.cal], "other venues": data.other[data.cal]}
    return {name: (right[m].sum() / max(tagged[m].sum(), 1), tagged[m].mean()) for name, m in groups.items()}


def show(label: str, figures: dict[str, tuple[float, float]]) -> None:
    print(f"{label:55s}", "   ".join(f"{g} {p:.3f} / {t:.3f}" for g, (p, t) in figures.items()), flush=True)


def probabilities(data: Data, fitted: tuple[list[int], np.ndarray, np.ndarray]) -> np.ndarray:
    _, coef, intercept = fitted
    return 1.0 / (1.0 + np.exp(-(np.asarray(data.x[data.cal] @ coef) + intercept)))


def softmax_order(data: Data, learned: list[int]) -> np.ndarray:
    """Return a softmax ranker's probabilities on the fold (each labelled paper spread over its topics)."""
    from sklearn.linear_model import LogisticRegression

    rows, labels, weights = [], [], []
    for matrix, labels_of, indices in ((data.x, data.y, data.fit),
                                       (data.x_extra, data.y_extra, np.arange(data.x_extra.shape[0]))):
        for i in indices:
            mine = np.flatnonzero(labels_of[i, learned])
            for topic in mine:
                rows.append(matrix[i])
                labels.append(topic)
                weights.append(1.0 / len(mine))
    model = LogisticRegression(C=4.0, max_iter=300)
    model.fit(sp.vstack(rows, format="csr"), np.array(labels), sample_weight=np.array(weights))
    order = np.full((len(data.cal), len(learned)), -np.inf)
    order[:, model.classes_] = model.predict_proba(data.x[data.cal])
    return order


def neighbour_votes(data: Data, learned: list[int], k: int = 10) -> np.ndarray:
    """Return each fold paper's topic votes from its k nearest training papers (cosine similarity)."""
    from sklearn.preprocessing import normalize

    base = normalize(sp.vstack([data.x[data.fit], data.x_extra], format="csr"))
    labels = np.vstack([data.y[data.fit][:, learned], data.y_extra[:, learned]]).astype(np.float32)
    sims = (normalize(data.x[data.cal]) @ base.T).toarray()
    nearest = np.argpartition(-sims, k, axis=1)[:, :k]
    weight = np.take_along_axis(sims, nearest, axis=1)
    return np.einsum("nk,nkt->nt", weight, labels[nearest]) / np.maximum(weight.sum(axis=1, keepdims=True), 1e-9)


def per_venue() -> None:
    """Print the shipped model's first-topic precision, share tagged and labels' reach per venue of the fold."""
    topics = load_topics()
    records = [r for r in labelled_records(CORPORA) if calibration_fold(r["id"])]
    found = tag_topics([to_plain(r["abstract"]) for r in records], topics)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for record, tags in zip(records, found, strict=True):
        named = named_topics(topics, keywords_of(record), record["title"])
        row = counts[record.get("venue", "?")]
        row[0] += 1
        row[1] += bool(tags)
        row[2] += bool(tags) and tags[0].name in named
        row[3] += bool(named)
    print("shipped model per venue of the fold (first-topic precision, tagged, labels' reach):")
    for venue, (n, tagged, right, reach) in sorted(counts.items()):
        print(f"  {venue:12s} {n:5d} papers  precision {right / max(tagged, 1):.2f}  tagged {tagged / n:.2f}  "
              f"reach {reach / n:.2f}")


def main() -> None:
    print("$ python bench/topic_ceiling.py   (first-topic precision / share tagged, threshold fold of the tune part)")
    data = Data()
    shipped = fit_topics(data)
    learned = shipped[0]
    probs = probabilities(data, shipped)
    show("shipped recipe (C 4, precision 0.65, floor 0.1)", score(data, learned, probs))
    for c in (2.0, 8.0):
        show(f"C {c:g}", score(data, learned, probabilities(data, fit_topics(data, c=c))))
    show("other venues weighted x2", score(data, learned, probabilities(data, fit_topics(data, other_weight=2.0))))
    show("thresholds for precision 0.5", score(data, learned, probs, precision=0.5))
    show("thresholds for precision 0.8", score(data, learned, probs, precision=0.8))
    show("thresholds for precision 0.8, floor 0.07", score(data, learned, probs, precision=0.8, floor=0.07))
    show("floor 0.05", score(data, learned, probs, floor=0.05))
    truth = data.y[data.cal][:, learned]
    thresholds = np.array([pick_threshold(np.round(probs[:, j], 3), truth[:, j], 0.65, 0.2, 3)
                           for j in range(len(learned))])
    show("first topic by probability over threshold", score(data, learned, probs, order=probs / thresholds))
    show("first topic by a softmax ranker", score(data, learned, probs, order=softmax_order(data, learned)))
    votes = neighbour_votes(data, learned)
    for share in (0.0, 0.7):
        show(f"first topic by {share:g} classifier + {1 - share:g} 10-nearest-neighbour votes",
             score(data, learned, probs, order=share * probs + (1 - share) * votes))
    per_venue()


if __name__ == "__main__":
    main()
