"""Which tags a paper finally shows: keyword and inferred topics merged, areas chosen, topics folded.

`fold_topics` works across the whole digest: it drops topics too small to
show, trims topics too broad to be useful, and finds a home for papers left
with none.
"""

from __future__ import annotations

import math
import re
from collections import Counter

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


def area_tags(guesses: list[AreaGuess], second_ratio: float) -> list[Tag]:
    """Return the top area, and the second when it is nearly as likely."""
    tags = []
    for rank, guess in enumerate(guesses[:2]):
        if rank == 1 and guess.probability < second_ratio * guesses[0].probability:
            break
        tags.append(
            Tag(guess.area.name, tag_slug(guess.area.name), "area", round(guess.probability, 3), guess.evidence)
        )
    return tags


def fold_topics(
    topics_per_paper: list[list[Tag]],
    min_papers: int,
    max_share: float,
    max_per_paper: int,
    keys: list[str] | None = None,
    pinned: list[set[str]] | None = None,
    reserves: list[list[Tag]] | None = None,
    parents: dict[str, tuple[str, str]] | None = None,
) -> list[list[Tag]]:
    """Keep topics with at least `min_papers` papers and at most `max_share` of the digest.

    A topic with too few papers first folds into its parent (`parents` maps a
    topic's slug to the parent's name and slug) when it has one: its papers
    show the broader topic, with the narrower one named in the evidence.

    A topic over the cap keeps its most confident papers, those for which it is
    the only topic shown first; ties are broken by `keys` (the paper ids), so
    the result does not depend on the input order.
    Tags in `pinned` (per paper) are the user's choice and are never folded.
    A paper left with no topic gets the first of its topics or `reserves` whose
    topic is shown and has room, or else one it shares with enough papers to
    make a page (papers taken in `keys` order).
    """
    count = len(topics_per_paper)
    keys = keys if keys is not None else [f"{i:09d}" for i in range(count)]
    cap = max(min_papers, math.floor(max_share * count))
    parents = parents or {}
    current = _into_parents([list(tags) for tags in topics_per_paper], parents, min_papers, pinned)
    # Trimming one topic can push another below the minimum: repeat until stable.
    for _ in range(10):
        sizes = Counter(tag.slug for tags in current for tag in tags)
        keep_members: dict[str, set[int]] = {}
        for slug, size in sizes.items():
            if size > cap:
                # Papers for which it is the only topic shown keep it first: the others keep theirs.
                members = sorted(
                    (_shows_another(tags, slug, sizes, min_papers), -tag.confidence, keys[i], i)
                    for i, tags in enumerate(current) for tag in tags if tag.slug == slug
                )
                keep_members[slug] = {i for *_, i in members[:cap]}
        folded = []
        for i, tags in enumerate(current):
            mine = pinned[i] if pinned else set()
            kept = [
                tag
                for tag in tags
                if tag.slug in mine
                or (sizes[tag.slug] >= min_papers and (tag.slug not in keep_members or i in keep_members[tag.slug]))
            ]
            folded.append(kept[: max(max_per_paper, len(mine))])
        if folded == current:
            break
        current = folded
    if not reserves:
        return current
    # A bare paper may take the parent of one of its topics, right after that topic.
    original = [_with_parents(tags, parents) for tags in topics_per_paper]
    spares = [_with_parents(spare, parents) for spare in reserves]
    return _fill_from_reserves(current, original, spares, keys, (min_papers, cap, max_per_paper))


def _shows_another(tags: list[Tag], slug: str, sizes: Counter[str], min_papers: int) -> bool:
    """Return whether a paper has a topic besides `slug` with enough papers to be shown."""
    return any(tag.slug != slug and sizes[tag.slug] >= min_papers for tag in tags)


def _as_parent(tag: Tag, parent: tuple[str, str]) -> Tag:
    """Return a topic tag as its parent topic: same confidence, the narrower topic named first in the evidence."""
    name, slug = parent
    return Tag(name, slug, tag.kind, tag.confidence, (f"narrower topic: {tag.name}", *tag.evidence))


def _with_parents(tags: list[Tag], parents: dict[str, tuple[str, str]]) -> list[Tag]:
    """Return `tags` with each one's parent topic right after it (when the paper has not got it already)."""
    slugs = {tag.slug for tag in tags}
    result = []
    for tag in tags:
        result.append(tag)
        parent = parents.get(tag.slug)
        if parent and parent[1] not in slugs:
            result.append(_as_parent(tag, parent))
            slugs.add(parent[1])
    return result


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


def _fill_from_reserves(
    current: list[list[Tag]],
    original: list[list[Tag]],
    reserves: list[list[Tag]],
    keys: list[str],
    limits: tuple[int, int, int],
) -> list[list[Tag]]:
    """Give papers left with no topic one of theirs: a topic too small alone, or a shown one with room.

    A topic folded away for having too few papers comes back when papers left
    bare bring it to `min_papers`, with the papers it was folded from; first
    from the bare papers' own topics, then (after shown topics with room) from
    their reserves.
    """
    min_papers, cap, _ = limits
    sizes = Counter(tag.slug for tags in current for tag in tags)
    filled = [list(tags) for tags in current]
    empty = sorted((i for i in range(len(current)) if not current[i]), key=lambda i: keys[i])
    with_reserves = [[*tags, *spare] for tags, spare in zip(original, reserves, strict=True)]
    _revive(filled, original, original, empty, keys, sizes, limits)
    for i in empty:
        if filled[i]:
            continue
        for tag in with_reserves[i]:
            if min_papers <= sizes[tag.slug] < cap:
                filled[i] = [tag]
                sizes[tag.slug] += 1
                break
    # Last, papers that have the topic only as a reserve may make up its page too.
    _revive(filled, with_reserves, with_reserves, empty, keys, sizes, limits)
    return filled


def _revive(
    filled: list[list[Tag]],
    options: list[list[Tag]],
    original: list[list[Tag]],
    empty: list[int],
    keys: list[str],
    sizes: Counter[str],
    limits: tuple[int, int, int],
) -> None:
    """Bring back, in place, folded topics that the bare papers' `options` share with enough papers."""
    min_papers, cap, max_per_paper = limits
    remaining = [i for i in empty if not filled[i]]
    offers = Counter(slug for i in remaining for slug in {tag.slug for tag in options[i]})
    for slug, _ in sorted(offers.items(), key=lambda kv: (-kv[1], kv[0])):
        if sizes[slug]:
            continue  # shown already: only its room counts
        bare = [i for i in remaining if not filled[i] and any(tag.slug == slug for tag in options[i])]
        others = sorted(
            (i for i in range(len(filled)) if filled[i] and i not in bare and len(filled[i]) < max_per_paper
             and any(tag.slug == slug for tag in original[i])),
            key=lambda i: keys[i],
        )
        members = (bare + others)[:cap]
        if not bare or len(members) < min_papers:
            continue
        for i in members:
            tag = next(tag for tag in options[i] + original[i] if tag.slug == slug)
            filled[i] = [tag] if not filled[i] else sorted([*filled[i], tag], key=lambda t: (-t.confidence, t.name))
        sizes[slug] = len(members)
