"""A paper's topics of a vocabulary: the topic model's candidates, chosen by the gate.

`topic_model` scores each topic and `gate` decides among candidates; this module joins
them, so that neither needs the other's internals: the candidates of one paper
(`model_candidates`, also offered to a language model by `candidates.py` and learned
from by `scripts/train_topic_gate.py`) and each abstract's topics (`tag_topics`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import scipy.sparse as sp

from ..model import Tag
from .folding import merge_tags
from .gate import GATE_PATH, Candidate, Gate, load_gate
from .tags import Topic, match_topics, mentions_required
from .topic_model import FURTHER_TOPIC_FLOOR, Features, TopicModel, load_topic_model

#: A learned topic is a candidate when the topic model gives it at least this probability (its floor for a
#: paper's best topic), among the paper's `CANDIDATES` most probable.
CANDIDATE_FLOOR = 0.05
CANDIDATES = 6


def model_candidates(
    model: TopicModel, features: Features, row: int, probs: np.ndarray, plain: str, given: list[Tag],
    wanted: set[str],
) -> list[Candidate]:
    """Return one paper's candidates: likely learned topics, topics its phrases decide, and `given` keyword tags.

    Only topics named in `wanted` (the digest's vocabulary) come from the model; a keyword
    tag of a topic already found marks it as named by a keyword.
    """
    known = model.known_topics()
    found: dict[str, Candidate] = {}
    for column in model.ranked(probs)[:CANDIDATES]:
        probability = float(probs[column])
        if probability < CANDIDATE_FLOOR:
            break
        name = model.names[column]
        if name in wanted:
            tag = model.tag(features, row, column, probability)
            found[tag.slug] = Candidate(tag, model.phrase_index(name), probability,
                                        float(model.thresholds[column]), False, known[name])
    for index, tag in model.phrased(features, row, plain):
        if tag.name in wanted:
            found.setdefault(tag.slug, Candidate(tag, index, 0.0, -1.0, False, known[tag.name]))
    columns = {name: column for column, name in enumerate(model.names)}
    for tag in given:
        old = found.get(tag.slug)
        if old is not None:
            found[tag.slug] = replace(old, keyword=True, tag=replace(old.tag, evidence=tag.evidence + old.tag.evidence))
            continue
        at = columns.get(tag.name)
        learned = at is not None and tag.name in wanted and model.thresholds[at] >= 0
        found[tag.slug] = Candidate(
            tag, model.phrase_index(tag.name) if tag.name in wanted else None,
            float(probs[at]) if learned and at is not None else 0.0,
            float(model.thresholds[at]) if learned and at is not None else -1.0,
            True, known.get(tag.name) if tag.name in wanted else None,
        )
    return list(found.values())


def tag_topics(
    plains: list[str],
    vocabulary: tuple[Topic, ...],
    max_topics: int = 4,
    model: TopicModel | None = None,
    tfidf: sp.spmatrix | None = None,
    given: list[list[Tag]] | None = None,
    gate: Gate | bool = True,
) -> list[list[Tag]]:
    """Return each abstract's topics of `vocabulary`, the first topic first.

    `given` holds each paper's keyword tags (a structured source's keywords), which join
    its candidates. The gate (gate.py: the shipped one, unless `gate` is False or another
    Gate) ranks the candidates of the topics the model knows and keeps the best and
    those likely right. Without it, a learned topic is given by its threshold and, past
    the first, must be likely (`FURTHER_TOPIC_FLOOR`). A topic the model does not know
    (added by the user) is decided by its phrases, after the others.
    """
    model = model or load_topic_model()
    chooser = (load_gate() if GATE_PATH.is_file() else None) if gate is True else gate or None
    given = given if given is not None else [[] for _ in plains]
    known = model.known_topics()
    # A topic the model knows (same name, same phrases) comes from it; any other is matched here.
    wanted = {topic.name for topic in vocabulary if known.get(topic.name) == topic}
    matched = tuple(topic for topic in vocabulary if topic.name not in wanted)
    by_name = {topic.name: topic for topic in matched}
    if chooser is not None and wanted and plains:
        features, probabilities = model.scores(plains, tfidf)
        chosen = []
        for row, plain in enumerate(plains):
            candidates = model_candidates(model, features, row, probabilities[row], plain, given[row], wanted)
            tags = chooser.choose(candidates, plain, features.hits[row], max_topics)
            # A topic its phrases decide (a sub-topic such as "Legged Locomotion") named the subject already.
            taken = {tag.slug for tag in tags}
            phrased = [t for _, t in model.phrased(features, row, plain) if t.name in wanted and t.slug not in taken]
            chosen.append(sorted([*tags, *phrased], key=lambda t: (-t.confidence, t.name)))
    else:
        learned = model.predict(plains, max_topics, tfidf) if wanted else [[] for _ in plains]
        chosen = []
        for tags, extra in zip(learned, given, strict=True):
            found = [tag for tag in tags if tag.name in wanted]
            # Past the first, a learned topic must be likely; one its phrases decide named the paper's subject.
            weak = [tag for tag in found[1:] if tag.name in model.learned and tag.confidence < FURTHER_TOPIC_FLOOR]
            chosen.append(merge_tags([tag for tag in found if tag not in weak], extra)[:max_topics])
    results = []
    for plain, tags in zip(plains, chosen, strict=True):
        if matched:
            taken = {tag.slug for tag in tags}
            tags = [*tags, *(tag for tag in match_topics(plain, matched)
                             if mentions_required(by_name[tag.name], plain) and tag.slug not in taken)]
        results.append(tags[:max_topics])
    return results
