"""How a digest of several collections moves: each tag's share of papers per collection, and what grew or shrank.

Shares, not counts: collections differ in size (ICLR 2024 had 7,401
submissions, ICLR 2025 11,661), so a topic's count grows with its venue.
Collections are ordered by the year in their name, then by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..dates import year_in
from ..model import Paper, Tag

#: Rows of the grew and shrank lists.
CHANGES_SHOWN = 10
#: Most collections a digest's trends are drawn for: past it (a bibliography has a collection per
#: journal and year: 1,413 in a 2,132-paper export) a share chart per tag runs to 700 kB of SVG
#: each, no reader can follow it, and MkDocs took 17 minutes to render them.
MAX_TREND_COLLECTIONS = 40


def shows_trends(order: Sequence[str]) -> bool:
    """Return True when a digest with these collections shows trends: two or more, and few enough to read."""
    return 1 < len(order) <= MAX_TREND_COLLECTIONS


@dataclass(frozen=True)
class Share:
    """A tag's papers in one collection."""

    collection: str
    count: int
    total: int

    @property
    def percent(self) -> float:
        return 100.0 * self.count / self.total if self.total else 0.0


@dataclass(frozen=True)
class Change:
    """A tag's share in the first and the last collection."""

    tag: Tag
    before: Share
    after: Share

    @property
    def points(self) -> float:
        """Return the change of share, in percentage points (rounded: ties order by name, not float noise)."""
        return round(self.after.percent - self.before.percent, 6)


def collection_order(names: Iterable[str]) -> list[str]:
    """Return collection names oldest first: by the year in the name, then by name."""
    def key(name: str) -> tuple[int, str]:
        year = year_in(name)
        return (int(year) if year else 9999, name.casefold())

    return sorted(set(names), key=key)


def shares(members: Sequence[Paper], sizes: dict[str, int], order: Sequence[str]) -> list[Share]:
    """Return a tag's share of each collection, in `order`; `sizes` holds each collection's paper count."""
    counts = Counter(paper.collection for paper in members)
    return [Share(name, counts[name], sizes[name]) for name in order]


def changes(
    groups: Iterable[tuple[Tag, Sequence[Paper]]], sizes: dict[str, int], order: Sequence[str]
) -> tuple[list[Change], list[Change]]:
    """Return the tags whose share grew most and shrank most from the first collection to the last."""
    if len(order) < 2:
        return [], []
    first, last = order[0], order[-1]
    moved = []
    for tag, members in groups:
        counts = Counter(paper.collection for paper in members)
        moved.append(Change(tag, Share(first, counts[first], sizes[first]), Share(last, counts[last], sizes[last])))
    grew = sorted((c for c in moved if c.points > 0), key=lambda c: (-c.points, c.tag.name))[:CHANGES_SHOWN]
    shrank = sorted((c for c in moved if c.points < 0), key=lambda c: (c.points, c.tag.name))[:CHANGES_SHOWN]
    return grew, shrank


def given_areas(papers: Sequence[Paper], order: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Return each area label the sources gave, with its papers per collection (in `order`).

    Labels of different taxonomies meet by name (case and spacing ignored):
    an area that kept its name across years is one row, a renamed or new one
    is a row of its own, with no papers where its taxonomy was not used.
    """
    counts: dict[str, Counter[str]] = {}
    names: dict[str, str] = {}
    for paper in papers:
        if not paper.given_area:
            continue
        key = " ".join(paper.given_area.casefold().split())
        names.setdefault(key, paper.given_area.strip())
        counts.setdefault(key, Counter())[paper.collection] += 1
    rows = [(names[key], [counter[name] for name in order]) for key, counter in counts.items()]
    return sorted(rows, key=lambda row: (-sum(row[1]), row[0].casefold()))
