"""Fields beyond machine learning: their vocabulary (field -> area -> topic -> narrower topic) and models.

`generator/data/fields.yaml` names each field's areas and topics. Two shipped models
read the area model's TF-IDF of an abstract (no vectorizing of its own):

- the field model (`field_model.npz`): one multinomial logistic regression over the
  fields, trained on the venues' papers (an ACL paper is NLP, an IROS paper robotics);
- the field topic model (`field_topic_model.npz`): a `TopicModel` whose classifiers, one
  per area and topic of every field, learned aboutness from titles: a paper is a
  positive of a topic when its title names it, and its features say where the topic's
  phrases sit in the abstract (a contribution sentence, the results, anywhere).

Both are trained by `python scripts/train_field_model.py`. Scores are rounded before
any comparison, so every machine gives the same field, areas and topics.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import yaml

from ..errors import DigestError
from ..model import Tag
from .areas import AreaModel, load_model
from .tags import Topic, tag_slug, topics_from_entries
from .topic_model import FURTHER_TOPIC_FLOOR, TopicModel, vocabulary_fingerprint

DATA = Path(__file__).resolve().parents[1] / "data"
FIELD_MODEL_PATH = DATA / "field_model.npz"
FIELD_TOPIC_MODEL_PATH = DATA / "field_topic_model.npz"
#: The field whose areas and topics are areas.yaml's and topics.yaml's (the ICLR taxonomy).
MACHINE_LEARNING = "Machine Learning"
#: The prefix of an area's column in the field topic model (an area may share a topic's name).
AREA_PREFIX = "area: "
#: Probabilities are rounded to this many decimals before any comparison (as topic_model.DECIMALS).
DECIMALS = 4


@dataclass(frozen=True)
class FieldArea:
    """One area of a field and the names of its topics (narrower ones included)."""

    name: str
    topics: tuple[str, ...]


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

    def field_of_venue(self, venue: str) -> str | None:
        """Return the field of a venue ("ACL 2022" -> NLP), by its first word; None when no field lists it."""
        head = venue.split()[0].upper() if venue.strip() else ""
        return next((f.name for f in self.fields if head in f.venues), None)


def _topic_entries(items: list, area: str, parent: str, source: str) -> list[dict]:
    entries = []
    for item in items or []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise DigestError(f"{source}: area {area!r}: each topic needs a `name`")
        entry = {key: item[key] for key in ("name", "phrases", "acronyms") if key in item}
        if parent:
            entry["parent"] = parent
        entries.append(entry)
        entries += _topic_entries(item.get("narrower") or [], area, item["name"], source)
    return entries


def parse_vocabulary(text: str, source: str) -> Vocabulary:
    """Return the fields of a fields.yaml text; raise DigestError naming the source when it is malformed."""
    items = yaml.safe_load(text) or []
    fields, entries = [], []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("field"), str):
            raise DigestError(f"{source}: each entry needs a `field`")
        areas = []
        for area in item.get("areas") or []:
            topics = _topic_entries(area.get("topics") or [], area["area"], "", source)
            areas.append(FieldArea(area["area"], tuple(t["name"] for t in topics)))
            # The area's own column: a paper is about the area when its title names any of its topics.
            phrases = sorted({p for t in topics for p in t.get("phrases", [])})
            acronyms = sorted({a for t in topics for a in t.get("acronyms", [])})
            entries.append({"name": AREA_PREFIX + area["area"], "phrases": phrases, "acronyms": acronyms})
            entries += topics
        venues = frozenset(str(v).upper() for v in item.get("venues") or [])
        fields.append(Field(item["field"], venues, tuple(areas)))
    names = [e["name"] for e in entries]
    if len(names) != len(set(names)):
        raise DigestError(f"{source}: a topic name is used twice")
    return Vocabulary(tuple(fields), tuple(entries))


@lru_cache(maxsize=1)
def load_vocabulary() -> Vocabulary:
    """Return the bundled fields vocabulary."""
    text = resources.files("generator").joinpath("data/fields.yaml").read_text(encoding="utf-8")
    return parse_vocabulary(text, "generator/data/fields.yaml")


def field_topics(vocabulary: Vocabulary) -> tuple[Topic, ...]:
    """Return the compiled topics (and area columns) of every field."""
    return topics_from_entries(list(vocabulary.entries), "generator/data/fields.yaml")


class FieldModel:
    """The shipped field classifier: a linear model over the area model's TF-IDF."""

    def __init__(self, path: Path = FIELD_MODEL_PATH, area_model: AreaModel | None = None) -> None:
        area_model = area_model or load_model()
        with np.load(path, allow_pickle=False) as data:
            self.names: list[str] = data["names"].tolist()
            self.coef_t = np.ascontiguousarray(data["coef"].astype(np.float32).T)
            self.intercept = data["intercept"].astype(np.float64)
            fingerprint = str(data["area_fingerprint"])
        if fingerprint != vocabulary_fingerprint(area_model.terms.tolist()):
            raise ValueError(f"{path} was trained on another area model's vocabulary: retrain it")

    def probabilities(self, tfidf: sp.spmatrix) -> np.ndarray:
        """Return each row's probability of each field, rounded to `DECIMALS`."""
        scores = np.asarray(tfidf @ self.coef_t, dtype=np.float64) + self.intercept
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        return np.round(probabilities / probabilities.sum(axis=1, keepdims=True), DECIMALS)

    def predict(self, tfidf: sp.spmatrix) -> list[str]:
        """Return each row's most probable field (ties by the order of the file)."""
        return [self.names[int(np.argmax(row))] for row in self.probabilities(tfidf)]


@dataclass(frozen=True)
class FieldTags:
    """What the field vocabulary says of one paper: its field, its areas there and its topics there."""

    field: str
    areas: tuple[Tag, ...] = ()
    topics: tuple[Tag, ...] = ()

    def to_json(self) -> list:
        return [self.field, [_tag_json(t) for t in self.areas], [_tag_json(t) for t in self.topics]]

    @classmethod
    def from_json(cls, data: list) -> FieldTags:
        field, areas, topics = data
        return cls(str(field), tuple(_tag_of(t, "area") for t in areas), tuple(_tag_of(t, "topic") for t in topics))


def _tag_json(tag: Tag) -> list:
    return [tag.name, tag.confidence, list(tag.evidence), tag.parent]


def _tag_of(data: list, kind: str) -> Tag:
    name, confidence, evidence, parent = data
    return Tag(str(name), tag_slug(str(name)), "area" if kind == "area" else "topic", float(confidence),
               tuple(str(e) for e in evidence), str(parent))


class FieldTagger:
    """Each paper's field, and for a paper outside machine learning its field's areas and topics."""

    def __init__(self, field_model: FieldModel, topic_model: TopicModel, vocabulary: Vocabulary) -> None:
        self.field_model = field_model
        self.topic_model = topic_model
        self.vocabulary = vocabulary
        columns = {name: i for i, name in enumerate(topic_model.names)}
        #: Per field: its area columns, and per area its topic columns.
        self._areas: dict[str, list[tuple[str, int, list[int]]]] = {
            f.name: [(a.name, columns[AREA_PREFIX + a.name], [columns[t] for t in a.topics if t in columns])
                     for a in f.areas if AREA_PREFIX + a.name in columns]
            for f in vocabulary.fields
        }
        self._parents = {t.name: t.parent for t in topic_model.feature_topics if t.parent}

    def tag(self, plains: list[str], tfidf: sp.spmatrix, max_topics: int = 3) -> list[FieldTags]:
        """Return each paper's field tags (areas and topics only for a field other than machine learning)."""
        if not plains:
            return []
        fields = self.field_model.predict(tfidf)
        rows = [i for i, f in enumerate(fields) if self._areas.get(f)]
        result = [FieldTags(f) for f in fields]
        if not rows:
            return result
        features, probabilities = self.topic_model.scores([plains[i] for i in rows], tfidf[rows])
        for local, row in enumerate(rows):
            result[row] = self._choose(fields[row], features, local, probabilities[local], max_topics)
        return result

    def _choose(self, field: str, features, row: int, probs: np.ndarray, max_topics: int) -> FieldTags:
        model = self.topic_model
        areas = self._areas[field]
        passing = sorted(
            ((float(probs[c]), model.names[c], c, area) for area, _, cols in areas for c in cols
             if model.thresholds[c] >= 0 and probs[c] >= model.thresholds[c]),
            key=lambda item: (-item[0], item[1]),
        )
        chosen = passing[:1] + [p for p in passing[1:] if p[0] >= FURTHER_TOPIC_FLOOR]
        topics = tuple(
            Tag(name, tag_slug(name), "topic", round(p, 3), model.evidence(features, row, column),
                self._parents.get(name, ""))
            for p, name, column, _ in chosen[:max_topics]
        )
        if chosen:
            # The first topic's area is the paper's area: its title would name the area through it.
            area_name = chosen[0][3]
            column = next(c for name, c, _ in areas if name == area_name)
        else:
            # No topic clears its threshold: the paper is listed under its likeliest area only.
            ranked = sorted(((float(probs[c]), name, c) for name, c, _ in areas), key=lambda x: (-x[0], x[1]))
            _, area_name, column = ranked[0]
        area = Tag(area_name, tag_slug(area_name), "area", round(float(probs[column]), 3),
                   model.evidence(features, row, column))
        return FieldTags(field, (area,), topics)


@lru_cache(maxsize=1)
def load_field_tagger() -> FieldTagger | None:
    """Load the bundled field models once per process (None when they are not built)."""
    if not (FIELD_MODEL_PATH.is_file() and FIELD_TOPIC_MODEL_PATH.is_file()):
        return None
    return FieldTagger(FieldModel(), TopicModel(FIELD_TOPIC_MODEL_PATH), load_vocabulary())


def area_names(vocabulary: Vocabulary) -> frozenset[str]:
    """Return the names of every field's areas."""
    return frozenset(a.name for f in vocabulary.fields for a in f.areas)


def dumps(tags: list[FieldTags]) -> str:
    """Return field tags as JSON (for the cache and tests)."""
    return json.dumps([t.to_json() for t in tags], sort_keys=True)


def digest_field(fields: list[str]) -> str:
    """Return the field most of a digest's papers are of (machine learning on a tie or an empty digest).

    Machine learning keeps today's areas and topics; a digest of another field shows, for each
    of its papers outside machine learning, that paper's field's own areas and topics.
    """
    counts = {name: fields.count(name) for name in set(fields)}
    if not counts:
        return MACHINE_LEARNING
    best = max(counts.values())
    return MACHINE_LEARNING if counts.get(MACHINE_LEARNING) == best else min(n for n, c in counts.items() if c == best)


def vocabulary_topics(vocabulary: Vocabulary, field: str) -> tuple[Topic, ...]:
    """Return the topics of one field (no area columns): what a source's keywords may join in that field."""
    names = {t for f in vocabulary.fields if f.name == field for a in f.areas for t in a.topics}
    return tuple(t for t in field_topics(vocabulary) if t.name in names)
