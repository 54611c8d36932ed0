"""Which of a paper's likely areas it shows first: a reranker learned from a strict reader's area verdicts.

The area model ranks the 21 areas by the abstract's words alone, so a method for language
models whose words are those of an application lands under "Computer Vision, Audio &
Language Applications". For each of the paper's `AREA_CANDIDATES` most likely areas,
`area_rows` reads: the area model's probability, its rank and its share of the best, whether
the area is a catch-all, how often papers of the paper's topics sit in the area in the
corpora (`topic_areas.json`: its first topic, and the mean over its topics), and whether it
is the language-model area of an abstract that names a language model. A logistic model over
them (generator/data/area_gate.json, written by `python scripts/train_area_gate.py`) gives
the probability that a strict reader calls the area a right home; the most probable is the
paper's first area.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ..model import Tag
from .areas import AreaGuess
from .folding import GENERIC_AREAS
from .gate import LogisticJson
from .tags import mentions_language_model

AREA_GATE_PATH = Path(__file__).resolve().parents[1] / "data" / "area_gate.json"
#: Package data: each topic's research areas in the corpora (scripts/build_topic_areas.py).
TOPIC_AREAS_FILE = "data/topic_areas.json"
#: The areas a paper's first area is chosen among: the area model's most likely ones.
AREA_CANDIDATES = 3
#: The reranker's features, in the order of its weights (`area_rows`).
AREA_FEATURES = ("logit", "rank", "relative", "generic", "first_topic", "topics", "llm")


@lru_cache(maxsize=1)
def load_topic_areas() -> dict[str, dict[str, float]]:
    """Return, per topic name, the share of its corpus papers in each area name (no network, no pickle)."""
    data = json.loads(resources.files("generator").joinpath(TOPIC_AREAS_FILE).read_text(encoding="utf-8"))
    return {str(topic): {str(a): float(share) for a, share in areas.items()} for topic, areas in data.items()}


def area_rows(guesses: list[AreaGuess], topics: list[Tag], plain: str) -> np.ndarray:
    """Return the reranker's feature rows (`AREA_FEATURES`) of a paper's candidate areas (`guesses`, best first)."""
    shares = load_topic_areas()
    names = [tag.name for tag in topics if tag.kind == "topic"]
    best = guesses[0].probability if guesses else 1.0
    language = mentions_language_model(plain)
    rows = []
    for rank, guess in enumerate(guesses):
        p = min(max(guess.probability, 1e-4), 1 - 1e-4)
        of_topics = [shares.get(name, {}).get(guess.area.name, 0.0) for name in names]
        rows.append([
            math.log(p / (1 - p)),
            rank / max(len(guesses) - 1, 1),
            guess.probability / best if best > 0 else 0.0,
            float(guess.area.label in GENERIC_AREAS),
            of_topics[0] if of_topics else 0.0,
            sum(of_topics) / len(of_topics) if of_topics else 0.0,
            float(guess.area.llm_era and language),
        ])
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(AREA_FEATURES))


class AreaGate(LogisticJson):
    """The shipped area reranker: a logistic model over `AREA_FEATURES`."""

    features = AREA_FEATURES
    script = "scripts/train_area_gate.py"

    def __init__(self, path: Path = AREA_GATE_PATH) -> None:
        super().__init__(path)

    def rerank(self, guesses: list[AreaGuess], topics: list[Tag], plain: str) -> list[AreaGuess]:
        """Return the paper's candidate areas, the one a reader most likely calls right first; the rest after."""
        head = guesses[:AREA_CANDIDATES]
        if len(head) < 2:
            return guesses
        scores = self.probabilities(area_rows(head, topics, plain)).tolist()
        order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
        return [head[i] for i in order] + guesses[AREA_CANDIDATES:]


def reranked(guesses: list[AreaGuess], topics: list[Tag], plain: str) -> list[AreaGuess]:
    """Return `guesses` reranked by the shipped area gate (unchanged when none is shipped)."""
    return load_area_gate().rerank(guesses, topics, plain) if AREA_GATE_PATH.is_file() else guesses


@lru_cache(maxsize=1)
def load_area_gate() -> AreaGate:
    """Load the bundled area reranker once per process."""
    return AreaGate()

