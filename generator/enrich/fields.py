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
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import yaml

from ..errors import DigestError
from ..model import Tag
from .areas import AreaModel, load_model
from .tags import PHRASE_MIN_SCORE, Topic, phrase_confidence, tag_slug, topics_from_entries
from .topic_model import FURTHER_TOPIC_FLOOR, TopicModel, names_subject, vocabulary_fingerprint

DATA = Path(__file__).resolve().parents[1] / "data"
FIELD_MODEL_PATH = DATA / "field_model.npz"
FIELD_TOPIC_MODEL_PATH = DATA / "field_topic_model.npz"
#: The field whose areas and topics are areas.yaml's and topics.yaml's (the ICLR taxonomy).
MACHINE_LEARNING = "Machine Learning"
#: The prefix of an area's column in the field topic model (an area may share a topic's name).
AREA_PREFIX = "area: "
#: Probabilities are rounded to this many decimals before any comparison (as topic_model.DECIMALS).
DECIMALS = 4
#: A paper's best topic under its threshold is still its topic at this probability when the abstract
#: names it as its subject (`FieldTagger._fallback`).
FALLBACK_PROBABILITY = 0.15
#: A paper no topic of which reaches its threshold still gets its best topic at this share of the topic's
#: threshold when the abstract names it (`FieldTagger._fallback`). Calibrated on the tune part's threshold
#: fold (`python bench/field_fallback.py`): the lowest share at which the topics so given, on papers whose
#: title names a topic of their field, are the title's as often as the thresholds aim at (0.6).
FALLBACK_MARGIN = 0.5
#: The phrase score that names a topic for `FALLBACK_MARGIN`: a phrase of several words (1.5), or two mentions.
FALLBACK_EVIDENCE = 1.5
#: A catch-all area ("Learning for Vision") first only when no specific area is at least this share as likely.
CATCH_ALL_RATIO = 0.5
#: In a digest of a field other than machine learning, a paper the field model gives at least this
#: probability of the digest's field is shown in that field (a multimodal ACL paper stays an NLP paper).
IN_DIGEST_FIELD = 0.15
#: A digest at least this share of whose papers are of one field is that field's digest (a venue's list: ACL,
#: CVPR, IROS): each of its papers is shown in that field, whose areas are the home a reader of it looks for.
FIELD_DIGEST_SHARE = 0.75


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
            areas.append(FieldArea(area["area"], tuple(t["name"] for t in topics), bool(area.get("catch_all"))))
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


#: The field tags of a paper of machine learning (or of a digest that is machine learning's): none.
MACHINE_LEARNING_TAGS = FieldTags(MACHINE_LEARNING)


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
        self._catch_all = frozenset(a.name for f in vocabulary.fields for a in f.areas if a.catch_all)
        #: Each topic column's area; per field, its learned topic columns and their thresholds (one comparison a
        #: paper), and its topics without a classifier with their phrase indexes.
        self._area_of = {c: area for f in self._areas.values() for area, _, cols in f for c in cols}
        learned = {f: [c for _, _, cols in areas for c in cols if topic_model.thresholds[c] >= 0]
                   for f, areas in self._areas.items()}
        self._columns = {f: np.array(cols, dtype=np.int64) for f, cols in learned.items()}
        self._thresholds = {f: topic_model.thresholds[cols] for f, cols in self._columns.items()}
        self._phrase_decided = {
            f: [(c, index) for _, _, cols in areas for c in cols if topic_model.thresholds[c] < 0
                and (index := topic_model.phrase_index(topic_model.names[c])) is not None]
            for f, areas in self._areas.items()
        }

    def tag(self, tfidf: sp.spmatrix) -> list[FieldTags]:
        """Return each paper's field and the field model's probabilities (its areas and topics come per digest)."""
        names = self.field_model.names
        probabilities = self.field_model.probabilities(tfidf)
        return [
            FieldTags(names[int(np.argmax(row))],
                      probabilities=tuple((name, float(p)) for name, p in zip(names, row, strict=True) if p >= 0.01))
            for row in probabilities
        ]

    def has_areas(self, field: str) -> bool:
        """Return whether a field has areas of its own (machine learning's are areas.yaml's)."""
        return bool(self._areas.get(field))

    def tag_in(self, plains: list[str], tfidf: sp.spmatrix, fields: list[str], max_topics: int = 3) -> list[FieldTags]:
        """Return each paper's areas and topics in the field given for it (a field of fields.yaml with areas)."""
        if not plains:
            return []
        features, probabilities = self.topic_model.scores(plains, tfidf)
        return [self._choose(field, features, row, probabilities[row], max_topics) for row, field in enumerate(fields)]

    def _choose(self, field: str, features, row: int, probs: np.ndarray, max_topics: int) -> FieldTags:
        model = self.topic_model
        areas = self._areas[field]
        over = self._columns[field][probs[self._columns[field]] >= self._thresholds[field]]
        passing = sorted(
            [*((float(probs[c]), model.names[c], c, self._area_of[c]) for c in over.tolist()),
             *self._phrased(field, features, row)],
            key=lambda item: (-item[0], item[1]),
        )
        if not passing:
            passing = self._fallback(field, features, row, probs)
        chosen = passing[:1] + [p for p in passing[1:] if p[0] >= FURTHER_TOPIC_FLOOR]
        chosen = chosen[:max_topics]
        topics = tuple(
            Tag(name, tag_slug(name), "topic", round(p, 3), model.evidence(features, row, column),
                self._parents.get(name, ""))
            for p, name, column, _ in chosen
        )
        area_name = self._first_area(field, [area for _, _, _, area in chosen], probs)
        column = next(c for name, c, _ in areas if name == area_name)
        area = Tag(area_name, tag_slug(area_name), "area", round(float(probs[column]), 3),
                   model.evidence(features, row, column))
        return FieldTags(field, (area,), topics)

    def _first_area(self, field: str, topic_areas: list[str], probs: np.ndarray) -> str:
        """Return a paper's area: its first topic's, else its likeliest; a catch-all only when no specific one fits.

        The first topic's area is the paper's area: its title would name the area through it. A paper
        without a topic is listed under its likeliest area (its area classifiers: `AREA_PREFIX` columns).
        A catch-all ("Learning for Vision") gives way to the area of a further topic shown; for a paper
        without a topic, to a specific area its area classifiers find at least `CATCH_ALL_RATIO` as likely.
        (A paper whose topic is a catch-all's keeps it: the title names that area more often than the
        next likeliest, `python bench/field_fallback.py`.)
        """
        if topic_areas:
            specific = [name for name in topic_areas if name not in self._catch_all]
            return specific[0] if specific else topic_areas[0]
        ranked = sorted(((float(probs[c]), name) for name, c, _ in self._areas[field]), key=lambda x: (-x[0], x[1]))
        level, first = ranked[0]
        if first not in self._catch_all:
            return first
        return next((name for p, name in ranked if name not in self._catch_all and p >= CATCH_ALL_RATIO * level), first)

    def _fallback(self, field: str, features, row: int, probs: np.ndarray) -> list[tuple[float, str, int, str]]:
        """Return the paper's best topic under its threshold when the abstract names it, else nothing.

        A topic qualifies when the abstract names it as its subject (one of its phrases in a contribution
        sentence, "We propose a dependency parser ...", or its phrases adding up to `SUBJECT_SCORE`) at
        `FALLBACK_PROBABILITY`, or when its probability is at least `FALLBACK_MARGIN` of its threshold
        and the abstract names it by a phrase of several words, twice, or in a contribution sentence
        (`FALLBACK_EVIDENCE`: "relation extraction", "stereo matching").
        """
        model = self.topic_model
        columns, thresholds = self._columns[field], self._thresholds[field]
        found = []
        # Only a topic likely enough by either rule is looked at.
        for c in columns[probs[columns] >= np.minimum(FALLBACK_PROBABILITY, FALLBACK_MARGIN * thresholds)].tolist():
            index = model.phrase_index(model.names[c])
            if index is None:
                continue
            score = features.scores[row].get(index, 0.0)
            named = score >= FALLBACK_EVIDENCE or bool(features.contribution[row].get(index))
            if (probs[c] >= FALLBACK_PROBABILITY and names_subject(features, row, index)) or (
                named and probs[c] >= FALLBACK_MARGIN * model.thresholds[c]
            ):
                found.append((float(probs[c]), model.names[c], c, self._area_of[c]))
        return sorted(found, key=lambda item: (-item[0], item[1]))[:1]

    def _phrased(self, field: str, features, row: int) -> list[tuple[float, str, int, str]]:
        """Return the topics without a classifier (too few titled papers) that the abstract names as its subject.

        Such a topic ("Speech Synthesis", "Dependency & Constituency Parsing") needs two mentions
        (`PHRASE_MIN_SCORE`) and to be named as the subject (`names_subject`); its confidence is its phrases'.
        """
        found = []
        for c, index in self._phrase_decided[field]:
            score = features.scores[row].get(index, 0.0)
            if score >= PHRASE_MIN_SCORE and names_subject(features, row, index):
                found.append((phrase_confidence(score), self.topic_model.names[c], c, self._area_of[c]))
        return found


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


#: arXiv categories that name a field (an arXiv export's keywords): the source's own word on the paper's field.
ARXIV_FIELDS = {
    "cs.CL": "Natural Language Processing", "cs.CV": "Computer Vision", "eess.IV": "Computer Vision",
    "cs.RO": "Robotics", "cs.LG": MACHINE_LEARNING, "stat.ML": MACHINE_LEARNING, "cs.NE": MACHINE_LEARNING,
    "cs.AI": "Artificial Intelligence", "cs.MA": "Artificial Intelligence", "cs.LO": "Artificial Intelligence",
    "math.ST": "Learning Theory & Statistics", "stat.TH": "Learning Theory & Statistics",
    "cs.IR": "Web & Data Mining", "cs.SI": "Web & Data Mining", "cs.GR": "Computer Graphics",
}


def with_source_field(tags: FieldTags, keywords: tuple[str, ...]) -> FieldTags:
    """Return a paper's field tags with the field its first arXiv category names, when it gives one.

    An arXiv export lists a paper's categories as its keywords, the primary one first ("cs.CL").
    """
    field = next((ARXIV_FIELDS[k.strip()] for k in keywords if k.strip() in ARXIV_FIELDS), None)
    if field is None or field == tags.field:
        return tags
    others = tuple((name, p) for name, p in tags.probabilities if name != field)
    return replace(tags, field=field, probabilities=((field, 1.0), *others))


@lru_cache(maxsize=1)
def bundled_field_topics() -> tuple[Topic, ...]:
    """Return the compiled topics (and area columns) of the bundled fields vocabulary."""
    return field_topics(load_vocabulary())


@lru_cache(maxsize=16)
def vocabulary_topics(field: str) -> tuple[Topic, ...]:
    """Return the topics of one bundled field (no area columns): what a source's keywords may join in that field."""
    names = {t for f in load_vocabulary().fields if f.name == field for a in f.areas for t in a.topics}
    return tuple(t for t in bundled_field_topics() if t.name in names)


def in_digest_fields(tags: list[FieldTags], plains: list[str]) -> list[FieldTags]:
    """Return, for each paper of a digest, the field tags it is shown with (none: the ICLR areas and topics).

    A digest most of whose papers are of machine learning (ICLR, NeurIPS) keeps the ICLR areas and
    topics for every paper. In a digest at least half of whose papers are of another field (ACL, CVPR,
    IROS), a paper that may be of that field (`IN_DIGEST_FIELD`) is shown in it and any other keeps the
    ICLR areas and topics; in a venue's digest (`FIELD_DIGEST_SHARE` of it of one field), every paper is
    shown in that field. In a mixed library (no field holds half of it), each paper of a field other
    than machine learning is shown in its own field.
    """
    main = digest_field([t.field for t in tags])
    tagger = load_field_tagger()
    if main == MACHINE_LEARNING or tagger is None:
        return [MACHINE_LEARNING_TAGS for _ in tags]
    # A digest of one field: a paper that may be of it is shown in it. A mixed one (a library of several
    # fields): each paper in its own field.
    share = sum(t.field == main for t in tags) / len(tags)
    single = share >= 0.5
    # A venue's digest: its multimodal or learning papers are still papers of the venue's field.
    floor = 0.0 if share >= FIELD_DIGEST_SHARE else IN_DIGEST_FIELD
    # In a digest of one field, a paper not of it keeps ICLR's broad vocabulary: one site, two taxonomies
    # at most. In a mixed library each paper is shown in its own field.
    target = [
        (main if t.field == main or t.probability(main) >= floor else MACHINE_LEARNING) if single
        else t.field
        for t in tags
    ]
    rows = [i for i, field in enumerate(target) if tagger.has_areas(field)]
    placed = [MACHINE_LEARNING_TAGS if target[i] == MACHINE_LEARNING else tags[i] for i in range(len(tags))]
    if rows:
        texts = [plains[i] for i in rows]
        found = tagger.tag_in(texts, load_model().features(texts), [target[i] for i in rows])
        for i, tagged in zip(rows, found, strict=True):
            placed[i] = replace(tagged, probabilities=tags[i].probabilities)
    return placed
