"""Each abstract's own analysis: language, title, summary, topics and areas, in forked workers, cached.

What depends on one abstract alone is found here, for every paper of a digest
(`_analyse_all`), shared among forked worker processes for a large digest, and
kept in the cache by a hash of the abstract, the code, the models and the
settings: a rebuild analyses only the new and edited abstracts. What depends on
the whole digest (its fields, unique titles, topic sizes, related papers) is
the package's (`enrich_digest`).
"""

from __future__ import annotations

import logging
import multiprocessing
from contextlib import nullcontext
from dataclasses import dataclass, replace

from ..cache import Cache, entry_key
from ..languages import ENGLISH, detect_language, load_detector
from ..model import Paper, Progress, Tag
from ..read.notes import without_tail_notes
from ..settings import Settings
from ..text import to_plain
from .area_gate import reranked
from .areas import Area, AreaGuess, load_model
from .field_record import FieldTags
from .fields import MACHINE_LEARNING_TAGS, load_field_tagger
from .keywords import keyword_tags
from .native import native_text
from .own_fields import with_source_field
from .summaries import summarize
from .tags import Topic
from .titles import infer_title_from
from .topic_choice import tag_topics
from .topic_model import load_topic_model

log = logging.getLogger(__name__)


# The topic vocabulary for worker processes: set before they fork, read-only after.
_WORKER_TOPICS: tuple[Topic, ...] = ()


@dataclass(frozen=True)
class _Analysis:
    """What one abstract says on its own: plain text, title, topic candidates."""

    plain: str
    title: str
    title_source: str
    #: The inferred title's confidence (1.0 for a given title).
    title_confidence: float
    #: Topics from the keywords a structured source gives (inferred ones are added per batch).
    topics: list[Tag]
    #: The plain text without trailing notes ("Code is available at ..."): what titles are inferred from.
    lead: str
    #: The one-line summary: the source's tldr, else the contribution sentence (`summaries.py`).
    summary: str = ""
    #: The language the abstract is written in (ISO 639-1, `languages.py`).
    lang: str = ENGLISH
    #: The paper's field, and its areas and topics there when the field is not machine learning (fields.py).
    field: FieldTags = MACHINE_LEARNING_TAGS


#: What one paper's analysis reads: abstract, given title, keywords, tldr, title and summary lengths.
_Job = tuple[str, str, tuple[str, ...], str, int, int]


def _analyse(job: _Job, topics: tuple[Topic, ...]) -> _Analysis:
    """Analyse one paper: a pure function of its own fields (run in a worker for large digests)."""
    abstract, given_title, keywords, tldr, max_chars, max_summary = job
    plain = to_plain(abstract)
    # A trailing note ("Code is available at ...", "REVISED: ...") is never the title or the summary.
    body = without_tail_notes(abstract)
    lead = plain if body == abstract else to_plain(body)
    lang = detect_language(lead)
    if lang != ENGLISH:
        # The English title, summary and topic models read English: another language is cut in its own script.
        native = native_text(lead, lang, max_chars, max_summary, to_plain(tldr) if tldr else "")
        title, source = (given_title, "given") if given_title else (native.title or lead[:max_chars], native.source)
        # No model scores a title in another language: its confidence says only "not known".
        confidence = 1.0 if given_title else 0.5
        # Its keywords are the source's word on its subjects: an English text to bear them out there is none.
        return _Analysis(plain, title, source, confidence, keyword_tags(keywords, topics), lead, native.summary, lang)
    if given_title:
        title, source, confidence = given_title, "given", 1.0
    else:
        inferred = infer_title_from(body, lead, max_chars)
        title, source, confidence = inferred.title, inferred.source, inferred.confidence
    summary = summarize(lead, max_summary, to_plain(tldr) if tldr else "")
    return _Analysis(plain, title, source, confidence, keyword_tags(keywords, topics, plain), lead, summary)


#: Abstracts per job of the worker pool: its areas are predicted in one batch.
_BATCH = 250


def _analyse_batch(
    jobs: list[_Job], topics: tuple[Topic, ...] | None = None
) -> tuple[list[_Analysis], list[list[AreaGuess]]]:
    """Analyse a batch of papers and predict their areas (each row on its own, so batches do not matter).

    `topics` is the vocabulary; forked workers, given none, read the one set before they forked.
    """
    topics = _WORKER_TOPICS if topics is None else topics
    analyses = [_analyse(job, topics) for job in jobs]
    plains = [a.plain for a in analyses]
    # One TF-IDF matrix (the area model's vocabulary) feeds both the areas and the topics.
    tfidf = load_model().features(plains)
    # The keyword tags join each paper's candidates: the gate decides which of them the paper shows.
    inferred = tag_topics(plains, topics, model=load_topic_model(), tfidf=tfidf, given=[a.topics for a in analyses])
    tagger = load_field_tagger()
    fields = tagger.tag(tfidf) if tagger else [MACHINE_LEARNING_TAGS for _ in plains]
    # A field an arXiv category of the paper names comes first (the source's own subject).
    fields = [with_source_field(tags, job[2]) for tags, job in zip(fields, jobs, strict=True)]
    # An abstract in another language keeps its source's keywords, and no topic, field or area is inferred
    # from English models that find nothing of it to read.
    analyses = [
        replace(a, topics=found, field=field) if a.lang == ENGLISH else a
        for a, found, field in zip(analyses, inferred, fields, strict=True)
    ]
    # The area reranker reads the paper's topics; the first two areas are all a paper can be tagged with
    # (area_tags): the rest stay here.
    guesses = load_model().predict_plausible(plains, features=tfidf)
    return analyses, [
        reranked(g, a.topics, a.plain)[:2] if a.lang == ENGLISH else []
        for g, a in zip(guesses, analyses, strict=True)
    ]


def _tag_json(tag: Tag) -> list:
    return [tag.name, tag.slug, tag.kind, tag.confidence, list(tag.evidence), tag.parent]


def _tag_of(data: list) -> Tag:
    name, slug, kind, confidence, evidence, parent = data
    if kind not in ("area", "topic") or not isinstance(confidence, float | int):
        raise ValueError("not a tag")
    return Tag(str(name), str(slug), kind, float(confidence), tuple(str(e) for e in evidence), str(parent))


def _to_json(analysis: _Analysis, guesses: list[AreaGuess]) -> dict:
    """Return what the cache keeps of one paper's analysis (everything, as JSON)."""
    return {
        "plain": analysis.plain, "title": analysis.title, "title_source": analysis.title_source,
        "title_confidence": analysis.title_confidence,
        "lead": analysis.lead, "summary": analysis.summary, "topics": [_tag_json(t) for t in analysis.topics],
        "lang": analysis.lang,
        "areas": [[g.area.label, g.area.name, g.probability, list(g.evidence)] for g in guesses],
        "field": analysis.field.to_json(),
    }


def _from_json(data: dict) -> tuple[_Analysis, list[AreaGuess]]:
    """Return the analysis the cache kept; raise ValueError, KeyError or TypeError when it does not decode."""
    analysis = _Analysis(
        str(data["plain"]), str(data["title"]), str(data["title_source"]), float(data["title_confidence"]),
        [_tag_of(t) for t in data["topics"]],
        str(data["lead"]), str(data["summary"]), str(data["lang"]), FieldTags.from_json(data["field"]),
    )
    guesses = [AreaGuess(Area(str(label), str(name)), float(p), tuple(str(e) for e in evidence))
               for label, name, p, evidence in data["areas"]]
    return analysis, guesses


def _analyse_all(
    papers: list[Paper], topics: tuple[Topic, ...], settings: Settings, progress: Progress, cache: Cache | None
):
    """Return each paper's analysis and area guesses, in input order; what `cache` holds is not analysed again."""
    jobs = [
        (p.abstract, p.title if p.title and p.title_source == "given" else "", p.keywords, p.tldr,
         settings.max_title_chars, settings.max_summary_chars)
        for p in papers
    ]
    keys = [entry_key(abstract, title, keywords, tldr) for abstract, title, keywords, tldr, _, _ in jobs]
    known: dict[int, tuple[_Analysis, list[AreaGuess]]] = {}
    if cache is not None:
        try:
            for index, key in enumerate(keys):
                value = cache.get(key)
                if value is not None:
                    known[index] = _from_json(value)
        except (ValueError, KeyError, TypeError, AttributeError):
            # One entry that does not decode and nothing in the file is trusted.
            cache.discard()
            known = {}
    todo = [i for i in range(len(jobs)) if i not in known]
    fresh_analyses, fresh_guesses = _analyse_jobs(
        [jobs[i] for i in todo], topics, settings, progress, len(known), len(jobs)
    )
    for index, analysis, guesses in zip(todo, fresh_analyses, fresh_guesses, strict=True):
        known[index] = (analysis, guesses)
        if cache is not None:
            cache.put(keys[index], _to_json(analysis, guesses))
    progress("Inferring titles, topics and areas", len(papers), len(papers))
    return [known[i][0] for i in range(len(jobs))], [known[i][1] for i in range(len(jobs))]


def _analyse_jobs(
    jobs: list, topics: tuple[Topic, ...], settings: Settings, progress: Progress, done: int, total: int
):
    """Analyse `jobs` in batches, on forked workers for large digests; return analyses and area guesses."""
    batches = [jobs[start : start + _BATCH] for start in range(0, len(jobs), _BATCH)]
    workers = settings.forked_workers(len(jobs))
    analyses: list[_Analysis] = []
    guesses: list[list[AreaGuess]] = []
    if workers:
        load_topic_model()  # loaded once (with the area model), before the fork: the workers share them
        load_detector()
        load_field_tagger()
        # Forked workers inherit the vocabulary through this module global instead of pickling it per batch.
        global _WORKER_TOPICS  # noqa: PLW0603
        _WORKER_TOPICS = topics
    # Each abstract is analysed on its own, so the work splits across cores;
    # imap keeps the input order, so the output is the same as in one process.
    with multiprocessing.get_context("fork").Pool(workers) if workers else nullcontext() as pool:
        results = pool.imap(_analyse_batch, batches) if pool else (_analyse_batch(b, topics) for b in batches)
        for batch_analyses, batch_guesses in results:
            analyses += batch_analyses
            guesses += batch_guesses
            progress("Inferring titles, topics and areas", done + len(analyses), total)
    return analyses, guesses
