"""The shipped title model: linear weights over candidate features, and corpus word statistics.

`generator/data/title_model.json` is written by `scripts/train_title_model.py`:

- "name": logistic weights over `names.NAME_FEATURES` and the score from which a
  name is taken as the paper's own;
- "named" / "headline": linear weights over `candidates.FEATURES` that rank the
  descriptions after "NAME: " and the headlines of papers without a name;
- "sentence": linear weights over `contribution.SENTENCE_FEATURES` that score how likely
  each sentence is the one the real title was taken from (titles and summaries read it);
- "compress": the word labeller of `compress.py` (a weight per word feature, a bias,
  keep/drop transition weights) that makes titles by deleting words from a sentence;
- "confidence": linear weights over `CONFIDENCE_FEATURES`, their calibration to the
  strict reader's verdicts and the threshold under which a headline shows its safe form;
- "vocabulary": per word, the number of training abstracts that use it, how
  many of those have it in the title, and how many of those titles start and end
  with it (the salience and title-shape features).

Scores are sums in a fixed order in plain Python, rounded to 6 decimals before
any comparison, so every machine ranks candidates the same way.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from operator import mul

from .compress import Compressor
from .contribution import SENTENCE_FEATURES
from .features import FEATURES, Vocabulary, idf_of
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


#: What the confidence weighs: a chosen candidate's features and whether the title has a name.
CONFIDENCE_FEATURES = (*FEATURES, "named")


@dataclass(frozen=True)
class Confidence:
    """How likely a strict reader would not call a title bad: a linear score, then a calibration to a probability.

    The linear score is learned on the tune parts (a title sharing at least LABEL_ROUGE of ROUGE-L
    with the real one counts as not bad); `slope` and `intercept` map it to the share of titles the
    strict reader did not call bad (Platt scaling on the reader's verdicts of tune papers). Headlines
    under `threshold` (on the linear score: no floating-point function decides) show a safe form.
    """

    linear: Linear
    slope: float
    intercept: float
    threshold: float

    def logit(self, features: tuple[float, ...], named: bool) -> float:
        """Return the linear score of a chosen candidate."""
        return self.linear.score((*features, float(named)))

    def probability(self, logit: float) -> float:
        """Return the calibrated probability, rounded to two decimals (what pages and exports show)."""
        return round(1 / (1 + math.exp(-(self.slope * logit + self.intercept))), 2)


@dataclass(frozen=True)
class TitleModel:
    """Everything title inference learns from the corpora."""

    name: Linear
    name_threshold: float
    named: Linear
    headline: Linear
    sentence: Linear
    compressor: Compressor
    confidence: Confidence
    vocabulary: Vocabulary


def _linear(data: dict, features: tuple[str, ...]) -> Linear:
    if tuple(data["features"]) != features:
        raise ValueError(f"{MODEL_FILE} was trained on other features; run scripts/train_title_model.py")
    return Linear(tuple(float(w) for w in data["weights"]), float(data["bias"]))


def vocabulary_from(documents: int, words: dict[str, list[int]]) -> Vocabulary:
    """Build the salience statistics from per-word counts: abstracts, titles, titles it starts, titles it ends."""
    hits = sum(c[1] for c in words.values())
    base = hits / max(sum(c[0] for c in words.values()), 1)
    first = sum(c[2] for c in words.values()) / max(hits, 1)
    last = sum(c[3] for c in words.values()) / max(hits, 1)
    idf = {w: idf_of(c[0], documents) for w, c in words.items()}
    rate = {w: (c[1] + _RATE_PRIOR * base) / (c[0] + _RATE_PRIOR) for w, c in words.items()}
    # Of the titles that use a word, how many start (end) with it: "Using ..." and "... Possess" are rare.
    starts = {w: round((c[2] + _RATE_PRIOR * first) / (c[1] + _RATE_PRIOR), 4) for w, c in words.items()}
    ends = {w: round((c[3] + _RATE_PRIOR * last) / (c[1] + _RATE_PRIOR), 4) for w, c in words.items()}
    return Vocabulary(idf, rate, idf_of(0, documents), base, starts, ends, round(first, 4), round(last, 4))


def compressor_from(data: dict) -> Compressor:
    """Build the word labeller from its JSON form."""
    (a, b), (c, d) = data["transitions"]
    weights = {str(k): float(w) for k, w in data["weights"].items()}
    return Compressor(weights, float(data["bias"]), ((float(a), float(b)), (float(c), float(d))))


def model_from_dict(data: dict) -> TitleModel:
    """Build the model from its JSON form."""
    vocabulary = data["vocabulary"]
    return TitleModel(
        name=_linear(data["name"], NAME_FEATURES),
        name_threshold=float(data["name"]["threshold"]),
        named=_linear(data["named"], FEATURES),
        headline=_linear(data["headline"], FEATURES),
        sentence=_linear(data["sentence"], SENTENCE_FEATURES),
        compressor=compressor_from(data["compress"]),
        confidence=Confidence(
            _linear(data["confidence"], CONFIDENCE_FEATURES), float(data["confidence"]["slope"]),
            float(data["confidence"]["intercept"]), float(data["confidence"]["threshold"]),
        ),
        vocabulary=vocabulary_from(int(vocabulary["documents"]), vocabulary["words"]),
    )


@lru_cache(maxsize=1)
def load_model() -> TitleModel:
    """Load the shipped model from package data (no network, no pickle)."""
    text = resources.files("generator").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return model_from_dict(json.loads(text))
