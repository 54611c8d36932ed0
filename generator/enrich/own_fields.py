"""Which field's vocabulary each paper of a digest is shown in, and the topics it then has.

A digest of machine learning keeps ICLR's vocabulary; a digest of another field (NLP, vision,
robotics, ...) shows its papers in that field's areas and topics (`fields.in_digest_fields` decides
per paper). These are the digest-wide steps that follow that choice.
"""

from __future__ import annotations

from ..model import Tag
from .fields import FieldTags, bundled_field_topics, in_digest_fields, vocabulary_topics
from .folding import merge_tags, topic_parents
from .keywords import keyword_tags
from .tags import Topic


def in_own_fields(
    fields: list[FieldTags], topics: list[list[Tag]], plains: list[str], keywords: list[tuple[str, ...]],
    vocabulary: tuple[Topic, ...],
) -> tuple[list[FieldTags], list[list[Tag]]]:
    """Return each paper's field as shown in this digest, and its topics there.

    A paper shown in a field other than machine learning gets the source's keywords first, joined to
    the field's topics where they name one, then the field's inferred topics; a paper no topic fits
    has none and is listed under its area. A keyword no vocabulary names stays the topic of its own
    it is in a machine-learning digest (the source's own subjects first). A paper shown in machine
    learning keeps `topics` as they are.
    """
    known = {topic.slug for topic in vocabulary}
    placed = in_digest_fields(fields, plains)
    shown = []
    for field, found, plain, given in zip(placed, topics, plains, keywords, strict=True):
        if not field.areas:
            shown.append(found)
            continue
        own = keyword_tags(given, vocabulary_topics(field.field), plain)
        named = {tag.slug for tag in own} | {tag.slug for tag in field.topics}
        unnamed = [tag for tag in found if tag.evidence[:1] and tag.evidence[0].startswith("keyword: ")
                   and tag.slug not in known and tag.slug not in named]
        shown.append(merge_tags(list(field.topics), [*own, *unnamed]))
    return placed, shown


def field_parents(topics: tuple[Topic, ...], fields: bool) -> dict[str, tuple[str, str]]:
    """Return each topic's parent; in a digest shown in other fields, a field's topic has its field's parent.

    A field topic spelled as an ICLR topic ("Legged Locomotion") is not a sub-topic of ICLR's parent
    ("Robotics & Manipulation") in a robotics digest, where Legged Locomotion is a topic of its own.
    """
    parents = topic_parents(topics)
    if not fields:
        return parents
    own = bundled_field_topics()
    names = {topic.slug for topic in own}
    return {slug: p for slug, p in parents.items() if slug not in names} | topic_parents(own)
