"""The All papers listing: every paper of the digest on numbered pages, in four orders.

Newest first (the default page, `feeds.newest_first`: in a digest that grows,
what was added last comes first), by title, by collection and by first area.
Each order is a list of pages like a tag's (`listings.paginate`, the same
listing size and HTML entries), at its own address, and every page links to
the other orders. In the grouped orders a heading marks where a collection or
an area begins.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import PATHS, Paper
from .groups import TagGroup
from .listings import ListingPage
from .trends import collection_order


@dataclass(frozen=True)
class Order:
    """One order of the All papers listing: its name, where its first page lives and what it says of itself."""

    slug: str
    label: str
    path: str
    note: str


ORDERS = (
    Order("newest", "Newest first", PATHS.all_papers,
          "Papers with a later date come first (the record's own date, else its file's, else its year); "
          "of one date, those later in the digest."),
    Order("title", "By title", "all/title.md", "Papers in the alphabetical order of their titles."),
    Order("collection", "By collection", "all/collection.md",
          "Collections oldest first (by the year in their name), newest papers first within each."),
    Order("area", "By first area", "all/area.md",
          "Research areas largest first, each paper under its first (most likely) area, by title within each."),
)


@dataclass(frozen=True)
class OrderedPapers:
    """The digest's papers in one order, with the group of each ('' for each in an order without groups)."""

    order: Order
    papers: tuple[Paper, ...]
    groups: tuple[str, ...]

    def headings(self, first: int, count: int) -> tuple[str, ...]:
        """Return the heading shown before each of the `count` papers from index `first`: where a group starts.

        A page that opens inside a group repeats its name, marked as continued.
        """
        shown = []
        for i in range(first, first + count):
            name = self.groups[i]
            if not name or (i > first and name == self.groups[i - 1]):
                shown.append("")
            elif i == first and i > 0 and name == self.groups[i - 1]:
                shown.append(f"{name} (continued)")
            else:
                shown.append(name)
        return tuple(shown)


def all_orders(papers: Sequence[Paper], newest: Sequence[Paper], areas: Sequence[TagGroup]) -> list[OrderedPapers]:
    """Return the digest's papers in each order of ORDERS; `newest` is them newest first (`feeds.newest_first`)."""
    rank = {paper.id: index for index, paper in enumerate(newest)}
    by_title = sorted(papers, key=_title_key)
    collections = {name: index for index, name in enumerate(collection_order(p.collection for p in papers))}
    by_collection = sorted(papers, key=lambda p: (collections[p.collection], rank[p.id]))
    area_rank = {group.tag.slug: index for index, group in enumerate(areas)}

    def first_area(paper: Paper) -> tuple[int, str]:
        area = next((t for t in paper.tags if t.kind == "area" and t.slug in area_rank), None)
        return (area_rank[area.slug], area.name) if area else (len(area_rank), "No research area")

    by_area = sorted(papers, key=lambda p: (first_area(p)[0], *_title_key(p)))
    lists = {
        "newest": (list(newest), None),
        "title": (by_title, None),
        "collection": (by_collection, lambda p: p.collection),
        "area": (by_area, lambda p: first_area(p)[1]),
    }
    result = []
    for order in ORDERS:
        ordered, group = lists[order.slug]
        names = tuple(group(p) for p in ordered) if group is not None else ("",) * len(ordered)
        result.append(OrderedPapers(order, tuple(ordered), names))
    return result


#: The data the browser pages the other orders from: for each order but the first, its papers as
#: positions in filter.json's list (the digest's order) and where each group starts; each paper's summary.
ORDERS_FILE = "all.json"


def orders_json(ordered: Sequence[OrderedPapers], papers: Sequence[Paper], size: int) -> str:
    """Return all.json: the orders after the first, as positions into the digest's papers, and the summaries.

    Only the first page of those orders is written as a page (readable without JavaScript); their
    other pages are made by assets/all-orders.js from this file and filter.json (issue 43: each order
    repeated every listing entry, 60 MB at 20,000 papers).
    """
    position = {paper.id: index for index, paper in enumerate(papers)}
    orders = {}
    for order in ordered[1:]:
        starts = [[i, name] for i, name in enumerate(order.groups) if name and (i == 0 or name != order.groups[i - 1])]
        orders[order.order.slug] = {"papers": [position[p.id] for p in order.papers], "groups": starts}
    data = {"size": size, "orders": orders, "summaries": [paper.summary for paper in papers]}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def _title_key(paper: Paper) -> tuple[str, str]:
    return (paper.title.casefold(), paper.id)


def paged_in_browser(listed: Sequence[ListingPage]) -> dict[str, str]:
    """Return where each page after the first of an order paged in the browser moved: old address to new.

    Such an order was written as pages ("all/title/page/2/") before its later pages were made in the
    browser ("all/title/?page=2"); the old addresses keep working as redirects.
    """
    first = listed[0].path.removesuffix(".md") + "/"
    return {f"{page.path.removesuffix('.md')}/": f"{first}?page={page.number}" for page in listed[1:]}
