"""Train the field model and the field topic model (generator/data/field_model.npz, field_topic_model.npz).

Run from the project root, after the area model (both read its TF-IDF vocabulary):

    python scripts/train_field_model.py

Papers: the 'tune' part of ../shared/corpora (fields.jsonl.gz, iclr2024, iclr2025,
other-venues); the held-out venue-years of `bench.split.HELD_OUT_VENUES` and the
held-out fifth of every corpus are never read. A paper's field is its venue's
(generator/data/fields.yaml `venues`); at most `--per-field` papers of a field, the
first by a hash of their ids, train the field model (one multinomial logistic
regression, classes weighted alike).

The field topic model learns aboutness from titles: for each field, its papers are
labelled by their titles (and the keywords of venues that give them): a paper is a
positive of a topic when its title names the topic as its subject (`title_labels`: the
topic model's label rule, `keywords.named_topics`, with a word inside another topic's longer
phrase that phrase's only, as the abstract's features count it), of an area when it names any
topic of the area. Four
fifths fit one L2 logistic regression per column on `topic_model.featurize`'s
features (TF-IDF and where each topic's phrases sit: anywhere, contribution
sentences, results sentences); one fifth picks each column's threshold, the lowest
at which its predictions reach `--precision`. Deterministic: same corpora, same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_topic_model import calibration_fold, pick_threshold, save_topic_model

from bench.split import field_part_of, paper_key
from generator.enrich.areas import load_model
from generator.enrich.field_vocabulary import MACHINE_LEARNING, field_topics, load_vocabulary
from generator.enrich.fields import FIELD_MODEL_PATH, FIELD_TOPIC_MODEL_PATH
from generator.enrich.keywords import named_topics
from generator.enrich.tags import Topic, topic_hits
from generator.enrich.topic_model import DECIMALS, featurize, vocabulary_fingerprint
from generator.text import to_plain

CORPORA = ROOT.parent / "shared" / "corpora"


def read_corpora(corpora: Path) -> list[dict]:
    """Return every tune record of the corpora that names a venue of a field, with its `field`."""
    vocabulary = load_vocabulary()
    records = []
    for name in ("iclr2024.jsonl", "iclr2025.jsonl", "other-venues.jsonl", "fields.jsonl.gz"):
        path = corpora / name
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                field = vocabulary.field_of_venue(str(record.get("venue") or ""))
                if field and record.get("abstract") and field_part_of(record) == "tune":
                    records.append({**record, "id": paper_key(record), "field": field})
    return records


def _order(record: dict) -> bytes:
    return hashlib.sha256(f"field:{record['id']}".encode()).digest()


def capped(records: list[dict], per_field: int) -> list[dict]:
    """Return at most `per_field` records of each field, the first by a hash of their ids (in that order)."""
    chosen = []
    for field in sorted({r["field"] for r in records}):
        chosen += sorted((r for r in records if r["field"] == field), key=_order)[:per_field]
    return chosen


def train_field_model(records: list[dict], area_model, out: Path, c: float) -> None:
    from sklearn.linear_model import LogisticRegression

    names = [f.name for f in load_vocabulary().fields if any(r["field"] == f.name for r in records)]
    x = area_model.features([to_plain(r["abstract"]) for r in records])
    y = np.array([names.index(r["field"]) for r in records])
    model = LogisticRegression(C=c, max_iter=300, class_weight="balanced")
    model.fit(x, y)
    coef = model.coef_.astype(np.float16)
    np.savez_compressed(
        out, names=np.array(names), coef=coef, intercept=model.intercept_.astype(np.float32),
        area_fingerprint=np.array(vocabulary_fingerprint(area_model.terms.tolist())),
    )
    counts = {n: int((y == i).sum()) for i, n in enumerate(names)}
    print(f"field model: {len(records)} papers {counts} -> {out}")


def title_labels(topics: tuple[Topic, ...], record: dict) -> set[str]:
    """Return the topics a training paper is a positive of: those its keywords name, and its title's subjects.

    The title names a topic as the abstract's features do (`tags.topic_hits(strict=True)`): a word inside
    another topic's longer phrase is that phrase's, so "Temporal Action Segmentation" is action
    recognition and not semantic segmentation, "Video Deraining" image restoration and not video
    analysis. A named topic's parent is named too (`keywords.named_topics`).
    """
    keywords = [k for k in record.get("keywords") or [] if isinstance(k, str)]
    named = named_topics(topics, keywords)
    parents = {topic.name: topic.parent for topic in topics if topic.parent}
    for index, _, _, _ in topic_hits(record["title"], topics, strict=True):
        name = topics[index].name
        named.add(name)
        while name in parents and parents[name] not in named:
            name = parents[name]
            named.add(name)
    return named


def train_topic_model(records: list[dict], area_model, args) -> None:
    from sklearn.linear_model import LogisticRegression

    vocabulary = load_vocabulary()
    topics = field_topics(vocabulary)
    column = {t.name: i for i, t in enumerate(topics)}
    width = area_model.features(["x"]).shape[1] + 3 * len(topics)
    coefs = [np.zeros(width, dtype=np.float32) for _ in topics]
    intercepts = [0.0] * len(topics)
    thresholds = [-1.0] * len(topics)
    for field in vocabulary.fields:
        mine = [r for r in records if r["field"] == field.name]
        if field.name == MACHINE_LEARNING or not mine or not field.areas:
            continue
        plains = [to_plain(r["abstract"]) for r in mine]
        features = featurize(plains, area_model, topics, strict=True).matrix
        labels = [title_labels(topics, r) for r in mine]
        calib = np.array([calibration_fold(r["id"]) for r in mine])
        fit_rows, calib_rows = np.flatnonzero(~calib), np.flatnonzero(calib)
        for area in field.areas:
            area_column = "area: " + area.name
            for name in (area_column, *area.topics):
                t = column[name]
                truth = np.array([name in row or (name == area_column and any(n in row for n in area.topics))
                                  for row in labels])
                if truth[fit_rows].sum() < args.min_positives:
                    print(f"{field.name[:12]:12s} {name:50s} positives {int(truth.sum()):5d}  too few")
                    continue
                model = LogisticRegression(C=args.C, solver="liblinear", max_iter=500, random_state=0)
                model.fit(features[fit_rows], truth[fit_rows].astype(np.int8))
                coef = model.coef_[0].astype(np.float16).astype(np.float32)
                coef[np.abs(coef) < args.prune] = 0.0
                scores = np.asarray(features[calib_rows] @ coef).ravel() + float(model.intercept_[0])
                probs = np.round(1.0 / (1.0 + np.exp(-scores)), DECIMALS)
                threshold = pick_threshold(probs, truth[calib_rows], args.precision, args.lowest, min_hits=3)
                coefs[t], intercepts[t], thresholds[t] = coef, float(model.intercept_[0]), threshold
                print(f"{field.name[:12]:12s} {name:50s} positives {int(truth.sum()):5d}  threshold {threshold:.2f}")
    matrix = save_topic_model(args.topics_out, [t.name for t in topics], coefs, intercepts, thresholds, 1.0,
                              list(vocabulary.entries), area_model.terms.tolist(), strict=True)
    print(f"field topic model: {len(topics)} columns, {matrix.nnz} weights -> {args.topics_out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", default=str(CORPORA))
    parser.add_argument("--out", default=str(FIELD_MODEL_PATH))
    parser.add_argument("--topics-out", default=str(FIELD_TOPIC_MODEL_PATH))
    parser.add_argument("--per-field", type=int, default=8000, help="papers of a field training the field model")
    parser.add_argument("--per-field-topics", type=int, default=20000, help="papers of a field training its topics")
    parser.add_argument("-C", type=float, default=4.0, help="inverse regularisation strength")
    parser.add_argument("--precision", type=float, default=0.6, help="precision each threshold aims at (title labels)")
    parser.add_argument("--lowest", type=float, default=0.2, help="lowest threshold a topic may get")
    parser.add_argument("--min-positives", type=int, default=20, help="fewer labelled papers: no classifier")
    parser.add_argument("--prune", type=float, default=0.05, help="drop weights smaller than this")
    parser.add_argument("--skip-fields", action="store_true", help="train only the field topic model")
    args = parser.parse_args()
    area_model = load_model()
    records = read_corpora(Path(args.corpora))
    if not args.skip_fields:
        train_field_model(capped(records, args.per_field), area_model, Path(args.out), args.C)
    train_topic_model(capped(records, args.per_field_topics), area_model, args)


if __name__ == "__main__":
    main()
