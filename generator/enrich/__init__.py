"""Enrich papers read from the sources: titles, slugs, summaries and tags."""

from __future__ import annotations

import logging
import multiprocessing
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import cast

from slugify import slugify

from ..cache import Cache, entry_key
from ..languages import ENGLISH, detect_language, load_detector
from ..llm.apply import Inferred, Written, chosen_tags, written
from ..model import Paper, Progress, Tag, TitleSource, no_progress
from ..read.notes import without_tail_notes
from ..settings import Settings
from ..text import to_plain
from .area_gate import AREA_GATE_PATH, reranked
from .areas import Area, AreaGuess, load_model, load_taxonomy
from .candidates import topic_candidates
from .field_record import FieldTags
from .fields import (
    MACHINE_LEARNING_TAGS,
    bundled_field_topics,
    load_field_tagger,
)
from .folding import area_tags, fold_topics, merge_tags
from .keywords import keyword_tags, subject_keywords
from .maps import FORK_FROM, MapLayout
from .native import native_text
from .open_topics import open_topics
from .overrides import Overrides, load_overrides
from .own_fields import field_parents, in_own_fields, with_source_field
from .related import MAP_NEIGHBOURS, NeighbourMemo, closest_from
from .related_process import RelatedJob
from .summaries import summarize
from .tags import Topic, load_topics, tag_slug
from .titles import infer_title_from, unique_titles
from .topic_model import load_topic_model, tag_topics
from .vectors import CountsMemo, Vectors, strongest_count, strongest_terms, vectorize

log = logging.getLogger(__name__)

_SLUG_WORDS = 60


def paper_slug(title: str, paper_id: str) -> str:
    """Return a readable, unique and stable slug: the title's words and the id."""
    # The id suffix keeps the slug unique whatever other papers exist, so adding
    # or removing papers never renames another paper's page.
    stem = slugify(title, max_length=_SLUG_WORDS, word_boundary=True, save_order=True) or "paper"
    return f"{stem}-{paper_id[:6]}"


def _without_area_names(tags: list[Tag], area_slugs: set[str]) -> list[Tag]:
    # A topic spelled like an area ("Reinforcement Learning" as a keyword) would share
    # the area's page; the area already groups those papers.
    return [tag for tag in tags if tag.slug not in area_slugs]


def _consistent_names(per_paper: list[list[Tag]]) -> list[list[Tag]]:
    """Give every tag one display name across the digest: its most common spelling."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for tags in per_paper:
        for tag in tags:
            spellings[tag.slug][tag.name] += 1
    names = {slug: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for slug, c in spellings.items()}
    return [[replace(tag, name=names[tag.slug]) for tag in tags] for tags in per_paper]


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


def enrich(
    papers: list[Paper], settings: Settings, progress: Progress = no_progress, cache: Cache | None = None,
    neighbours: NeighbourMemo | None = None,
) -> list[Paper]:
    """Give every paper a title, slug, summary, tags and related papers; return them in input order.

    `enrich_digest` without the map (which is not drawn).
    """
    return enrich_digest(papers, settings, progress, cache, neighbours)[0]


def enrich_digest(
    papers: list[Paper], settings: Settings, progress: Progress = no_progress, cache: Cache | None = None,
    neighbours: NeighbourMemo | None = None, draw_map: bool = False, counts: CountsMemo | None = None,
    inferred: Inferred | None = None,
) -> tuple[list[Paper], MapLayout]:
    """Give every paper a title, slug, summary, tags and related papers; return them in input order, and the map.

    `cache` holds earlier analyses of single abstracts (titles, topic and area
    scores): those found there are not analysed again, the others are added.
    `neighbours` holds each paper's nearest papers from the last run: only the
    rows of the similarity matrix that can have changed are computed again.
    `counts` holds the last run's word counts: only new texts are tokenised.
    The result is the same with or without them.

    `inferred` holds what a language model wrote (`paper-digest infer`): each paper's current and
    valid title, summary and topics replace the offline ones, below the overrides file's corrections;
    a paper already published keeps its address when the model retitles it.

    The map's layout is drawn from the same neighbour lists. With `draw_map`,
    a large digest's starts now in a forked process, so that it is ready by the
    time the pages are rendered; else it is drawn when its places are asked for.
    """
    overrides = load_overrides(settings.resolve(settings.overrides_file) if settings.overrides_file else None)
    topics = load_topics(settings.resolve(settings.topics_file) if settings.topics_file else None) + overrides.topics
    # All titles and topics are gathered first: uniqueness and topic sizes are
    # properties of the whole digest.
    analyses, guesses = _analyse_all(papers, topics, settings, progress, cache)
    plains = [a.plain for a in analyses]
    models = _model_written(papers, analyses, inferred, settings, {topic.name for topic in topics})
    # A title corrected in the overrides file replaces the inferred one, its slug included; a model's
    # replaces an offline one, never a title the source gives.
    titled: list[tuple[str, TitleSource, float]] = [
        (overrides.titles[paper.id], "corrected", 1.0) if paper.id in overrides.titles
        else (w.title, "llm", 1.0) if w is not None and w.title and a.title_source != "given"
        else (a.title, cast(TitleSource, a.title_source), a.title_confidence)
        for paper, a, w in zip(papers, analyses, models, strict=True)
    ]
    base_titles = [title for title, _, _ in titled]
    # One TF-IDF matrix serves keyword subjects, related papers and the map. A large digest's related
    # papers are found in a process of their own (related_process.py) while its topics are found here.
    progress("Finding related papers", 0, 1)
    vectors = vectorize([f"{title}. {plain}" for title, plain in zip(base_titles, plains, strict=True)], counts)
    with RelatedJob(vectors, max(settings.related_count, MAP_NEIGHBOURS), settings.cores(), neighbours) as job:
        enriched, scored = _tagged(papers, settings, analyses, guesses, topics, overrides, models, titled, vectors,
                                   job.result, inferred.published if inferred is not None else {})
    progress("Finding related papers", 1, 1)
    log.info("enriched %d papers", len(enriched))
    # Started last: nothing here can fail and leave the drawing process running.
    layout = MapLayout(scored, fork=draw_map and len(papers) >= FORK_FROM and settings.cores() > 1)
    return enriched, layout


def _tagged(
    papers: list[Paper], settings: Settings, analyses: list[_Analysis], guesses: list, topics: tuple[Topic, ...],
    overrides: Overrides, models: list[Written | None], titled: list[tuple[str, TitleSource, float]],
    vectors: Vectors | None, neighbours: Callable[[], list[list[tuple[int, float]]]], published: dict[str, str],
) -> tuple[list[Paper], list[list[tuple[int, float]]]]:
    """Return the papers with their titles, tags and related papers, and each one's neighbours (`neighbours()`).

    The digest's fields and topics are found first, then the neighbours are asked for (found meanwhile
    in a process of their own for a large digest).
    """
    plains = [a.plain for a in analyses]
    base_titles = [title for title, _, _ in titled]
    fields, shown = in_own_fields([a.field for a in analyses], [a.topics for a in analyses],
                                  [a.plain for a in analyses], [paper.keywords for paper in papers], topics)
    analyses = [replace(a, field=field, topics=found) for a, field, found in zip(analyses, fields, shown, strict=True)]
    area_names = {area.name for area in load_taxonomy()} | {
        tag.name for a in analyses for tag in a.field.areas
    }
    area_slugs = {tag_slug(name) for name in area_names}
    titles = unique_titles(base_titles, [paper.collection for paper in papers])
    candidates = [
        _without_area_names(chosen_tags(w.topics, a.topics, w.model, tag_slug) if w and w.topics else a.topics,
                            area_slugs)
        for a, w in zip(analyses, models, strict=True)
    ]
    candidates = _consistent_names(candidates)
    candidates = subject_keywords(candidates, plains, vectors.matrix if vectors is not None else None,
                                  {topic.slug for topic in (*topics, *bundled_field_topics())},
                                  settings.min_topic_papers)
    # Pinned topics join folding as the user's choice (never folded away); pinned areas join in apply().
    pinned = [[t for t in overrides.pins(paper.id, area_names) if t.kind == "topic"] for paper in papers]
    candidates = [merge_tags(own, extra) for own, extra in zip(candidates, pinned, strict=True)]
    pins = [{tag.slug for tag in extra} for extra in pinned]
    folded = fold_topics(
        candidates, settings.min_topic_papers, settings.max_topics_per_paper, pinned=pins,
        parents=field_parents(topics, any(a.field.areas for a in analyses)),
    )
    # Papers no vocabulary topic fits, when several share a subject, get the digest's own topic.
    bare = [i for i, tags in enumerate(folded) if not tags]
    for i, tag in open_topics(base_titles, plains, bare, settings.min_topic_papers).items():
        if tag.slug not in area_slugs:
            folded[i] = [tag]
    # No vectors: no paper has a usable word, so nothing is related and the map has one spot.
    scored = neighbours() if vectors is not None else [[] for _ in papers]
    related = closest_from(scored, settings.related_count)
    terms = strongest_terms(vectors, strongest_count(len(papers))) if vectors is not None else [() for _ in papers]

    enriched = []
    for i, paper in enumerate(papers):
        areas = list(analyses[i].field.areas) or area_tags(
            guesses[i], settings.second_area_ratio, specific_first=not AREA_GATE_PATH.is_file()
        )
        tags = overrides.apply(paper.id, [*areas, *folded[i]], area_names)
        model = models[i]
        by_model = titled[i][1] == "llm" and model is not None
        # Retitled by the model once published: the page stays where readers found it (docs/guide/inference.md).
        kept_slug = published.get(paper.id, "") if by_model else ""
        # A summary the source gives (tldr) stays, as a given title does.
        written_summary = model.summary if model is not None and not paper.tldr else None
        enriched.append(
            replace(
                paper,
                title=titles[i],
                title_source=titled[i][1],
                title_confidence=titled[i][2],
                title_model=model.model if by_model and model is not None else "",
                slug=kept_slug or paper_slug(base_titles[i], paper.id),
                plain=plains[i],
                summary=overrides.summaries.get(paper.id) or written_summary or analyses[i].summary,
                lang=analyses[i].lang,
                tags=tuple(tags),
                related=tuple(papers[j].id for j in related[i][0]),
                related_weak=related[i][1],
                terms=terms[i],
            )
        )
    return enriched, scored


def _model_written(
    papers: list[Paper], analyses: list[_Analysis], inferred: Inferred | None, settings: Settings, vocabulary: set[str]
) -> list[Written | None]:
    """Return, for each paper, what the stored results say the model wrote for it and the build shows."""
    if inferred is None or not inferred.results:
        return [None] * len(papers)
    return [
        written(inferred.results.get(paper.id), paper.abstract, analysis.lead, vocabulary, settings.max_title_chars,
                settings.max_summary_chars, settings.max_topics_per_paper)
        for paper, analysis in zip(papers, analyses, strict=True)
    ]


@dataclass(frozen=True)
class OfflineView:
    """What the offline stage makes of one paper, and what a language model is asked to choose among."""

    lead: str
    title: str
    summary: str
    #: The candidate topics, (name, confidence), most likely first.
    candidates: list[tuple[str, float]]


def offline_views(papers: list[Paper], settings: Settings, cache: Cache | None = None) -> list[OfflineView]:
    """Return each paper's offline analysis and candidate topics, for `paper-digest infer`."""
    overrides = load_overrides(settings.resolve(settings.overrides_file) if settings.overrides_file else None)
    topics = load_topics(settings.resolve(settings.topics_file) if settings.topics_file else None) + overrides.topics
    analyses, _ = _analyse_all(papers, topics, settings, no_progress, cache)
    areas = {area.name for area in load_taxonomy()}
    chosen = [[(tag.name, tag.confidence) for tag in a.topics] for a in analyses]
    candidates = topic_candidates([a.plain for a in analyses], topics, chosen, areas)
    return [OfflineView(a.lead, a.title, a.summary, c) for a, c in zip(analyses, candidates, strict=True)]
