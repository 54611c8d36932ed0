"""Papers gathered by tag and by collection: what the index, tag and stats pages list."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from slugify import slugify

from ..enrich.area_gate import load_topic_areas
from ..enrich.areas import load_taxonomy
from ..enrich.open_topics import OPEN_TOPIC
from ..enrich.tags import tag_slug
from ..model import Collection, Paper, Tag, TagPage, page_count


@dataclass(frozen=True)
class TagGroup:
    """A tag with the papers that carry it or one of its sub-topics, strongest first."""

    tag: Tag
    papers: tuple[Paper, ...]
    related: tuple[tuple[Tag, int], ...]
    #: The sub-topics shown in the digest (topics whose `parent` is this one), with their numbers of papers.
    children: tuple[tuple[Tag, int], ...] = ()


def collections_of(papers: list[Paper]) -> dict[str, Collection]:
    """Return each collection name's Collection, with unique slugs."""
    result: dict[str, Collection] = {}
    used: set[str] = set()
    for name in sorted({p.collection for p in papers}):
        slug = slugify(name, max_length=60) or "collection"
        base, n = slug, 2
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        result[name] = Collection(name, slug)
    return result


def group_by_tag(papers: list[Paper]) -> list[TagGroup]:
    """Return every tag with its papers (by confidence), co-occurring tags and sub-topics.

    A parent topic's group holds its own papers and those of its sub-topics (`Tag.parent`),
    so a topic that holds much of a digest keeps all its papers and names its parts.
    """
    members, canonical, children = _members(papers)
    groups = []
    for slug, pairs in members.items():
        ordered = tuple(p for _, p in sorted(pairs, key=lambda tp: (-tp[0].confidence, tp[1].title.casefold())))
        co: Counter[str] = Counter()
        for paper in ordered:
            for other in paper.tags:
                if other.slug != slug and other.parent != canonical[slug].name:
                    co[other.slug] += 1
        related = tuple((canonical[s], n) for s, n in sorted(co.items(), key=lambda kv: (-kv[1], kv[0]))[:8])
        parts = tuple((canonical[s], n) for s, n in sorted(children[slug].items(), key=lambda kv: (-kv[1], kv[0])))
        groups.append(TagGroup(canonical[slug], ordered, related, parts))
    groups.sort(key=lambda g: (g.tag.kind != "area", -len(g.papers), g.tag.name))
    return groups


def _members(papers: list[Paper]) -> tuple[dict[str, list[tuple[Tag, Paper]]], dict[str, Tag], dict[str, Counter[str]]]:
    """Return each tag slug's (tag, paper) pairs, its tag, and its sub-topics' counts (see `group_by_tag`)."""
    members: dict[str, list[tuple[Tag, Paper]]] = defaultdict(list)
    canonical: dict[str, Tag] = {}
    children: dict[str, Counter[str]] = defaultdict(Counter)
    for paper in papers:
        own = {tag.slug for tag in paper.tags}
        for tag in paper.tags:
            members[tag.slug].append((tag, paper))
            # An open topic keeps its mark: its page says it is the digest's own, not the vocabulary's.
            mark = tag.evidence[:1] if tag.evidence[:1] == (OPEN_TOPIC,) else ()
            canonical.setdefault(tag.slug, replace(tag, confidence=1.0, evidence=mark))
        for tag in paper.tags:
            if tag.parent:
                slug = tag_slug(tag.parent)
                children[slug][tag.slug] += 1
                canonical.setdefault(slug, Tag(tag.parent, slug, "topic"))
                if slug not in own:  # listed under the parent too, once, as strong as its sub-topic
                    members[slug].append((tag, paper))
                    own.add(slug)
    return members, canonical, children


def tag_pages(papers: list[Paper], listing_size: int) -> tuple[TagPage, ...]:
    """Return the listing of every tag the site shows: its address, name, broader topic and pages, by address."""
    members, canonical, _ = _members(papers)
    return tuple(sorted(
        (TagPage(tag.url, tag.name, tag.parent, page_count(len(members[slug]), listing_size))
         for slug, tag in canonical.items()),
        key=lambda page: page.url,
    ))


def area_sources(areas: list[TagGroup]) -> dict[str, bool]:
    """Return which kinds of areas a digest shows: ICLR's (`iclr`, machine learning) and other fields' (`fields`).

    The pages that say where areas come from say it of the ones shown.
    """
    iclr = {area.name for area in load_taxonomy()}
    return {"iclr": any(g.tag.name in iclr for g in areas), "fields": any(g.tag.name not in iclr for g in areas)}


def topic_pairs(papers: list[Paper], count: int = 15) -> list[tuple[Tag, Tag, int]]:
    """Return the topic pairs that share the most papers (linear in papers x topics per paper)."""
    pairs: Counter[tuple[str, str]] = Counter()
    names: dict[str, Tag] = {}
    for paper in papers:
        topics = sorted((t for t in paper.tags if t.kind == "topic"), key=lambda t: t.slug)
        for i, first in enumerate(topics):
            names[first.slug] = first
            for second in topics[i + 1 :]:
                pairs[(first.slug, second.slug)] += 1
    ranked = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:count]
    return [(names[a], names[b], n) for (a, b), n in ranked]


#: How many papers the corpora's shares count for, beside the digest's own papers of the topic.
PRIOR_PAPERS = 3.0


def topics_by_area(
    areas: list[TagGroup], topics: list[TagGroup], prior: dict[str, dict[str, float]] | None = None
) -> dict[str, list[TagGroup]]:
    """Place each top-level topic under the area that holds most of its papers, among the areas that hold any.

    A digest's few papers of a topic are a noisy count: the corpora's shares
    (`prior`, by topic and area name) count as `PRIOR_PAPERS` more papers, so two
    benchmark papers do not carry "Robotics & Manipulation" off to "Datasets &
    Benchmarks" while a robotics area holds one. Ties: the area's slug.
    """
    prior = load_topic_areas() if prior is None else prior
    placed: dict[str, list[TagGroup]] = {group.tag.slug: [] for group in areas}
    shown = {group.tag.name for group in topics}
    for topic in topics:
        if topic.tag.parent in shown:
            continue  # a sub-topic sits under its parent topic, wherever that sits
        counts: Counter[tuple[str, str]] = Counter(
            (t.slug, t.name) for paper in topic.papers for t in paper.tags if t.kind == "area"
        )
        if counts:
            shares = prior.get(topic.tag.name, {})
            scored = [(-(n + PRIOR_PAPERS * shares.get(name, 0.0)), slug) for (slug, name), n in counts.items()]
            placed.setdefault(min(scored)[1], []).append(topic)
    return placed
