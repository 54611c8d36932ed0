"""The shipped paragraph model: its weights and threshold (package data, JSON), and the sentence scorers.

The scorers read how a paragraph's first sentence opens and its last one closes
(`opening_tokens`, `closing_tokens`): an abstract opens on its field and closes
on its results. `scripts/train_paragraph_model.py` fits everything here;
paragraphs.py decides with it.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

#: The model's file in the package data.
MODEL_FILE = "paragraph_model.json"


@dataclass(frozen=True)
class Scorer:
    """A logistic model over sparse binary tokens: a bias and a weight per known token."""

    bias: float
    weights: dict[str, float]

    def logit(self, tokens: list[str]) -> float:
        """Return the log-odds for a bag of tokens (each counted once), rounded."""
        get = self.weights.get
        return round(self.bias + math.fsum(get(token, 0.0) for token in set(tokens)), 6)


@dataclass(frozen=True)
class Model:
    """The paragraph model (shipped as JSON): pair weights and threshold, sentence scorers, common words."""

    weights: dict[str, float]
    bias: float
    threshold: float
    common: frozenset[str]
    start: Scorer = Scorer(0.0, {})
    end: Scorer = Scorer(0.0, {})


_TOKEN = re.compile(r"[a-z]+|\d+|[^\sa-z\d]")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[$\d])")
#: Words of a sentence the opening and closing scorers read.
_SENTENCE_WORDS = 20


def first_sentence(text: str) -> str:
    """Return the first sentence of a paragraph."""
    return _SENTENCE_SPLIT.split(text.strip(), maxsplit=1)[0]


def last_sentence(text: str) -> str:
    """Return the last sentence of a paragraph."""
    return _SENTENCE_SPLIT.split(text.strip())[-1]


def sentences(text: str) -> list[str]:
    """Split a paragraph into sentences (as the opening and closing scorers see them)."""
    return [part for part in _SENTENCE_SPLIT.split(text.strip()) if part]


def _grams(words: list[str]) -> list[str]:
    return [*words, *(f"{a}_{b}" for a, b in itertools.pairwise(words))]


def opening_tokens(sentence: str) -> list[str]:
    """Return the tokens the opening scorer reads: how the sentence starts, and its words."""
    words = _TOKEN.findall(sentence.lower())[:_SENTENCE_WORDS]
    return [*(f"^{i}={word}" for i, word in enumerate(words[:3])), *_grams(words)]


def closing_tokens(sentence: str) -> list[str]:
    """Return the tokens the closing scorer reads: how the sentence ends, and its words."""
    words = _TOKEN.findall(sentence.lower())[-_SENTENCE_WORDS:]
    return [*(f"${i}={word}" for i, word in enumerate(words[::-1][:3])), *_grams(words)]



@lru_cache(maxsize=1)
def load_model() -> Model:
    """Load the shipped paragraph model."""
    data = json.loads(resources.files("generator").joinpath("data", MODEL_FILE).read_text(encoding="utf-8"))
    return model_from_dict(data)


def model_from_dict(data: dict) -> Model:
    """Build a model from its JSON form."""
    return Model(
        weights={str(k): float(v) for k, v in data["weights"].items()},
        bias=float(data["bias"]),
        threshold=float(data["threshold"]),
        common=frozenset(data["common"]),
        start=Scorer(float(data["start"]["bias"]), {str(k): float(v) for k, v in data["start"]["weights"].items()}),
        end=Scorer(float(data["end"]["bias"]), {str(k): float(v) for k, v in data["end"]["weights"].items()}),
    )
