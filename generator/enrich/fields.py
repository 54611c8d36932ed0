"""Fields beyond machine learning: their models, and the tagger that chooses a paper's areas and topics.

`generator/data/fields.yaml` names each field's areas and topics (read by field_vocabulary.py). Two shipped models
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

from functools import lru_cache
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..model import Tag
from .areas import AreaModel, load_model
from .field_record import FieldTags
from .field_vocabulary import AREA_PREFIX, MACHINE_LEARNING, Vocabulary, load_vocabulary
from .gate import SENTENCE_END
from .tags import PHRASE_MIN_SCORE, mentions_language_model, phrase_confidence, tag_slug
from .topic_model import FURTHER_TOPIC_FLOOR, TopicModel, names_subject, vocabulary_fingerprint

DATA = Path(__file__).resolve().parents[1] / "data"
FIELD_MODEL_PATH = DATA / "field_model.npz"
FIELD_TOPIC_MODEL_PATH = DATA / "field_topic_model.npz"
#: Probabilities are rounded to this many decimals before any comparison (as topic_model.DECIMALS).
DECIMALS = 4
#: A paper's best topic under its threshold is still its topic at this probability when the abstract
#: names it as its subject (`FieldTagger._fallback`).
FALLBACK_PROBABILITY = 0.15
#: A paper no topic of which reaches its threshold still gets its best topic at this share of the topic's
#: threshold when the abstract names it (`FieldTagger._fallback`). Measured on the tune part's threshold
#: fold (`python bench/field_fallback.py`): the topics so given, on papers whose title names a topic of
#: their field, are the title's for 57-62% of them at every share from 0.2 to 0.8 (the thresholds aim at
#: 60%), so which share first reaches 0.6 moves with each retraining; half is where it has stood.
FALLBACK_MARGIN = 0.5
#: The phrase score that names a topic for `FALLBACK_MARGIN`: a phrase of several words (1.5), or two mentions.
FALLBACK_EVIDENCE = 1.5
#: Under this probability a paper's first topic is weak: its candidates are ordered with their areas' (`_by_area`).
WEAK_TOPIC = 0.5
#: A catch-all area ("Learning for Vision") first only when no specific area is at least this share as likely.
CATCH_ALL_RATIO = 0.5
#: The phrase score a topic without a classifier needs, for a paper no other topic fits, when a contribution
#: sentence names it ("we investigate ... the GEC sequence tagging architecture": once is enough); as a further
#: topic it needs `PHRASE_MIN_SCORE` and to be named as the subject. Measured with `FALLBACK_MARGIN`
#: (`python bench/field_fallback.py`): so given, the first topic is the title's; as a further one it rarely is.
PHRASED_CONTRIBUTION_SCORE = 1.0
#: The phrase score that names a topic without a classifier, for a paper no other topic fits, anywhere in the
#: abstract: a phrase of several words ("math word problems"), or two mentions. Measured with the above.
PHRASED_EVIDENCE = 1.5


#: The phrase weight that names a topic in an abstract's first sentence, for a paper nothing else fits: a phrase
#: of several words ("Depth completion involves estimating a dense depth image ..."). Measured on the tune
#: part's threshold fold (`python bench/field_fallback.py`): the title names the topic so given for 0.77 of the
#: titled papers (54/70; a single word: 0.69 of 143, and no better for a phrase among the sentence's first
#: words); a topic of a catch-all area ("Learning for Vision": a backbone) is not given so.
OPENING_EVIDENCE = 1.5


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


#: The field tags of a paper of machine learning (or of a digest that is machine learning's): none.
MACHINE_LEARNING_TAGS = FieldTags(MACHINE_LEARNING)


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
        self._area_column = {name: c for areas in self._areas.values() for name, c, _ in areas}
        self._catch_all = frozenset(a.name for f in vocabulary.fields for a in f.areas if a.catch_all)
        #: Each topic column's area; per field, its learned topic columns and their thresholds (one comparison a
        #: paper), and its topics without a classifier with their phrase indexes.
        self._area_of = {c: area for f in self._areas.values() for area, _, cols in f for c in cols}
        learned = {f: [c for _, _, cols in areas for c in cols if topic_model.thresholds[c] >= 0]
                   for f, areas in self._areas.items()}
        self._columns = {f: np.array(cols, dtype=np.int64) for f, cols in learned.items()}
        self._thresholds = {f: topic_model.thresholds[cols] for f, cols in self._columns.items()}
        #: Per field, the phrase index of each learned topic that is not broad, with its column (`_opening`).
        self._by_phrase = {
            f: {index: c for c in cols.tolist() if topic_model.names[c] not in vocabulary.broad
                and self._area_of[c] not in self._catch_all
                and (index := topic_model.phrase_index(topic_model.names[c])) is not None}
            for f, cols in self._columns.items()
        }
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
        return [self._choose(field, features, row, probabilities[row], max_topics, plains[row])
                for row, field in enumerate(fields)]

    def candidates(self, tfidf: sp.spmatrix, plains: list[str], fields: list[str], count: int) -> list[tuple]:
        """Return, for each paper, the `count` likeliest topics of the field given for it and all the field's areas.

        What a language model may choose among (`paper-digest infer`): the field's learned topics as
        (name, probability), most likely first (ties by name), broad ones included (the model, not a
        threshold, decides which is the subject); and the field's area names, likeliest first by the area
        classifiers.
        """
        if not plains:
            return []
        _, probabilities = self.topic_model.scores(plains, tfidf)
        names = self.topic_model.names
        found = []
        for row, field in enumerate(fields):
            topics = sorted(((float(probabilities[row, c]), names[c]) for c in self._columns[field].tolist()),
                            key=lambda item: (-item[0], item[1]))
            areas = sorted(((float(probabilities[row, c]), name) for name, c, _ in self._areas[field]),
                           key=lambda item: (-item[0], item[1]))
            found.append(([(name, p) for p, name in topics[:count]], [name for _, name in areas]))
        return found

    def area_of_field(self, field: str, area: str) -> bool:
        """Return whether `area` is one of `field`'s areas."""
        return any(name == area for name, _, _ in self._areas.get(field, []))

    def area_of(self, field: str, topic: str) -> str | None:
        """Return the area of `field` a topic of it belongs to (None for a name that is not one of its topics)."""
        return next((area.name for f in self.vocabulary.fields if f.name == field
                     for area in f.areas if topic in area.topics), None)

    def _choose(self, field: str, features, row: int, probs: np.ndarray, max_topics: int, plain: str) -> FieldTags:
        model = self.topic_model
        areas = self._areas[field]
        over = self._columns[field][probs[self._columns[field]] >= self._thresholds[field]]
        passing = sorted(
            [*((float(probs[c]), model.names[c], c, self._area_of[c]) for c in over.tolist()),
             *self._phrased(field, features, row)],
            key=lambda item: (-item[0], item[1]),
        )
        passing = self._subjects(self._allowed(passing, plain), features, row)
        if all(name in self.vocabulary.broad for _, name, _, _ in passing):
            # Nothing, or only a broad topic: a narrower topic the abstract names, just under its threshold,
            # is the subject ("Video-Language Understanding" of a video paragraph captioner, not "Video Analysis").
            passing = self._fallback(field, features, row, probs, plain) or passing
        if len(passing) > 1 and passing[0][0] < WEAK_TOPIC:
            passing = self._by_area(passing, probs)
        chosen = passing[:1] + [p for p in passing[1:] if p[0] >= FURTHER_TOPIC_FLOOR]
        chosen = self._narrowest(chosen)[:max_topics]
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

    def _narrowest(self, chosen: list[tuple[float, str, int, str]]) -> list:
        """Return the chosen topics with a parent whose narrower topic is also chosen replaced by it, in its place.

        A narrower topic says all its parent would: "3D Object Detection" beside "Object Detection" is
        enough, and a reader calls the parent loose. It takes the parent's rank, so the first topic's area stays.
        """
        child = {self._parents[name]: item for item in chosen if (name := item[1]) in self._parents}
        if not any(item[1] in child for item in chosen):
            return chosen
        placed = [child.get(item[1], item) for item in chosen]
        return [item for i, item in enumerate(placed) if item not in placed[:i]]

    def _by_area(self, passing: list[tuple[float, str, int, str]], probs: np.ndarray) -> list:
        """Return the candidate topics, the likeliest with its area first (ties by name).

        Each area's classifier learned from every title that names any of its topics: when the topics'
        own classifiers are unsure (`WEAK_TOPIC`), it is a second opinion on which candidate is the
        subject. A task planner for a mobile manipulator is a little more likely "Robot Manipulation"
        than "Task & Motion Planning" by the topics' classifiers (0.42 against 0.36), and far more likely
        of "Motion Planning & Control" than of "Manipulation & Grasping" (0.62 against 0.26).
        """
        column = self._area_column
        return sorted(passing, key=lambda item: (-round(item[0] * float(probs[column[item[3]]]), DECIMALS), item[1]))

    def _subjects(self, passing: list[tuple[float, str, int, str]], features, row: int) -> list:
        """Return a paper's candidate topics without the broad ones, unless a broad one is all it has and its subject.

        A broad topic names the medium or the backbone of many subjects ("Video Analysis" of a video
        deraining method, "Pretrained Language Models" of an ensembling method run on BERT): it stands
        only when no narrower topic of the field is a candidate and the abstract names it as its subject
        (a contribution sentence, or named again and again: `names_subject`).
        """
        if not any(name in self.vocabulary.broad for _, name, _, _ in passing):
            return passing
        narrower = [p for p in passing if p[1] not in self.vocabulary.broad]
        if narrower:
            return narrower
        model = self.topic_model
        return [p for p in passing if (index := model.phrase_index(p[1])) is not None
                and names_subject(features, row, index)]

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

    def _allowed(self, passing: list[tuple[float, str, int, str]], plain: str) -> list:
        """Return the candidates without an LLM-era topic ("LLM Reasoning") unless the abstract names a language model.

        Looked for only when such a topic is a candidate: the mention's pattern is long, most abstracts need none.
        """
        if not any(name in self.vocabulary.llm_era for _, name, _, _ in passing) or mentions_language_model(plain):
            return passing
        return [p for p in passing if p[1] not in self.vocabulary.llm_era]

    def _fallback(self, field: str, features, row: int, probs: np.ndarray, plain: str) -> list:
        """Return the paper's best topic (not a broad one) under its threshold when the abstract names it, else nothing.

        A topic qualifies when the abstract names it as its subject (one of its phrases in a contribution
        sentence, "We propose a dependency parser ...", or its phrases adding up to `SUBJECT_SCORE`) at
        `FALLBACK_PROBABILITY`, or when its probability is at least `FALLBACK_MARGIN` of its threshold
        and the abstract names it by a phrase of several words, twice, or in a contribution sentence
        (`FALLBACK_EVIDENCE`: "relation extraction", "stereo matching"). Failing those, a topic without a
        classifier named once in a contribution sentence or by a phrase of several words anywhere
        (`PHRASED_CONTRIBUTION_SCORE`, `PHRASED_EVIDENCE`).
        """
        model = self.topic_model
        columns, thresholds = self._columns[field], self._thresholds[field]
        found = []
        # Only a topic likely enough by either rule is looked at.
        for c in columns[probs[columns] >= np.minimum(FALLBACK_PROBABILITY, FALLBACK_MARGIN * thresholds)].tolist():
            index = model.phrase_index(model.names[c])
            if index is None or model.names[c] in self.vocabulary.broad:
                continue
            score = features.scores[row].get(index, 0.0)
            named = score >= FALLBACK_EVIDENCE or bool(features.contribution[row].get(index))
            if (probs[c] >= FALLBACK_PROBABILITY and names_subject(features, row, index)) or (
                named and probs[c] >= FALLBACK_MARGIN * model.thresholds[c]
            ):
                found.append((float(probs[c]), model.names[c], c, self._area_of[c]))
        found = self._allowed(found, plain)
        if not found:
            # A topic too rare in titles for a classifier, named in a contribution sentence: once is enough here.
            found = self._allowed(self._phrased(field, features, row, once=True), plain)
        if not found:
            found = self._allowed(self._opening(field, features, row, plain), plain)
        # Several under their thresholds: the likeliest with its area, as for weak topics over them (`_by_area`,
        # which orders them wholly: its ties go by name).
        return self._by_area(found, probs)[:1]

    def _opening(self, field: str, features, row: int, plain: str) -> list[tuple[float, str, int, str]]:
        """Return the first topic the abstract's first sentence names by a phrase of several words, if any.

        An abstract that opens on its task ("Depth completion involves ...", "Visual place recognition
        is ...") names its subject there, even when the topic's classifier, trained on other wordings, is
        far from sure (`OPENING_EVIDENCE`). Only for a paper no other rule gives a topic.
        """
        first = len(SENTENCE_END.split(plain, maxsplit=1)[0])
        learned = self._by_phrase[field]
        for index, offset, weight in sorted(features.hits[row], key=lambda hit: hit[1]):
            if offset >= first:
                break
            if weight >= OPENING_EVIDENCE and index in learned:
                column = learned[index]
                return [(phrase_confidence(weight), self.topic_model.names[column], column, self._area_of[column])]
        return []

    def _phrased(self, field: str, features, row: int, once: bool = False) -> list[tuple[float, str, int, str]]:
        """Return the topics without a classifier (too few titled papers) that the abstract names as its subject.

        Such a topic ("Speech Synthesis", "Dependency & Constituency Parsing") needs two mentions
        (`PHRASE_MIN_SCORE`) and to be named as the subject (`names_subject`); its confidence is its phrases'.
        With `once` (a paper nothing else fits), one mention in a contribution sentence is enough, or a phrase of
        several words anywhere (`PHRASED_EVIDENCE`).
        """
        found = []
        for c, index in self._phrase_decided[field]:
            score = features.scores[row].get(index, 0.0)
            if (score >= PHRASE_MIN_SCORE and names_subject(features, row, index)) or (
                once and (score >= PHRASED_EVIDENCE
                          or (score >= PHRASED_CONTRIBUTION_SCORE and features.contribution[row].get(index)))
            ):
                found.append((phrase_confidence(score), self.topic_model.names[c], c, self._area_of[c]))
        return found


@lru_cache(maxsize=1)
def load_field_tagger() -> FieldTagger | None:
    """Load the bundled field models once per process (None when they are not built)."""
    if not (FIELD_MODEL_PATH.is_file() and FIELD_TOPIC_MODEL_PATH.is_file()):
        return None
    return FieldTagger(FieldModel(), TopicModel(FIELD_TOPIC_MODEL_PATH), load_vocabulary())
