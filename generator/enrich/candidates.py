"""The topics a language model may choose among for each paper: the offline model's plausible ones.

The offline gate keeps a paper's best topics; the model sees those and the next
most likely ones, so that it can pick a main topic the gate missed, never one
outside the vocabulary.
"""

from __future__ import annotations

from .tags import Topic
from .topic_choice import model_candidates
from .topic_model import load_topic_model

#: At most this many candidate topics per paper are offered.
MAX_CANDIDATES = 8


def topic_candidates(
    plains: list[str], vocabulary: tuple[Topic, ...], chosen: list[list[tuple[str, float]]], excluded: set[str]
) -> list[list[tuple[str, float]]]:
    """Return each paper's candidate topics as (name, confidence), most likely first.

    `chosen` holds the topics the offline stage gave each paper (always candidates);
    names in `excluded` (the areas' names) are never offered.
    """
    model = load_topic_model()
    known = model.known_topics()
    wanted = {topic.name for topic in vocabulary if known.get(topic.name) == topic}
    results = []
    features, probabilities = model.scores(plains, None) if plains and wanted else (None, None)
    for row, plain in enumerate(plains):
        found = dict(chosen[row])
        if features is not None and probabilities is not None:
            for candidate in model_candidates(model, features, row, probabilities[row], plain, [], wanted):
                found.setdefault(candidate.tag.name, round(candidate.tag.confidence, 3))
        offered = [(name, confidence) for name, confidence in found.items() if name not in excluded]
        ranked = sorted(offered, key=lambda nc: (-nc[1], nc[0]))
        results.append(ranked[:MAX_CANDIDATES])
    return results
