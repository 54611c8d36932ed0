"""The shipped title model: linear weights over candidate features, and corpus word statistics.

`generator/data/title_model.json` is written by `scripts/train_title_model.py`:

- "name": logistic weights over `names.NAME_FEATURES` and the score from which a
  name is taken as the paper's own;
- "named" / "headline": linear weights over `candidates.FEATURES` that rank the
  descriptions after "NAME: " and the headlines of papers without a name;
- "vocabulary": per word, the number of training abstracts that use it and how
  many of those have it in the title (the salience features).

Scores are sums in a fixed order in plain Python, rounded to 6 decimals before
any comparison, so every machine ranks candidates the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from operator import mul

from .candidates import FEATURES, Vocabulary, idf_of
from .names import NAME_FEATURES

MODEL_FILE = "data/title_model.json"
#: Decimals a score keeps before scores are compared: last-bit differences never decide.
SCORE_DECIMALS = 6
# The title rate of a word seen in few abstracts is pulled towards the corpus rate.
_RATE_PRIOR = 5.0


@dataclass(frozen=True)
class Linear:
    """A linear scorer: weights over named features and a bias."""

    weights: tuple[float, ...]
    bias: float

    def score(self, features: tuple[float, ...]) -> float:
        """Return the rounded score of one feature vector."""
        # A plain-Python sum in a fixed order: the same bits on every machine, then rounded.
        return round(self.bias + sum(map(mul, self.weights, features)), SCORE_DECIMALS)


@dataclass(frozen=True)
class TitleModel:
    """Everything title inference learns from the corpora."""

    name: Linear
    name_threshold: float
    named: Linear
    headline: Linear
    vocabulary: Vocabulary


def _linear(data: dict, features: tuple[str, ...]) -> Linear:
    if tuple(data["features"]) != features:
        raise ValueError(f"{MODEL_FILE} was trained on other features; run scripts/train_title_model.py")
    return Linear(tuple(float(w) for w in data["weights"]), float(data["bias"]))


def vocabulary_from(documents: int, words: dict[str, list[int]]) -> Vocabulary:
    """Build the salience statistics from document and title counts per word."""
    hits = sum(h for _, h in words.values())
    base = hits / max(sum(d for d, _ in words.values()), 1)
    idf = {w: idf_of(d, documents) for w, (d, _) in words.items()}
    rate = {w: (h + _RATE_PRIOR * base) / (d + _RATE_PRIOR) for w, (d, h) in words.items()}
    return Vocabulary(idf, rate, idf_of(0, documents), base)


def model_from_dict(data: dict) -> TitleModel:
    """Build the model from its JSON form."""
    vocabulary = data["vocabulary"]
    return TitleModel(
        name=_linear(data["name"], NAME_FEATURES),
        name_threshold=float(data["name"]["threshold"]),
        named=_linear(data["named"], FEATURES),
        headline=_linear(data["headline"], FEATURES),
        vocabulary=vocabulary_from(int(vocabulary["documents"]), vocabulary["words"]),
    )


@lru_cache(maxsize=1)
def load_model() -> TitleModel:
    """Load the shipped model from package data (no network, no pickle)."""
    text = resources.files("generator").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return model_from_dict(json.loads(text))
