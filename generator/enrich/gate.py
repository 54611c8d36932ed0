"""Which of a paper's candidate topics it shows, best first: a gate learned from a strict reader's verdicts.

A candidate is a topic the topic model finds at least somewhat likely, a topic its
phrases decide, or a topic an author keyword names. `candidate_rows` says, for each,
where its evidence sits: the model's probability and its rank among the paper's
candidates, whether an author keyword names it, how strongly its phrases occur in
contribution sentences ("we propose X"), as the object of the proposal, in results
sentences ("we evaluate on X"), after "using" or "based on" (a tool the paper uses),
only in the opening background, in how many sentences, and how common the topic is.
A logistic model over these (generator/data/topic_gate.json, written by
`python scripts/train_topic_gate.py`) gives the probability that a strict reader calls
the topic a main subject of the paper. The paper's most probable candidate is its
first topic (every paper with a candidate keeps one); another is shown when its
probability reaches the gate's `further` threshold.
"""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..model import Tag
from .tags import Topic, _words_pattern, phrase_confidence

GATE_PATH = Path(__file__).resolve().parents[1] / "data" / "topic_gate.json"

#: The gate's features, in the order of its weights (`candidate_rows`).
FEATURES = (
    "logit", "learned", "margin", "rank", "relative", "keyword", "keyword_only", "anywhere", "contribution",
    "results", "background", "tool", "object", "spread", "unmatched", "prior", "llm_era", "subject_only", "subtopic",
    "reader_rate", "keyword_rate",
)
#: The per-topic rates among the features: how often a reader called the topic right when it was a candidate,
#: and how often the keywords or title of a tune paper named it when it was (smoothed towards the mean).
RATES = ("reader_rate", "keyword_rate")
#: Gate probabilities are rounded to this many decimals before any comparison or sort (CPU-independent order).
DECIMALS = 4
#: The prior of a topic the gate has no rate for (a keyword of the source's own): rarer than any vocabulary topic.
UNKNOWN_PRIOR = -8.0

#: Where one sentence of an abstract ends and the next begins.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
#: What a paper contributes ("we propose", "this paper studies"): the object follows the verb.
CLAIM = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:work|paper))\b[^.;]{0,80}?"
    r"\b(?:propos|introduc|present|develop|releas|construct|curat|build|built|creat|collect|design|contribut|offer|"
    r"formulat|establish|stud(?:y|ies)\b|investigat|explor|analy[sz]|examin|address|tackl|focus)\w*"
    r"|\bin this (?:paper|work)\b",
    re.I,
)
_RESULTS = re.compile(
    r"\b(?:outperform|achiev|surpass|experiment|evaluat|results?\b|empirical|demonstrat|state-of-the-art|sota\b|"
    r"extensive|benchmarks?\b)\w*",
    re.I,
)
#: Words before a mention that make it a tool the paper uses, not its subject ("using a diffusion model").
_TOOL = re.compile(
    r"\b(?:using|uses?|used|utiliz\w*|leverag\w*|based on|built (?:up)?on|builds (?:up)?on|employ\w*|adopt\w*|"
    r"via|through|with|apply\w*|applied to|such as|e\.g\.|including|like|on top of|equipped with|powered by|"
    r"backbones?|as a)\W+(?:[\w-]+\W+){0,4}$",
    re.I,
)
#: How far after a contribution verb a mention counts as the proposal's object (characters).
_OBJECT_SPAN = 80


@dataclass(frozen=True)
class Candidate:
    """A candidate topic of one paper, with what the gate's features read."""

    tag: Tag
    #: The topic's index in the model's phrase vocabulary (None: a keyword of the source's own).
    index: int | None
    #: The topic model's probability (0.0 when it has no classifier for the topic).
    probability: float
    #: The topic's threshold in the topic model (-1.0 when it has no classifier).
    threshold: float
    #: An author keyword names the topic.
    keyword: bool
    topic: Topic | None = None


@dataclass(frozen=True)
class _Layout:
    """An abstract's sentences: where each starts, its role, and where its contribution verb ends."""

    starts: list[int]
    ends: list[int]
    #: 1 a contribution sentence, 2 a results sentence, 0 other.
    roles: list[int]
    #: The end offset of each sentence's contribution verb (-1 when it has none).
    verbs: list[int]
    text: str

    @property
    def first_claim(self) -> int:
        return next((i for i, role in enumerate(self.roles) if role == 1), len(self.roles))

    def sentence_of(self, offset: int) -> int:
        return max(bisect_right(self.starts, offset) - 1, 0)


def layout(plain: str) -> _Layout:
    """Return the sentences of an abstract with their roles (as topic_model.sentence_roles splits them)."""
    starts, ends, roles, verbs = [], [], [], []
    start = 0
    for sentence in SENTENCE_END.split(plain):
        start = plain.find(sentence, start)
        claim = CLAIM.search(sentence)
        starts.append(start)
        ends.append(start + len(sentence))
        roles.append(1 if claim else 2 if _RESULTS.search(sentence) else 0)
        verbs.append(start + claim.end() if claim else -1)
        start += len(sentence)
    return _Layout(starts, ends, roles, verbs, plain)


@lru_cache(maxsize=4096)
def _name_pattern(name: str) -> re.Pattern[str] | None:
    """Return a pattern of a keyword tag's name as words of the abstract."""
    return _words_pattern([name]) if re.search(r"\w", name) else None


def mentions(candidate: Candidate, plain: str, hits: list[tuple[int, int, float]]) -> list[tuple[int, float]]:
    """Return where an abstract mentions a candidate: (offset, weight) of its phrases, or of its name's words."""
    if candidate.index is not None:
        return [(offset, weight) for topic, offset, weight in hits if topic == candidate.index]
    pattern = _name_pattern(candidate.tag.name)
    return [(m.start(), 1.5 if " " in m.group(0) else 1.0) for m in pattern.finditer(plain)] if pattern else []


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def candidate_rows(
    candidates: list[Candidate], shape: _Layout, hits: list[tuple[int, int, float]], priors: dict[str, float],
    rates: dict[str, dict[str, float]],
) -> np.ndarray:
    """Return the gate's feature rows (`FEATURES`) of one paper's candidates.

    `rates` holds each of `RATES` by topic name, and its value for any other topic under "".
    """
    learned = sorted((c.probability for c in candidates if c.threshold >= 0), reverse=True)
    best = learned[0] if learned else 0.0
    count = len(shape.starts)
    rows = []
    for candidate in candidates:
        found = mentions(candidate, shape.text, hits)
        scores = [0.0, 0.0, 0.0]
        background = tool = objects = 0
        sentences = set()
        for offset, weight in found:
            sentence = shape.sentence_of(offset)
            sentences.add(sentence)
            scores[0] += weight
            if shape.roles[sentence]:
                scores[shape.roles[sentence]] += weight
            background += sentence < shape.first_claim and shape.roles[sentence] == 0
            before = shape.text[max(shape.starts[sentence], offset - 60) : offset]
            tool += bool(_TOOL.search(before))
            verb = shape.verbs[sentence]
            objects += 0 <= offset - verb <= _OBJECT_SPAN if verb >= 0 else 0
        is_learned = candidate.threshold >= 0
        rank = sum(1 for p in learned if p > candidate.probability) if is_learned else len(learned)
        topic = candidate.topic
        rows.append([
            _logit(candidate.probability) if is_learned else 0.0,
            float(is_learned),
            candidate.probability - candidate.threshold if is_learned else 0.0,
            min(rank, 4) / 4,
            candidate.probability / best if is_learned and best > 0 else 0.0,
            float(candidate.keyword),
            float(candidate.index is None),
            phrase_confidence(scores[0]),
            phrase_confidence(scores[1]),
            phrase_confidence(scores[2]),
            background / len(found) if found else 0.0,
            tool / len(found) if found else 0.0,
            float(objects > 0),
            len(sentences) / count if count else 0.0,
            float(not found),
            priors.get(candidate.tag.name, UNKNOWN_PRIOR),
            float(topic is not None and topic.requires_pattern is not None),
            float(topic is not None and topic.contribution_only),
            float(topic is not None and bool(topic.parent)),
            *(rates[rate].get(candidate.tag.name, rates[rate].get("", 0.0)) for rate in RATES),
        ])
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))


class LogisticJson:
    """A logistic model over named features read from JSON (means, scales, weights, bias): no pickle."""

    #: The features the file must have been trained on, and the script that trains it.
    features: tuple[str, ...] = ()
    script = ""

    def __init__(self, path: Path) -> None:
        self.data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(self.data["features"]) != self.features:
            raise ValueError(f"{path} was trained on other features: retrain it (python {self.script})")
        self.mean = np.array(self.data["mean"], dtype=np.float64)
        self.scale = np.array(self.data["scale"], dtype=np.float64)
        self.weights = np.array(self.data["weights"], dtype=np.float64)
        self.bias = float(self.data["bias"])

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """Return the model's probability of each feature row, rounded to `DECIMALS` (a CPU-independent order)."""
        if not len(rows):
            return np.zeros(0)
        scores = ((rows - self.mean) / self.scale) @ self.weights + self.bias
        return np.round(1.0 / (1.0 + np.exp(-scores)), DECIMALS)


class Gate(LogisticJson):
    """The shipped gate: a logistic model over `FEATURES`, the topics' priors and rates, the further threshold."""

    features = FEATURES
    script = "scripts/train_topic_gate.py"

    def __init__(self, path: Path = GATE_PATH) -> None:
        super().__init__(path)
        self.further = float(self.data["further"])
        self.priors: dict[str, float] = {str(k): float(v) for k, v in self.data["priors"].items()}
        self.rates = {rate: {str(k): float(v) for k, v in self.data[rate].items()} for rate in RATES}

    def choose(
        self, candidates: list[Candidate], plain: str, hits: list[tuple[int, int, float]], max_topics: int
    ) -> list[Tag]:
        """Return the topics a paper shows: its most probable candidate, then those reaching `further`.

        A topic the source's own keywords name is kept too when the abstract mentions it: the authors
        said what their paper is about, and the text bears it out (the gate learned from a reader who
        saw no keywords).
        """
        if not candidates:
            return []
        probabilities = self.probabilities(candidate_rows(candidates, layout(plain), hits, self.priors, self.rates))
        ranked = sorted(zip(probabilities.tolist(), candidates, strict=True), key=lambda pc: (-pc[0], pc[1].tag.name))
        kept = [pc for rank, pc in enumerate(ranked)
                if rank == 0 or pc[0] >= self.further or (pc[1].keyword and mentions(pc[1], plain, hits))]
        return [replace(c.tag, confidence=round(p, 3)) for p, c in kept[:max_topics]]


@lru_cache(maxsize=1)
def load_gate() -> Gate:
    """Load the bundled gate once per process."""
    return Gate()
