"""Enrich papers read from the sources: titles, slugs, summaries and tags."""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from slugify import slugify

from ..cache import Cache
from ..llm.apply import Inferred, Written, chosen_tags, written
from ..model import Paper, Progress, Tag, TitleSource, no_progress
from ..settings import Settings
from .analysis import _analyse_all, _Analysis
from .area_gate import AREA_GATE_PATH
from .areas import load_taxonomy
from .candidates import topic_candidates
from .field_record import FieldTags
from .field_vocabulary import bundled_field_topics
from .fields import load_field_tagger
from .folding import area_tags, fold_topics, merge_tags
from .keywords import subject_keywords
from .maps import FORK_FROM, MapLayout
from .open_topics import open_topics
from .overrides import Overrides, load_overrides
from .own_fields import field_parents, in_own_fields
from .related import MAP_NEIGHBOURS, NeighbourMemo, closest_from
from .related_process import RelatedJob
from .tags import Topic, load_topics, tag_slug
from .titles import unique_titles
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
    # A model may choose a field's topics too: a paper shown in a field is offered them (`offline_views`).
    models = _model_written(papers, analyses, inferred, settings,
                            {topic.name for topic in (*topics, *bundled_field_topics())})
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
        areas = _model_area(analyses[i].field, models[i]) or list(analyses[i].field.areas) or area_tags(
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


def _model_area(field: FieldTags, model: Written | None) -> list[Tag]:
    """Return the area a model chose for a paper shown in a field, else its first chosen topic's; else none.

    The model chooses among the field's areas (`offline_views`); a results file without one (or naming
    another field's) leaves the area of its first topic, as offline a paper's area is its first topic's.
    """
    tagger = load_field_tagger() if model is not None and field.areas else None
    if tagger is None or model is None:
        return []
    said = f"chosen by the language model {model.model}"
    if model.area is not None and tagger.area_of_field(field.field, model.area):
        offline = field.areas[0]
        if model.area == offline.name:
            return [replace(offline, evidence=(said, *offline.evidence))]
        # Its confidence: that of the model's first topic in it (the offline tagger's), else none.
        confidence = next((c for topic, c in model.topics or ()
                           if tagger.area_of(field.field, topic) == model.area), 0.0)
        return [Tag(model.area, tag_slug(model.area), "area", round(confidence, 3), (said,))]
    found = next(((area, confidence) for topic, confidence in model.topics or ()
                  if (area := tagger.area_of(field.field, topic))), None)
    if found is None or found[0] == field.areas[0].name:
        return []
    name, confidence = found
    return [Tag(name, tag_slug(name), "area", round(confidence, 3),
                (f"the area of the topic the language model {model.model} chose",))]


@dataclass(frozen=True)
class OfflineView:
    """What the offline stage makes of one paper, and what a language model is asked to choose among."""

    lead: str
    title: str
    summary: str
    #: The candidate topics, (name, confidence), most likely first.
    candidates: list[tuple[str, float]]
    #: The candidate areas of a paper shown in a field of its own, its offline area first (else none).
    areas: list[str]


def offline_views(
    papers: list[Paper], settings: Settings, cache: Cache | None = None, asked: set[str] | None = None
) -> list[OfflineView]:
    """Return the offline analysis and candidate topics of each paper whose id is in `asked` (all: None).

    The whole digest decides its field, as a build does: an ACL list's papers are offered NLP's topics
    and areas however few of them are asked about.
    """
    overrides = load_overrides(settings.resolve(settings.overrides_file) if settings.overrides_file else None)
    topics = load_topics(settings.resolve(settings.topics_file) if settings.topics_file else None) + overrides.topics
    analyses, _ = _analyse_all(papers, topics, settings, no_progress, cache)
    plains = [a.plain for a in analyses]
    fields, shown = in_own_fields([a.field for a in analyses], [a.topics for a in analyses], plains,
                                  [paper.keywords for paper in papers], topics)
    rows = [row for row, paper in enumerate(papers) if asked is None or paper.id in asked]
    analyses, fields, shown = [analyses[r] for r in rows], [fields[r] for r in rows], [shown[r] for r in rows]
    areas = {area.name for area in load_taxonomy()}
    chosen = [[(tag.name, tag.confidence) for tag in found] for found in shown]
    offered = topic_candidates([a.plain for a in analyses], topics, chosen, areas,
                               [(f.field, f.areas[0].name) if f.areas else ("", "") for f in fields])
    return [OfflineView(a.lead, a.title, a.summary, topics_offered, areas_offered)
            for a, (topics_offered, areas_offered) in zip(analyses, offered, strict=True)]
