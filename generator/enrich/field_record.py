"""The record of what the field vocabulary says of one paper (`FieldTags`), as the cache stores it.

`fields.FieldTagger` fills it: the paper's field, its areas and topics there, and the field model's
probabilities. Kept apart from the models so the cache and the digest-wide steps read it without them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..model import Tag
from .tags import tag_slug


@dataclass(frozen=True)
class FieldTags:
    """What the field vocabulary says of one paper: its field, its areas there and its topics there."""

    field: str
    areas: tuple[Tag, ...] = ()
    topics: tuple[Tag, ...] = ()
    #: The field model's probability of each field (by name; rounded), empty when not known.
    probabilities: tuple[tuple[str, float], ...] = ()

    def probability(self, field: str) -> float:
        """Return the field model's probability that the paper is of `field`."""
        return dict(self.probabilities).get(field, 0.0)

    def to_json(self) -> list:
        return [self.field, [_tag_json(t) for t in self.areas], [_tag_json(t) for t in self.topics],
                [list(p) for p in self.probabilities]]

    @classmethod
    def from_json(cls, data: list) -> FieldTags:
        field, areas, topics, probabilities = data
        return cls(str(field), tuple(_tag_of(t, "area") for t in areas), tuple(_tag_of(t, "topic") for t in topics),
                   tuple((str(name), float(p)) for name, p in probabilities))


def _tag_json(tag: Tag) -> list:
    return [tag.name, tag.confidence, list(tag.evidence), tag.parent]


def _tag_of(data: list, kind: str) -> Tag:
    name, confidence, evidence, parent = data
    return Tag(str(name), tag_slug(str(name)), "area" if kind == "area" else "topic", float(confidence),
               tuple(str(e) for e in evidence), str(parent))


def dumps(tags: list[FieldTags]) -> str:
    """Return field tags as JSON (for the cache and tests)."""
    return json.dumps([t.to_json() for t in tags], sort_keys=True)
