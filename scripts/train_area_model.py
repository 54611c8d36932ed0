"""Train the research-area classifier shipped in generator/data/.

Run from the project root (about a minute on 2 cores):

    python scripts/train_area_model.py ../shared/corpora/iclr2025.jsonl

Trains TF-IDF (words and bigrams) + logistic regression on the abstract of
every record of the 'tune' part (bench/split.py) with a `primary_area` listed
in generator/data/areas.yaml (the held-out part is never read, so
bench/tags.py measures the shipped model on papers it never saw), and writes generator/data/area_model.npz: the
vocabulary, idf weights, coefficients (float16) and intercepts. No pickle: the
file loads with numpy alone and does not depend on scikit-learn's version.

To train a model for another venue's taxonomy, replace areas.yaml with that
venue's labels and display names and point this script at its records.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.split import part_of
from generator.enrich.areas import MODEL_PATH, load_taxonomy, make_vectorizer
from generator.text import to_plain


def load_records(paths: list[str], labels: set[str]) -> tuple[list[str], list[str]]:
    """Return the plain abstracts and primary areas of the tune records of `paths` with an area of `labels`."""
    texts, targets = [], []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if record.get("primary_area") in labels and part_of(record["id"]) == "tune":
                    # Train on abstracts only: that is what a digest gives us.
                    texts.append(to_plain(record["abstract"]))
                    targets.append(record["primary_area"])
    return texts, targets


def train(texts: list[str], targets: list[str], labels: list[str], c: float = 4.0):
    from sklearn.linear_model import LogisticRegression

    vectorizer = make_vectorizer(max_features=40000, min_df=3)
    matrix = vectorizer.fit_transform(texts)
    y = np.array([labels.index(t) for t in targets])
    model = LogisticRegression(C=c, max_iter=2000)
    model.fit(matrix, y)
    return vectorizer, model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="+")
    parser.add_argument("--out", default=str(MODEL_PATH))
    parser.add_argument("-C", type=float, default=4.0, help="inverse regularisation strength")
    args = parser.parse_args()
    labels = [area.label for area in load_taxonomy()]
    texts, targets = load_records(args.corpus, set(labels))
    vectorizer, model = train(texts, targets, labels, args.C)
    vocabulary = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    np.savez_compressed(
        args.out,
        vocabulary=np.array(vocabulary),
        idf=vectorizer.idf_.astype(np.float32),
        coef=model.coef_.astype(np.float16),
        intercept=model.intercept_.astype(np.float32),
        labels=np.array(labels),
    )
    print(f"trained on {len(texts)} abstracts, {len(vocabulary)} features -> {args.out}")


if __name__ == "__main__":
    main()
