"""The topics a language model may choose among for each paper: the offline model's plausible ones.

The offline gate keeps a paper's best topics; the model sees those and the next
most likely ones, so that it can pick a main topic the gate missed, never one
outside the vocabulary. A paper shown in a field of its own (an ACL, CVPR or IROS
digest) is offered that field's topics, as the field tagger ranks them, never ICLR's.
"""

from __future__ import annotations

from .areas import load_model
from .fields import load_field_tagger
from .tags import Topic
from .topic_choice import model_candidates
from .topic_model import load_topic_model

#: At most this many candidate topics per paper are offered.
MAX_CANDIDATES = 8


def topic_candidates(
    plains: list[str], vocabulary: tuple[Topic, ...], chosen: list[list[tuple[str, float]]], excluded: set[str],
    fields: list[tuple[str, str]] | None = None,
) -> list[tuple[list[tuple[str, float]], list[str]]]:
    """Return each paper's candidate topics as (name, confidence), most likely first, and its candidate areas.

    `chosen` holds the topics the offline stage gave each paper (always candidates);
    names in `excluded` (the areas' names) are never offered. `fields` names, for each
    paper shown in a field of its own, that field and the area it is shown in (("", "")
    for a paper shown with ICLR's topics, which is offered no area: its area stays the
    area model's); such a paper is offered its field's areas, that one first.
    """
    fields = fields or [("", "")] * len(plains)
    own = [row for row, (field, _) in enumerate(fields) if field]
    found: dict[int, tuple[list[tuple[str, float]], list[str]]] = {}
    if own:
        tagger = load_field_tagger()
        assert tagger is not None, "a paper is shown in a field only when the field models are there"
        texts = [plains[row] for row in own]
        ranked = tagger.candidates(load_model().features(texts), texts, [fields[row][0] for row in own], MAX_CANDIDATES)
        for row, (topics, areas) in zip(own, ranked, strict=True):
            shown = fields[row][1]
            found[row] = (_merged(chosen[row], topics, excluded), [shown, *(a for a in areas if a != shown)])
    rest = [row for row in range(len(plains)) if row not in found]
    iclr = _iclr_candidates([plains[row] for row in rest], vocabulary, [chosen[row] for row in rest], excluded)
    found |= {row: (topics, []) for row, topics in zip(rest, iclr, strict=True)}
    return [found[row] for row in range(len(plains))]


def _merged(chosen: list[tuple[str, float]], more: list[tuple[str, float]], excluded: set[str]) -> list:
    """Return the chosen topics and the likeliest further ones, at most `MAX_CANDIDATES`, most likely first."""
    found = dict(chosen)
    for name, confidence in more:
        if len(found) >= MAX_CANDIDATES:
            break
        found.setdefault(name, round(confidence, 3))
    offered = [(name, confidence) for name, confidence in found.items() if name not in excluded]
    return sorted(offered, key=lambda nc: (-nc[1], nc[0]))


def _iclr_candidates(
    plains: list[str], vocabulary: tuple[Topic, ...], chosen: list[list[tuple[str, float]]], excluded: set[str]
) -> list[list[tuple[str, float]]]:
    """Return `topic_candidates` of papers shown with ICLR's topics (the ICLR topic model's plausible ones)."""
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
