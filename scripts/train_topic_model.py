"""Train the topic classifiers shipped in generator/data/topic_model.npz.

Run from the project root (about a minute on 2 cores):

    python scripts/train_topic_model.py

Distant supervision: a paper is a positive example of a topic of
generator/data/topics.yaml when its author keywords or its title name the topic
(`generator.enrich.tags.named_topics`: a child topic named names its parent too). Training papers are the 'tune' part
(bench/split.py) of ICLR 2024 and of the other venues that give keywords; the
'tune' part of ICLR 2025 (no keywords) adds the papers whose title names a topic
as extra positives of that topic only. The 'held-out' part is never read.

The labelled papers are split again (by a hash of the id): four fifths fit one
L2 logistic regression per topic on the features of generator/topic_model.py,
one fifth picks each topic's threshold, the lowest probability at which the
topic's predictions reach `--precision` on that fifth (see `pick_threshold`
when none does). A topic with fewer than
`--min-positives` labelled papers gets no classifier and stays phrase-matched. Weights under
`--prune` are dropped (sparse float16 storage). Same corpora, same model: the
solver is deterministic and nothing is sampled at random.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich.areas import load_model
from generator.enrich.keywords import named_topics
from generator.enrich.tags import load_topics
from generator.enrich.topic_model import DECIMALS, MODEL_PATH, featurize, vocabulary_fingerprint
from generator.text import to_plain

CORPORA = ROOT.parent / "shared" / "corpora"


def calibration_fold(paper_id: str) -> bool:
    """Return True for the fifth of tuning papers that picks the thresholds."""
    return hashlib.sha256(f"threshold:{paper_id}".encode()).digest()[0] % 5 == 0


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def keywords_of(record: dict) -> list[str]:
    return [k for k in record.get("keywords") or [] if isinstance(k, str)]


def labelled_records(corpora: Path) -> list[dict]:
    """Return the tuning papers with author keywords (ICLR 2024, other venues)."""
    records = read_jsonl(corpora / "iclr2024.jsonl") + read_jsonl(corpora / "other-venues.jsonl")
    return [r for r in records if keywords_of(r) and part_of(r["id"]) == "tune"]


def label_matrix(topics: tuple, papers: list[tuple[list[str], str]]) -> np.ndarray:
    """Return a papers x topics matrix: True where a paper's keywords or title name the topic (or a child of it)."""
    names = [t.name for t in topics]
    rows = [named_topics(topics, keywords, title) for keywords, title in papers]
    return np.array([[name in row for name in names] for row in rows], dtype=bool)


def pick_threshold(probs: np.ndarray, truth: np.ndarray, precision: float, lowest: float, min_hits: int) -> float:
    """Return the lowest threshold from `lowest` up whose predictions reach `precision` on the threshold fold.

    When none does: with fewer than 15 positives there the estimate means little,
    so 0.6 (a calibrated model's "likely"); otherwise the most precise threshold.
    """
    best, best_precision = 0.95, -1.0
    for threshold in np.round(np.arange(lowest, 0.96, 0.01), 2):
        chosen = probs >= threshold
        if chosen.sum() < min_hits:
            break
        hit_rate = truth[chosen].mean()
        if hit_rate >= precision:
            return float(threshold)
        if hit_rate > best_precision:
            best, best_precision = float(threshold), hit_rate
    return 0.6 if truth.sum() < 15 else best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", default=str(CORPORA))
    parser.add_argument("--out", default=str(MODEL_PATH))
    parser.add_argument("-C", type=float, default=4.0, help="inverse regularisation strength")
    parser.add_argument("--precision", type=float, default=0.65, help="precision each topic's threshold aims at")
    parser.add_argument("--lowest", type=float, default=0.2, help="lowest threshold a topic may get")
    parser.add_argument("--floor", type=float, default=0.05,
                        help="least probability of a paper's best topic when none passes its threshold")
    parser.add_argument("--min-positives", type=int, default=25, help="fewer labelled papers: phrase-matched")
    parser.add_argument("--prune", type=float, default=0.05, help="drop weights smaller than this")
    args = parser.parse_args()
    from sklearn.linear_model import LogisticRegression

    corpora = Path(args.corpora)
    topics = load_topics()
    area_model = load_model()
    records = labelled_records(corpora)
    extra = [r for r in read_jsonl(corpora / "iclr2025.jsonl") if part_of(r["id"]) == "tune"]
    plains = [to_plain(r["abstract"]) for r in records]
    extra_plains = [to_plain(r["abstract"]) for r in extra]
    labels = label_matrix(topics, [(keywords_of(r), r["title"]) for r in records])
    extra_labels = label_matrix(topics, [([], r["title"]) for r in extra])
    features = featurize(plains, area_model, topics).matrix
    extra_features = featurize(extra_plains, area_model, topics).matrix
    calib = np.array([calibration_fold(r["id"]) for r in records])
    fit_rows, calib_rows = np.flatnonzero(~calib), np.flatnonzero(calib)

    coefs, intercepts, thresholds = [], [], []
    for t, topic in enumerate(topics):
        positives = np.flatnonzero(extra_labels[:, t])
        x = sp.vstack([features[fit_rows], extra_features[positives]], format="csr")
        y = np.concatenate([labels[fit_rows, t], np.ones(len(positives), dtype=bool)]).astype(np.int8)
        if y.sum() < args.min_positives:
            # Too few labelled papers to learn from: the topic stays phrase-matched (threshold -1).
            coefs.append(np.zeros(features.shape[1], dtype=np.float32))
            intercepts.append(0.0)
            thresholds.append(-1.0)
            print(f"{topic.name:45s} positives {int(y.sum()):5d}  phrase-matched")
            continue
        model = LogisticRegression(C=args.C, solver="liblinear", max_iter=500, random_state=0)
        model.fit(x, y)
        coef = model.coef_[0].astype(np.float16).astype(np.float32)
        coef[np.abs(coef) < args.prune] = 0.0
        intercept = float(model.intercept_[0])
        scores = np.asarray(features[calib_rows] @ coef).ravel() + intercept
        probs = np.round(1.0 / (1.0 + np.exp(-scores)), DECIMALS)
        threshold = pick_threshold(probs, labels[calib_rows, t], args.precision, args.lowest, min_hits=3)
        coefs.append(coef)
        intercepts.append(intercept)
        thresholds.append(threshold)
        print(f"{topic.name:45s} positives {int(y.sum()):5d}  weights {int((coef != 0).sum()):6d}  "
              f"threshold {threshold:.2f}")

    entries = yaml.safe_load((ROOT / "generator" / "data" / "topics.yaml").read_text(encoding="utf-8"))
    matrix = save_topic_model(args.out, [t.name for t in topics], coefs, intercepts, thresholds, args.floor, entries,
                              area_model.terms.tolist())
    print(f"trained {len(topics)} topics on {len(fit_rows)} papers (+{len(extra)} titled ICLR 2025), "
          f"thresholds on {len(calib_rows)}, {matrix.nnz} weights -> {args.out}")


def save_topic_model(
    path: str | Path, names: list[str], coefs: list[np.ndarray], intercepts: list[float], thresholds: list[float],
    floor: float, entries: object, area_terms: list[str], strict: bool = False,
) -> sp.csr_matrix:
    """Write a topic model's arrays as `topic_model.TopicModel` reads them; return its weight matrix.

    One writer for ICLR's topic model and the field topic model (scripts/train_field_model.py), which
    share the format.
    """
    matrix = sp.csr_matrix(np.vstack(coefs))
    # A model whose phrase features count only matches that name a subject says so (topic_model.TopicModel.strict).
    flags: dict[str, np.ndarray] = {"strict_evidence": np.array(True)} if strict else {}
    np.savez_compressed(
        path,
        names=np.array(names),
        coef_data=matrix.data.astype(np.float16),
        coef_indices=matrix.indices.astype(np.int32),
        coef_indptr=matrix.indptr.astype(np.int32),
        coef_shape=np.array(matrix.shape, dtype=np.int64),
        intercept=np.array(intercepts, dtype=np.float32),
        thresholds=np.array(thresholds, dtype=np.float64),
        floor=np.array(floor, dtype=np.float32),
        vocabulary_json=np.array(json.dumps(entries, ensure_ascii=False, sort_keys=True)),
        area_fingerprint=np.array(vocabulary_fingerprint(area_terms)),
        **flags,  # type: ignore[arg-type]
    )
    return matrix


if __name__ == "__main__":
    main()
