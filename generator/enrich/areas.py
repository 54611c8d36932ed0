"""Predict a paper's research area with the shipped TF-IDF + linear model."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import yaml
from sklearn.feature_extraction.text import TfidfVectorizer

from .tags import mentions_language_model

MODEL_PATH = Path(__file__).resolve().parents[1] / "data" / "area_model.npz"


@dataclass(frozen=True)
class Area:
    """One research area: the venue's label and the short name the site shows."""

    label: str
    name: str
    #: Given only to an abstract that mentions a language model (the LLM area).
    llm_era: bool = False


@dataclass(frozen=True)
class AreaGuess:
    """A predicted area with its probability and the words that weighed most."""

    area: Area
    probability: float
    evidence: tuple[str, ...]


@lru_cache(maxsize=1)
def load_taxonomy() -> tuple[Area, ...]:
    """Return the bundled research-area taxonomy."""
    text = resources.files("generator").joinpath("data/areas.yaml").read_text(encoding="utf-8")
    return tuple(Area(item["label"], item["name"], bool(item.get("llm_era"))) for item in yaml.safe_load(text))


def make_vectorizer(**options: object) -> TfidfVectorizer:
    """Return the TF-IDF vectorizer used both to train and to apply the model."""
    return TfidfVectorizer(
        ngram_range=(1, 2),
        sublinear_tf=True,
        stop_words="english",
        token_pattern=r"(?u)\b[A-Za-z][A-Za-z0-9-]+\b",
        dtype=np.float32,
        **options,
    )


class AreaModel:
    """The shipped area classifier: TF-IDF features and one linear model per area."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        with np.load(path, allow_pickle=False) as data:
            vocabulary = data["vocabulary"].tolist()
            self.vectorizer = make_vectorizer(vocabulary={term: i for i, term in enumerate(vocabulary)})
            self.vectorizer.idf_ = data["idf"]
            self.coef = data["coef"].astype(np.float32)
            self.intercept = data["intercept"]
            labels = data["labels"].tolist()
        by_label = {area.label: area for area in load_taxonomy()}
        self.areas = [by_label.get(label, Area(label, label)) for label in labels]
        self.terms = np.array(vocabulary)

    def features(self, texts: list[str]):
        """Return the TF-IDF rows of texts (the shipped vocabulary and idf: independent of the digest)."""
        return self.vectorizer.transform(texts)

    def predict(self, texts: list[str], evidence: int = 5, features=None) -> list[list[AreaGuess]]:
        """Return, for each text, every area ranked by probability (`features`: their TF-IDF rows, when known)."""
        features = self.vectorizer.transform(texts) if features is None else features
        scores = features @ self.coef.T + self.intercept
        scores = np.asarray(scores, dtype=np.float64)
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        # Rounded before ranking: the last bits of a float product vary across CPUs.
        probabilities = np.round(probabilities, 6)
        results = []
        for row, probs in enumerate(probabilities):
            order = np.argsort(-probs, kind="stable")
            vector = features.getrow(row)
            guesses = []
            for rank, index in enumerate(order):
                words: tuple[str, ...] = ()
                # Four: the area reranker chooses among three, and the first may be left out (an LLM-era area
                # for an abstract that names no language model).
                if rank < 4 and vector.nnz:
                    # Evidence: the terms whose weight pushed hardest toward this area.
                    contribution = vector.data * self.coef[index, vector.indices]
                    top = np.argsort(-contribution, kind="stable")[:evidence]
                    words = tuple(str(self.terms[vector.indices[i]]) for i in top if contribution[i] > 0)
                guesses.append(AreaGuess(self.areas[index], float(probs[index]), words))
            results.append(guesses)
        return results

    def predict_plausible(self, texts: list[str], features=None) -> list[list[AreaGuess]]:
        """Return `predict`'s areas without an LLM-era area for a text that mentions no language model."""
        return [
            [g for g in guesses if not g.area.llm_era or mentions_language_model(text)]
            for text, guesses in zip(texts, self.predict(texts, features=features), strict=True)
        ]


@lru_cache(maxsize=1)
def load_model() -> AreaModel:
    """Load the bundled area model once per process."""
    return AreaModel()
