"""The features the title model weighs for each candidate title (`candidates.py` cuts them).

Features are plain numbers: the candidate's kind and sentence, the sentence's
score as the title's source, how long it is and how it ends, how salient its
words are in this abstract against the corpus (`Vocabulary`), how often real
titles start and end on its first and last words, and the word labeller's
margin for a compressed candidate.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .cleaning import SMALL_WORDS, word_set

KINDS = (
    "expansion", "appositive", "before", "copula", "propose", "study", "show", "cue", "sentence", "by", "purpose",
    "combined", "compressed",
)
_REFERENCE_WORDS = word_set("this these those such their our we us its it they")

FEATURES = (
    *(f"kind_{k}" for k in KINDS),
    *(f"sentence_{i}" for i in range(6)),
    "contribution_sentence", "name_sentence", "length", "length_squared",
    "len_3", "len_4_6", "len_7_9", "len_10_12", "len_13",
    "end_punct", "end_sentence", "end_before_boundary", "mean_idf", "max_idf", "mean_tf", "repeated", "stop",
    "title_rate", "min_title_rate", "first_ing", "first_verb_s", "first_wh", "has_name", "other_names",
    "has_digit", "commas", "ands", "reference", "first_title_rate", "sentence_score", "compress_margin",
    "start_rate", "end_rate",
)


@dataclass(frozen=True)
class Vocabulary:
    """Corpus statistics per word: inverse document frequency and how often the word reaches the title."""

    idf: dict[str, float]
    title_rate: dict[str, float]
    unknown_idf: float
    unknown_rate: float
    #: Of the titles using a word, the share that start (end) with it; and those shares over all words.
    start_rate: dict[str, float]
    end_rate: dict[str, float]
    unknown_start: float
    unknown_end: float


@dataclass(frozen=True)
class Candidate:
    """A phrase that may become the title (or the part after "NAME: "), with its features."""

    text: str
    kind: str
    sentence: int
    start: int
    features: tuple[float, ...]


@dataclass(frozen=True)
class SpanContext:
    counts: Counter[str]
    vocabulary: Vocabulary
    name: str
    contribution: int
    #: The span's sentence index when that sentence first mentions the name (-1 for the name's descriptions).
    mention: int
    #: Each sentence's score as the title's source (`contribution.py`).
    scores: tuple[float, ...] = ()
    #: The compressor's margin for a compressed candidate (0 for the others).
    margin: float = 0.0


def spans(
    words: list[str], keys: list[str], ends: list[int], kind: str, sentence: int, context: SpanContext
) -> list[Candidate]:
    """Return the candidates words[:end] for each end; word statistics are summed once, as the span grows."""
    if not ends:
        return []
    vocabulary, counts = context.vocabulary, context.counts
    kind_features = tuple(float(kind == k) for k in KINDS)
    sentence_features = tuple(float(sentence >= 0 and min(sentence, 5) == i) for i in range(6))
    head = (
        *kind_features, *sentence_features, float(sentence == context.contribution), float(sentence == context.mention)
    )
    first = keys[0]
    first_features = (
        float(first.endswith("ing")),
        float(first.endswith("s") and words[0][:1].islower() and first not in SMALL_WORDS),
        float(first in {"how", "whether", "why", "when", "what"}),
    )
    first_rate = vocabulary.title_rate.get(first, vocabulary.unknown_rate)
    start_rate = vocabulary.start_rate.get(first, vocabulary.unknown_start)
    # A description of the name (sentence -1) stands for the sentence that introduces it.
    at = sentence if sentence >= 0 else context.mention
    sentence_score = context.scores[at] / 10 if 0 <= at < len(context.scores) else 0.0
    out = []
    idf_sum = idf_max = tf_sum = repeated = small = rate_sum = 0.0
    rate_min, content, names, digits, commas, ands, has_name, reference = 1.0, 0, 0, 0.0, 0, 0, 0.0, 0.0
    end_at = 0
    # (Bound once: this loop runs for every word of every candidate.)
    rates, unknown_rate, idfs, unknown_idf = vocabulary.title_rate, vocabulary.unknown_rate, vocabulary.idf, \
        vocabulary.unknown_idf
    for end in ends:
        for i in range(end_at, end):
            key, word = keys[i], words[i]
            rate = rates.get(key, unknown_rate)
            rate_sum += rate
            rate_min = min(rate_min, rate)
            if key in SMALL_WORDS:
                small += 1
            else:
                idf = idfs.get(key, unknown_idf)
                tf = min(counts.get(key, 1), 5)
                idf_sum += idf
                idf_max = max(idf_max, idf)
                tf_sum += tf
                repeated += tf >= 2
                content += 1
            if key == context.name:
                has_name = 1.0
            elif word[1:] != word[1:].lower():
                names += 1
            if not digits and not word.isalpha() and any(map(str.isdigit, word)):
                digits = 1.0
            commas += i < end - 1 and word.endswith(",")
            ands += key == "and"
            reference = reference or float(key in _REFERENCE_WORDS)
        end_at = end
        n = end
        last = words[end - 1][-1]
        at_end = end == len(words)
        c = max(content, 1)
        features = (
            *head,
            *_length_features(n),
            float(last in ".,;:!?)"),
            float(at_end),
            float(not at_end and last not in ".,;:!?)"),
            idf_sum / c / 10,
            idf_max / 10,
            tf_sum / c / 5,
            repeated / c,
            small / n,
            rate_sum / n,
            rate_min,
            *first_features,
            has_name,
            min(names, 2) / 2,
            digits,
            min(commas, 3) / 3,
            min(ands, 2) / 2,
            reference,
            first_rate,
            sentence_score,
            context.margin / 10,
            start_rate,
            vocabulary.end_rate.get(keys[end - 1], vocabulary.unknown_end),
        )
        out.append(Candidate(" ".join(words[:end]), kind, sentence, end, features))
    return out


@lru_cache(maxsize=64)
def _length_features(n: int) -> tuple[float, ...]:
    """Return the features of a candidate's length in words (computed once per length: every candidate has them)."""
    return n / 10, (n / 10) ** 2, float(n <= 3), float(4 <= n <= 6), float(7 <= n <= 9), float(10 <= n <= 12), float(
        n >= 13)


def idf_of(document_frequency: int, documents: int) -> float:
    """Return the smoothed inverse document frequency the vocabulary stores."""
    return math.log((documents + 1) / (document_frequency + 1)) + 1
