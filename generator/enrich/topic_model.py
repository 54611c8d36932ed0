"""Predict a paper's topics with the shipped classifiers: one calibrated logistic regression per topic.

Features are the area model's TF-IDF of the abstract (its vocabulary and idf,
so they never depend on the digest) plus, for each topic of the training
vocabulary, how strongly its phrases occur anywhere, in a contribution
sentence ("we introduce a benchmark") and in a results sentence ("we evaluate
on three benchmarks"). A topic is given when its probability, rounded, reaches
the threshold chosen for it on tuning data (and, past the paper's first topic,
0.5: `FURTHER_TOPIC_FLOOR`); its evidence is the words of this
abstract that weighed most and the phrases found.
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..model import Tag
from .areas import AreaModel, load_model
from .gate import CLAIM, SENTENCE_END
from .tags import (
    PHRASE_MIN_SCORE,
    Topic,
    mentions_required,
    normalise_keyword,
    phrase_confidence,
    tag_slug,
    topic_hits,
    topics_from_entries,
)

MODEL_PATH = Path(__file__).resolve().parents[1] / "data" / "topic_model.npz"

#: Probabilities are rounded to this many decimals before any comparison or sort,
#: so the last bits of a float product (which vary across CPUs) decide nothing.
DECIMALS = 4
#: A paper's first topic needs its topic's threshold; each further one must also be likely. On the
#: tune part's threshold fold, the keywords or title named 39% of the further topics under 0.5
#: against 66% of those above; most loose tags a reader finds are such a topic met in passing.
#: At 0.7 instead of 0.5 the shown topics named rise from 0.759 to 0.786 (ICLR 2024) and from
#: 0.744 to 0.766 (other venues), with 1.37 topics per paper instead of 1.52.
FURTHER_TOPIC_FLOOR = 0.7
#: Evidence shown per topic: this many phrases and this many weighted words.
_PHRASES_SHOWN = 2
_WORDS_SHOWN = 4

_RESULTS = re.compile(
    r"\b(?:outperform|achiev|surpass|experiment|evaluat|results?\b|empirical|demonstrat|state-of-the-art|sota\b|"
    r"extensive)\w*",
    re.I,
)
#: Phrase-feature roles, in column order after the TF-IDF block (sentence_roles numbers them).
ROLES = ("anywhere", "contribution", "results")


def contribution_sentences(plain: str) -> list[str]:
    """Return an abstract's contribution sentences ("We propose ...", "In this paper, ...")."""
    return [sentence for sentence in SENTENCE_END.split(plain) if CLAIM.search(sentence)]


def sentence_roles(plain: str) -> list[tuple[int, int]]:
    """Return (start offset, role) of each sentence: 1 a contribution sentence, 2 a results sentence, 0 other."""
    sentences = SENTENCE_END.split(plain)
    return _roles(plain, sentences, [bool(CLAIM.search(sentence)) for sentence in sentences])


def _roles(plain: str, sentences: list[str], claimed: list[bool]) -> list[tuple[int, int]]:
    """Return `sentence_roles` of an abstract already split, knowing which sentences are contribution sentences."""
    roles = []
    start = 0
    for sentence, claim in zip(sentences, claimed, strict=True):
        start = plain.find(sentence, start)
        role = 1 if claim else 2 if _RESULTS.search(sentence) else 0
        roles.append((start, role))
        start += len(sentence)
    return roles


def _distinct_spellings(counter: Counter[str]) -> tuple[str, ...]:
    """Return the phrases found, most frequent first, one spelling per singular ("diffusion model(s)")."""
    seen: set[str] = set()
    result = []
    for phrase, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])):
        key = phrase.lower().removesuffix("s")
        if key not in seen:
            seen.add(key)
            result.append(phrase)
    return tuple(result)


def vocabulary_fingerprint(terms: list[str]) -> str:
    """Return a short hash of a TF-IDF vocabulary, to check the topic model fits the area model."""
    return hashlib.sha256("\n".join(terms).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Features:
    """The feature rows of a batch of abstracts and the phrases found, per paper and topic."""

    matrix: sp.csr_matrix
    tfidf_width: int
    phrases: list[dict[int, tuple[str, ...]]]
    #: Per paper, each topic's phrase score over the whole abstract (1 a word, 1.5 a phrase).
    scores: list[dict[int, float]]
    #: Per paper, each topic's phrase score in its contribution sentences.
    contribution: list[dict[int, float]]
    #: Per paper, its contribution sentences, normalised as keywords are (`normalise_keyword`).
    claims: list[str]
    #: Per paper, every phrase match (topic index, character offset, weight): where the evidence sits (gate.py).
    hits: list[list[tuple[int, int, float]]]


def featurize(
    plains: list[str], area_model: AreaModel, feature_topics: tuple[Topic, ...], tfidf: sp.spmatrix | None = None,
    strict: bool = False,
) -> Features:
    """Return the features of abstracts: TF-IDF of the area model (`tfidf` when known), then phrase scores by role.

    `strict`: only matches that name a subject count (`tags.topic_hits`), as the field topic model was trained.
    """
    tfidf = (area_model.features(plains) if tfidf is None else tfidf).tocsr()
    count = len(feature_topics)
    rows, cols, values = [], [], []
    phrases: list[dict[int, tuple[str, ...]]] = []
    totals: list[dict[int, float]] = []
    own: list[dict[int, float]] = []
    placed: list[list[tuple[int, int, float]]] = []
    claims: list[str] = []
    for row, plain in enumerate(plains):
        # Split once: the contribution sentences are both a role of the phrase features and the claims.
        sentences = SENTENCE_END.split(plain)
        claimed = [bool(CLAIM.search(sentence)) for sentence in sentences]
        claims.append(normalise_keyword(" ".join(s for s, claim in zip(sentences, claimed, strict=True) if claim)))
        hits = topic_hits(plain, feature_topics, strict)
        placed.append([(topic, offset, weight) for topic, offset, weight, _ in hits])
        scores: dict[tuple[int, int], float] = {}
        spelled: dict[int, Counter[str]] = {}
        if hits:
            roles = _roles(plain, sentences, claimed)
            starts = [start for start, _ in roles]
            for topic, offset, weight, shown in hits:
                role = roles[bisect_right(starts, offset) - 1][1] if offset >= starts[0] else 0
                scores[(0, topic)] = scores.get((0, topic), 0.0) + weight
                if role:
                    scores[(role, topic)] = scores.get((role, topic), 0.0) + weight
                spelled.setdefault(topic, Counter())[shown] += 1
        for (role, topic), score in sorted(scores.items()):
            rows.append(row)
            cols.append(role * count + topic)
            values.append(phrase_confidence(score))
        phrases.append({topic: _distinct_spellings(counter) for topic, counter in spelled.items()})
        totals.append({topic: score for (role, topic), score in scores.items() if role == 0})
        own.append({topic: score for (role, topic), score in scores.items() if role == 1})
    extra = sp.csr_matrix(
        (np.array(values, dtype=np.float32), (np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64))),
        shape=(len(plains), len(ROLES) * count),
    )
    matrix = sp.hstack([tfidf, extra], format="csr", dtype=np.float32)
    matrix.sort_indices()
    return Features(matrix, tfidf.shape[1], phrases, totals, own, claims, placed)


#: A phrase score (1 a word, 1.5 a multi-word phrase, summed) that names a topic as the subject wherever it stands.
SUBJECT_SCORE = 3.0


def names_subject(features: Features, row: int, topic: int, words: re.Pattern[str] | None = None) -> bool:
    """Return whether an abstract names a topic (feature index) as what it is about, not as a tool it uses.

    It does when a contribution sentence ("We propose ...") holds one of the topic's
    phrases or `words` (its whole-keyword synonyms: "attention" of "Transformers &
    Architectures"), or when its phrases add up to `SUBJECT_SCORE` (named again and
    again): "a transformer layer aggregates context" once, in the method's description, does not.
    """
    return (
        bool(features.contribution[row].get(topic))
        or features.scores[row].get(topic, 0.0) >= SUBJECT_SCORE
        or bool(words and words.search(features.claims[row]))
    )


def _synonyms_pattern(topic: Topic) -> re.Pattern[str] | None:
    """Return a pattern of a topic's whole-keyword synonyms as words of a sentence (normalised as keywords are)."""
    words = sorted(k for k in topic.keywords if k != normalise_keyword(topic.name))
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b") if words else None


class TopicModel:
    """The shipped topic classifiers, their thresholds and the vocabulary their phrase features use."""

    def __init__(self, path: Path = MODEL_PATH, area_model: AreaModel | None = None) -> None:
        self.area_model = area_model or load_model()
        with np.load(path, allow_pickle=False) as data:
            self.names: list[str] = data["names"].tolist()
            shape = tuple(int(n) for n in data["coef_shape"])
            coef = sp.csr_matrix(
                (data["coef_data"].astype(np.float32), data["coef_indices"], data["coef_indptr"]), shape=shape
            )
            self.intercept = data["intercept"].astype(np.float64)
            self.thresholds = data["thresholds"].astype(np.float64)
            self.floor = float(data["floor"])
            entries = json.loads(str(data["vocabulary_json"]))
            fingerprint = str(data["area_fingerprint"])
            #: Whether its phrase features count only matches that name a subject (`tags.topic_hits`).
            self.strict = bool(data["strict_evidence"]) if "strict_evidence" in data.files else False
        if fingerprint != vocabulary_fingerprint(self.area_model.terms.tolist()):
            raise ValueError(f"{path} was trained on another area model's vocabulary: retrain it")
        self.feature_topics = topics_from_entries(entries, str(path))
        self._phrase_index = {topic.name: i for i, topic in enumerate(self.feature_topics)}
        #: Topics with a classifier; the others (threshold -1: too few labelled papers) stay phrase-matched.
        self.learned = frozenset(name for name, t in zip(self.names, self.thresholds, strict=True) if t >= 0)
        self._name_rank = np.argsort(np.argsort(np.array(self.names), kind="stable"), kind="stable")
        #: The model's topics without a classifier, decided by their phrases: (feature index, name).
        self._phrase_matched = tuple(
            (self._phrase_index[name], name) for name in self.names if name not in self.learned
        )
        by_name = self.known_topics()
        #: The topics given only when the abstract mentions something (an LLM-era topic: a language model).
        self._gated = tuple(
            (column, by_name[name]) for column, name in enumerate(self.names)
            if name in by_name and by_name[name].requires_pattern is not None
        )
        #: Topics a backbone or a decoder often stands for (`contribution_only`): (column, feature index, synonyms).
        self._subject_only = tuple(
            (column, self._phrase_index[name], _synonyms_pattern(by_name[name]))
            for column, name in enumerate(self.names) if name in by_name and by_name[name].contribution_only
        )
        self._learned_mask = self.thresholds >= 0
        self._effective = np.where(self._learned_mask, self.thresholds, np.inf)
        # Dense and transposed once: sparse features (n x F) times it is scipy's own loop, no BLAS.
        self.coef = coef.toarray()
        self.coef_t = np.ascontiguousarray(self.coef.T)
        self.terms = self.area_model.terms

    def known_topics(self) -> dict[str, Topic]:
        """Return the model's topics by name (a learned one, or one its phrases decide)."""
        return {topic.name: topic for topic in self.feature_topics}

    def probabilities(self, features: Features) -> np.ndarray:
        """Return each paper's probability for each topic, rounded to `DECIMALS`."""
        scores = np.asarray(features.matrix @ self.coef_t, dtype=np.float64) + self.intercept
        return np.round(1.0 / (1.0 + np.exp(-scores)), DECIMALS)

    def allowed(self, plains: list[str]) -> np.ndarray:
        """Return 1 where an abstract mentions what a topic requires (a language model, for an LLM-era one), else 0."""
        mask = np.ones((len(plains), len(self.names)), dtype=np.float64)
        # Topics share their requirement (every LLM-era topic requires a language model): each
        # distinct pattern is looked for once per abstract, not once per topic.
        found: dict[object, list[bool]] = {}
        for column, topic in self._gated:
            key = topic.requires_pattern
            if key not in found:
                found[key] = [mentions_required(topic, plain) for plain in plains]
            mask[:, column] = found[key]
        return mask

    def about(self, features: Features) -> np.ndarray:
        """Return 1 where a `contribution_only` topic is named as the paper's subject (`names_subject`), else 0."""
        mask = np.ones((features.matrix.shape[0], len(self.names)), dtype=np.float64)
        for column, index, words in self._subject_only:
            mask[:, column] = [names_subject(features, row, index, words) for row in range(mask.shape[0])]
        return mask

    def scores(self, plains: list[str], tfidf: sp.spmatrix | None = None) -> tuple[Features, np.ndarray]:
        """Return the abstracts' features and each topic's probability, 0 where a topic's rule forbids it."""
        features = featurize(plains, self.area_model, self.feature_topics, tfidf, self.strict)
        return features, self.probabilities(features) * self.allowed(plains) * self.about(features)

    def predict(self, plains: list[str], max_topics: int = 4, tfidf: sp.spmatrix | None = None) -> list[list[Tag]]:
        """Return, for each abstract, its topics by the thresholds alone (no gate), most probable first."""
        if not plains:
            return []
        features, probabilities = self.scores(plains, tfidf)
        # Rounded probabilities, ties by name: the order never hinges on float noise.
        ranks = np.broadcast_to(self._name_rank, probabilities.shape)
        orders = np.lexsort((ranks, -probabilities), axis=1)
        return [
            self._choose(features, row, probs, orders[row], max_topics, plains[row])
            for row, probs in enumerate(probabilities)
        ]

    def ranked(self, probs: np.ndarray) -> list[int]:
        """Return the columns of the learned topics, most probable first (ties by name)."""
        order = np.lexsort((self._name_rank, -probs))
        return [int(t) for t in order if self._learned_mask[t]]

    def phrased(self, features: Features, row: int, plain: str) -> list[tuple[int, Tag]]:
        """Return the topics without a classifier whose phrases name the paper's subject: (feature index, tag)."""
        return [
            (index, Tag(name, tag_slug(name), "topic", phrase_confidence(features.scores[row][index]),
                        features.phrases[row][index][:5]))
            for index, name in self._phrase_matched
            if features.scores[row].get(index, 0.0) >= PHRASE_MIN_SCORE
            and names_subject(features, row, index) and mentions_required(self.feature_topics[index], plain)
        ]

    def phrase_index(self, name: str) -> int | None:
        """Return a topic's index in the phrase vocabulary (None when the model does not know it)."""
        return self._phrase_index.get(name)

    def _choose(
        self, features: Features, row: int, probs: np.ndarray, ranked: np.ndarray, max_topics: int, plain: str
    ) -> list[Tag]:
        passing = ranked[probs[ranked] >= self._effective[ranked]]
        chosen = [int(t) for t in passing[:max_topics]]
        best = ranked[self._learned_mask[ranked]][:1]
        if not chosen and len(best) and probs[best[0]] >= self.floor:
            chosen = [int(best[0])]  # the paper's best fit, though below its topic's precise threshold
        phrased = [tag for _, tag in self.phrased(features, row, plain)]
        return [*(self.tag(features, row, topic, float(probs[topic])) for topic in chosen), *phrased]

    def tag(self, features: Features, row: int, topic: int, probability: float) -> Tag:
        """Return a learned topic's tag for one abstract, with its probability and evidence."""
        name = self.names[topic]
        return Tag(name, tag_slug(name), "topic", round(probability, 3), self.evidence(features, row, topic))

    def evidence(self, features: Features, row: int, topic: int) -> tuple[str, ...]:
        """Return what weighed for a topic in one abstract: its phrases found, then its heaviest words."""
        start, end = features.matrix.indptr[row], features.matrix.indptr[row + 1]
        columns = features.matrix.indices[start:end]
        values = features.matrix.data[start:end]
        words = columns < features.tfidf_width
        weights = self.coef[topic, columns[words]]
        contribution = np.round(values[words].astype(np.float64) * weights, 6)
        phrase_index = self._phrase_index.get(self.names[topic])
        phrases = features.phrases[row].get(phrase_index, ())[:_PHRASES_SHOWN] if phrase_index is not None else ()
        cols = columns[words]
        # Largest first, ties by column (the vocabulary is alphabetical): a few candidates are enough.
        top = np.lexsort((cols, -contribution))[: 3 * _WORDS_SHOWN]
        top = top[contribution[top] > 0]
        ranked = self.terms[cols[top]].tolist()
        # A word already inside a phrase or a term shown ("reinforcement" of "reinforcement learning") adds nothing.
        kept: list[str] = []
        covered = [set(p.lower().split()) for p in phrases]
        for term in ranked:
            parts = set(term.split())
            if any(parts <= other for other in covered):
                continue
            # A longer term replaces the words of it already kept ("policy" by "policy optimization").
            kept = [k for k in kept if not set(k.split()) <= parts]
            covered = [set(p.lower().split()) for p in phrases] + [set(k.split()) for k in kept] + [parts]
            kept.append(term)
            if len(kept) == _WORDS_SHOWN:
                break
        return (*(f"phrase: {p}" for p in phrases), *kept)


@lru_cache(maxsize=1)
def load_topic_model() -> TopicModel:
    """Load the bundled topic model once per process."""
    return TopicModel()
