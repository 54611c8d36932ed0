"""Papers gathered by tag and by collection: what the index, tag and stats pages list."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from slugify import slugify

from ..model import Collection, Paper, Tag


@dataclass(frozen=True)
class TagGroup:
    """A tag with the papers that carry it, strongest first."""

    tag: Tag
    papers: tuple[Paper, ...]
    related: tuple[tuple[Tag, int], ...]


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
    """Return every tag with its papers (by confidence) and co-occurring tags."""
    members: dict[str, list[tuple[Tag, Paper]]] = defaultdict(list)
    for paper in papers:
        for tag in paper.tags:
            members[tag.slug].append((tag, paper))
    groups = []
    for slug, pairs in members.items():
        tag = pairs[0][0]
        ordered = tuple(p for _, p in sorted(pairs, key=lambda tp: (-tp[0].confidence, tp[1].title.casefold())))
        co: Counter[str] = Counter()
        names: dict[str, Tag] = {}
        for paper in ordered:
            for other in paper.tags:
                if other.slug != slug:
                    co[other.slug] += 1
                    names.setdefault(other.slug, other)
        related = tuple((names[s], n) for s, n in sorted(co.items(), key=lambda kv: (-kv[1], kv[0]))[:8])
        groups.append(TagGroup(tag, ordered, related))
    groups.sort(key=lambda g: (g.tag.kind != "area", -len(g.papers), g.tag.name))
    return groups


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


def topics_by_area(areas: list[TagGroup], topics: list[TagGroup]) -> dict[str, list[TagGroup]]:
    """Place each topic under the area that holds most of its papers (ties: area name)."""
    placed: dict[str, list[TagGroup]] = {group.tag.slug: [] for group in areas}
    for topic in topics:
        counts = Counter(t.slug for paper in topic.papers for t in paper.tags if t.kind == "area")
        if counts:
            home = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            placed.setdefault(home, []).append(topic)
    return placed
