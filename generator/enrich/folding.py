"""Which tags a paper finally shows: keyword and inferred topics merged, areas chosen, topics folded.

`fold_topics` works across the whole digest: it folds topics too small for a
page into their parent topics, keeps each paper's best topic whatever its size,
and names the parent of each sub-topic shown.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ..model import Tag
from .areas import AreaGuess, load_taxonomy
from .tags import Topic, _singular, tag_slug


def merge_tags(inferred: list[Tag], given: list[Tag]) -> list[Tag]:
    """Merge keyword tags into inferred topics: one tag per slug, evidence combined."""
    merged: dict[str, Tag] = {tag.slug: tag for tag in inferred}
    for tag in given:
        if tag.slug in merged:
            old = merged[tag.slug]
            merged[tag.slug] = Tag(old.name, old.slug, old.kind, max(old.confidence, tag.confidence),
                                   tag.evidence + old.evidence)
        else:
            merged[tag.slug] = tag
    return sorted(merged.values(), key=lambda t: (-t.confidence, t.name))


_NAME_WORD = re.compile(r"[a-z0-9]+")
_NAME_FILLERS = frozenset({"and", "of", "for", "the", "in", "on", "with", "to", "other"})


def _name_words(name: str) -> frozenset[str]:
    return frozenset(_singular(w) for w in _NAME_WORD.findall(name.casefold()) if w not in _NAME_FILLERS)


def reads_like_area(name: str, area_names: tuple[str, ...] | None = None) -> bool:
    """Return whether a topic name reads like a research area's name.

    It does when its words are a part of an area's name ("Time Series") or share
    at least half of their union with it ("Benchmarks & Datasets").
    """
    words = _name_words(name)
    for area in area_names if area_names is not None else tuple(a.name for a in load_taxonomy()):
        theirs = _name_words(area)
        if words and (words <= theirs or len(words & theirs) >= 0.5 * len(words | theirs)):
            return True
    return False


def topic_parents(topics: tuple[Topic, ...]) -> dict[str, tuple[str, str]]:
    """Return the parent (name, slug) of each topic of a vocabulary that has one, by the topic's slug."""
    names = {topic.name for topic in topics}
    return {topic.slug: (topic.parent, tag_slug(topic.parent)) for topic in topics if topic.parent in names}


#: Catch-all areas: a paper the model places nearly as well in a specific area shows that one first.
GENERIC_AREAS = frozenset({"other topics in machine learning (i.e., none of the above)",
                           "unsupervised, self-supervised, semi-supervised, and supervised representation learning"})


def area_tags(guesses: list[AreaGuess], second_ratio: float, specific_first: bool = True) -> list[Tag]:
    """Return the top area, and the second when it is nearly as likely (the paper sits between two).

    With `specific_first`, of two areas shown a specific one comes before a catch-all ("Other
    Topics in ML", "Representation Learning"): a long-tailed detector is a vision paper first.
    (The area reranker, area_gate.py, weighs that itself.)
    """
    top = max((guess.probability for guess in guesses[:2]), default=0.0)
    shown = [
        guess for rank, guess in enumerate(guesses[:2])
        if rank == 0 or guess.probability >= second_ratio * top
    ]
    if specific_first and len(shown) == 2 and shown[0].area.label in GENERIC_AREAS and \
            shown[1].area.label not in GENERIC_AREAS:
        shown.reverse()
    return [Tag(g.area.name, tag_slug(g.area.name), "area", round(g.probability, 3), g.evidence) for g in shown]


def fold_topics(
    topics_per_paper: list[list[Tag]],
    min_papers: int,
    max_per_paper: int,
    pinned: list[set[str]] | None = None,
    parents: dict[str, tuple[str, str]] | None = None,
) -> list[list[Tag]]:
    """Decide which topics each paper shows; every paper that has a topic keeps one, whatever the digest's size.

    - A topic with fewer than `min_papers` papers folds into its parent when it has one
      (`parents` maps a topic's slug to the parent's name and slug), up the chain: its papers
      show the broader topic, with the narrower one named first in the evidence.
    - A topic still under `min_papers` is kept as a paper's first topic (its best, so a small
      digest never leaves a paper bare) and dropped as a further one.
    - No topic is capped: a topic that holds much of a digest keeps all its papers. A shown
      topic that has a parent carries the parent's name (`Tag.parent`), so the parent's page
      lists it among its sub-topics and lists its papers too.

    Tags in `pinned` (per paper) are the user's choice and are never folded. Each decision
    counts papers only, so the result does not depend on the order of the papers.
    """
    parents = parents or {}
    current = _into_parents([list(tags) for tags in topics_per_paper], parents, min_papers, pinned)
    sizes = Counter(tag.slug for tags in current for tag in tags)
    shown = []
    for i, tags in enumerate(current):
        mine = pinned[i] if pinned else set()
        kept = [
            tag for rank, tag in enumerate(tags)
            if rank == 0 or tag.slug in mine or sizes[tag.slug] >= min_papers
        ]
        shown.append([_with_parent(tag, parents) for tag in kept[: max(max_per_paper, len(mine))]])
    return shown


def _with_parent(tag: Tag, parents: dict[str, tuple[str, str]]) -> Tag:
    """Return a topic tag that names its parent topic (as a sub-topic of it), when the vocabulary gives one."""
    parent = parents.get(tag.slug)
    return replace(tag, parent=parent[0]) if parent and tag.kind == "topic" else tag


def _as_parent(tag: Tag, parent: tuple[str, str]) -> Tag:
    """Return a topic tag as its parent topic: same confidence, the narrower topic named first in the evidence."""
    name, slug = parent
    return Tag(name, slug, tag.kind, tag.confidence, (f"narrower topic: {tag.name}", *tag.evidence))


def _into_parents(
    current: list[list[Tag]], parents: dict[str, tuple[str, str]], min_papers: int, pinned: list[set[str]] | None
) -> list[list[Tag]]:
    """Fold each topic with fewer than `min_papers` papers into its parent, until none is left to fold."""
    for _ in range(len(parents) + 1):
        sizes = Counter(tag.slug for tags in current for tag in tags)
        small = {slug for slug in parents if 0 < sizes[slug] < min_papers}
        if not small:
            break
        folded = []
        for i, tags in enumerate(current):
            mine = pinned[i] if pinned else set()
            merged: dict[str, Tag] = {}
            for tag in tags:
                if tag.slug in small and tag.slug not in mine:
                    tag = _as_parent(tag, parents[tag.slug])
                old = merged.get(tag.slug)
                # One tag per topic: the more confident of the paper's own and the folded one.
                if old is None or (tag.confidence, -len(tag.evidence)) > (old.confidence, -len(old.evidence)):
                    merged[tag.slug] = tag
            folded.append(sorted(merged.values(), key=lambda t: (-t.confidence, t.name)))
        current = folded
    return current
