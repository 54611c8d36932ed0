"""The fields vocabulary: field -> area -> topic -> narrower topic, as `generator/data/fields.yaml` names them.

Read and compiled here; the field models that use it are in fields.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

from ..errors import DigestError
from .tags import Topic, topics_from_entries

#: The field whose areas and topics are areas.yaml's and topics.yaml's (the ICLR taxonomy).
MACHINE_LEARNING = "Machine Learning"
#: The prefix of an area's column in the field topic model (an area may share a topic's name).
AREA_PREFIX = "area: "


@dataclass(frozen=True)
class FieldArea:
    """One area of a field and the names of its topics (narrower ones included)."""

    name: str
    topics: tuple[str, ...]
    #: An area of methods several subjects use ("Learning for Vision"): first only when no specific one fits.
    catch_all: bool = False


@dataclass(frozen=True)
class Field:
    """A field of research: its name, the venues whose papers train its model, its areas."""

    name: str
    venues: frozenset[str]
    areas: tuple[FieldArea, ...]


@dataclass(frozen=True)
class Vocabulary:
    """Every field, and the topic entries the field topic model is trained on (areas as `AREA_PREFIX` entries)."""

    fields: tuple[Field, ...]
    entries: tuple[dict, ...]
    #: Topics that name a medium or a backbone more often than a subject (`broad: true`: "Video Analysis").
    broad: frozenset[str] = frozenset()
    #: Topics given only to an abstract that mentions a language model (`llm_era: true`: "LLM Reasoning").
    llm_era: frozenset[str] = frozenset()

    def field_of_venue(self, venue: str) -> str | None:
        """Return the field of a venue ("ACL 2022" -> NLP), by its first word; None when no field lists it."""
        head = venue.split()[0].upper() if venue.strip() else ""
        return next((f.name for f in self.fields if head in f.venues), None)


def _topic_entries(items: list, area: str, parent: str, source: str, group: str) -> list[dict]:
    entries = []
    for item in items or []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise DigestError(f"{source}: area {area!r}: each topic needs a `name`")
        entry = {key: item[key] for key in ("name", "phrases", "acronyms") if key in item}
        if parent:
            entry["parent"] = parent
        entry["group"] = group
        entries.append(entry)
        entries += _topic_entries(item.get("narrower") or [], area, item["name"], source, group)
    return entries


def parse_vocabulary(text: str, source: str) -> Vocabulary:
    """Return the fields of a fields.yaml text; raise DigestError naming the source when it is malformed."""
    items = yaml.safe_load(text) or []
    fields, entries, broad, llm_era = [], [], set(), set()
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("field"), str):
            raise DigestError(f"{source}: each entry needs a `field`")
        areas = []
        for area in item.get("areas") or []:
            topics = _topic_entries(area.get("topics") or [], area["area"], "", source, item["field"])
            broad |= _flagged(area.get("topics") or [], "broad")
            llm_era |= _flagged(area.get("topics") or [], "llm_era")
            areas.append(FieldArea(area["area"], tuple(t["name"] for t in topics), bool(area.get("catch_all"))))
            # The area's own column: a paper is about the area when its title names any of its topics.
            phrases = sorted({p for t in topics for p in t.get("phrases", [])})
            acronyms = sorted({a for t in topics for a in t.get("acronyms", [])})
            entries.append({"name": AREA_PREFIX + area["area"], "phrases": phrases, "acronyms": acronyms,
                            "group": item["field"]})
            entries += topics
        venues = frozenset(str(v).upper() for v in item.get("venues") or [])
        fields.append(Field(item["field"], venues, tuple(areas)))
    names = [e["name"] for e in entries]
    if len(names) != len(set(names)):
        raise DigestError(f"{source}: a topic name is used twice")
    return Vocabulary(tuple(fields), tuple(entries), frozenset(broad), frozenset(llm_era))


def _flagged(items: list, flag: str) -> set[str]:
    """Return the names of the topics among topic items (narrower ones included) whose `flag` is true."""
    names = set()
    for item in items:
        if isinstance(item, dict):
            names |= {item["name"]} if item.get(flag) else set()
            names |= _flagged(item.get("narrower") or [], flag)
    return names


@lru_cache(maxsize=1)
def load_vocabulary() -> Vocabulary:
    """Return the bundled fields vocabulary."""
    text = resources.files("generator").joinpath("data/fields.yaml").read_text(encoding="utf-8")
    return parse_vocabulary(text, "generator/data/fields.yaml")


def field_topics(vocabulary: Vocabulary) -> tuple[Topic, ...]:
    """Return the compiled topics (and area columns) of every field."""
    return topics_from_entries(list(vocabulary.entries), "generator/data/fields.yaml")


def area_names(vocabulary: Vocabulary) -> frozenset[str]:
    """Return the names of every field's areas."""
    return frozenset(a.name for f in vocabulary.fields for a in f.areas)


@lru_cache(maxsize=1)
def bundled_field_topics() -> tuple[Topic, ...]:
    """Return the compiled topics (and area columns) of the bundled fields vocabulary."""
    return field_topics(load_vocabulary())


@lru_cache(maxsize=16)
def vocabulary_topics(field: str) -> tuple[Topic, ...]:
    """Return the topics of one bundled field (no area columns): what a source's keywords may join in that field."""
    names = {t for f in load_vocabulary().fields if f.name == field for a in f.areas for t in a.topics}
    return tuple(t for t in bundled_field_topics() if t.name in names)
