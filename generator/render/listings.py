"""Long lists of papers split into numbered pages with stable addresses.

A tag or collection page lists at most `size` papers; the rest follow on
`<page>/page/2`, `<page>/page/3`, ... The first page keeps the list's own
address, so links to a tag never change when it grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Paper, page_count, page_path, page_url

__all__ = ["ListingPage", "page_path", "page_url", "paginate"]

#: Numbered links shown on each side of the current page; the rest collapse to an ellipsis.
_AROUND = 2


@dataclass(frozen=True)
class ListingPage:
    """One page of a list: its papers, where it lives and how to reach the others."""

    number: int
    count: int
    papers: tuple[Paper, ...]
    #: Index (from 1) of this page's first paper in the whole list, and the list's length.
    first: int
    total: int
    #: Docs-dir path of this page, and of every page by number (index 0 is page 1).
    path: str
    paths: tuple[str, ...]

    @property
    def root(self) -> str:
        """Return the relative prefix from this page to the docs dir (e.g. "../" for tags/x.md)."""
        return "../" * self.path.count("/")

    @property
    def site_root(self) -> str:
        """Return the relative prefix from this page's site address to the site root ("../../" for tags/x/).

        For the HTML of a listing, whose links MkDocs does not rewrite: tags/x.md is served at tags/x/.
        """
        return "../" * (self.path.count("/") + 1)

    @property
    def last(self) -> int:
        return self.first + len(self.papers) - 1

    @property
    def previous(self) -> str:
        return self.paths[self.number - 2] if self.number > 1 else ""

    @property
    def next(self) -> str:
        return self.paths[self.number] if self.number < self.count else ""

    @property
    def links(self) -> list[tuple[int, str]]:
        """Return (number, path) for the page links to show; (0, "") stands for a gap."""
        shown = sorted({1, self.count, *range(self.number - _AROUND, self.number + _AROUND + 1)})
        result: list[tuple[int, str]] = []
        for number in (n for n in shown if 1 <= n <= self.count):
            if result and number > result[-1][0] + 1:
                result.append((0, ""))
            result.append((number, self.paths[number - 1]))
        return result


def paginate(papers: Sequence[Paper], path: str, size: int) -> list[ListingPage]:
    """Split `papers` into pages of at most `size`, the first at `path`; an empty list gives one empty page."""
    count = page_count(len(papers), size)
    paths = tuple(page_path(path, n) for n in range(1, count + 1))
    return [
        ListingPage(n, count, tuple(papers[(n - 1) * size : n * size]), (n - 1) * size + 1, len(papers), paths[n - 1],
                    paths)
        for n in range(1, count + 1)
    ]
