"""Tag and collection listing pages, each left as the last run wrote it when what it shows is unchanged.

A listing page shows its heading (the tag or collection, the list's size, the
tags often found with it, the trend chart), its place among the list's pages
and, for each of its papers, the entry `paper_item` of `_macros.md.j2` renders
(title, summary, link, tags). Its key is a hash of exactly those, of the page's
path and of the templates and code (the memo's fingerprint). One edited
abstract changes the key of the few pages listing that paper, so a rebuild
renders those and leaves the rest as they are, through the same `PageMemo` as the
paper pages; a page edited by hand or a damaged memo means it is rendered again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from jinja2 import Environment, Template, UndefinedError

from ..errors import DigestError
from ..model import Collection, Paper, Tag
from .all_papers import ORDERS, Order
from .listings import ListingPage
from .paper_pages import PageMemo, left_as_is

#: What of the digest-wide template values a listing page shows; the rest (the digest's
#: size, every collection) changes with any added paper and must not make every page render again.
LISTING_COMMON = ("exports", "paths", "search_engine", "topic_files")


@dataclass(frozen=True)
class ListingGroup:
    """What a tag page shows of its tag besides its papers: the tag, its sub-topics, the tags often with it."""

    tag: Tag
    related: tuple[tuple[Tag, int], ...]
    #: The topic's sub-topics shown in the digest, with their numbers of papers.
    children: tuple[tuple[Tag, int], ...] = ()
    #: The broader topic this one is a sub-topic of, when the digest shows it.
    parent: Tag | None = None


class ListingItems:
    """Each paper's entry in a listing (`paper_item` of `_macros.md.j2`), rendered once per link prefix.

    On a tag's page the entries leave out that tag's chip (`without`, its slug): every entry would
    show it (5 MB of a 20,000-paper site's topic pages, issue 43).
    """

    def __init__(self, env: Environment) -> None:
        self._macro = env.get_template("_macros.md.j2").module.paper_item  # type: ignore[attr-defined]
        self._done: dict[tuple[str, str, str], str] = {}

    def __call__(self, paper: Paper, prefix: str, without: str = "") -> str:
        key = (paper.id, prefix, without)
        if key not in self._done:
            self._done[key] = str(self._macro(paper, prefix, without))
        return self._done[key]


class ListingPages:
    """Render listing pages, or take them back from `memo` when their key is the same."""

    def __init__(self, env: Environment, common: dict, memo: PageMemo | None) -> None:
        self.items = ListingItems(env)
        self.common = {name: common[name] for name in LISTING_COMMON}
        self.memo = memo
        self._shown: dict[str, bytes] = {}

    def _entry(self, paper: Paper) -> bytes:
        """Return a hash of what a paper's listing entry shows (once per paper: it is listed several times)."""
        shown = self._shown.get(paper.id)
        if shown is None:
            tags = [(t.name, t.kind, t.url, t.confidence, t.evidence) for t in paper.tags]
            text = repr((paper.id, paper.url, paper.title, paper.summary, tags))
            shown = self._shown[paper.id] = hashlib.blake2b(
                text.encode("utf-8", "surrogatepass"), digest_size=16
            ).digest()
        return shown

    def _key(self, template: Template, listing: ListingPage, heading: object) -> str:
        assert self.memo is not None
        digest = hashlib.blake2b(self.memo.fingerprint.encode("utf-8"), digest_size=16)
        place = (listing.number, listing.count, listing.first, listing.total, listing.path, listing.paths)
        digest.update(repr((template.name, sorted(self.common.items()), heading, place)).encode("utf-8"))
        for paper in listing.papers:
            digest.update(self._entry(paper))
        return digest.hexdigest()

    def _page(self, template: Template, listing: ListingPage, heading: object, **context: object) -> bytes | None:
        if self.memo is not None and left_as_is(self.memo, listing.path, self._key(template, listing, heading)):
            return None
        # Only what the key covers reaches the template (StrictUndefined: anything else fails loudly).
        try:
            text = template.render(**self.common, listing=listing, listing_item=self.items, **context)
        except UndefinedError as exc:
            raise DigestError(
                f"{template.filename or template.name}: {exc}. A listing page gets only what it shows "
                f"(listing, {', '.join(sorted(context))}, {', '.join(LISTING_COMMON)}); the number of papers "
                "listed is listing.total (older templates used group.papers | length or papers | length)"
            ) from exc
        return text.encode("utf-8")

    def tag_page(self, template: Template, listing: ListingPage, group: ListingGroup, trend: str) -> bytes | None:
        """Return one page of a tag's listing (None: the one in the docs dir is still right)."""
        return self._page(template, listing, (group, trend), group=group, trend=trend)

    def all_page(
        self, template: Template, listing: ListingPage, order: Order, headings: tuple[str, ...],
        in_browser: bool = False,
    ) -> bytes | None:
        """Return one page of the All papers listing in `order` (None: the one in the docs dir is still right).

        `headings` holds the group heading shown before each paper of the page ('' for none);
        `in_browser`: the order's other pages are made in the browser (all.json), not written.
        """
        return self._page(template, listing, (order, ORDERS, headings, in_browser), order=order, orders=ORDERS,
                          headings=headings, in_browser=in_browser)

    def collection_page(self, template: Template, listing: ListingPage, collection: Collection) -> bytes | None:
        """Return one page of a collection's listing (None: the one in the docs dir is still right)."""
        return self._page(template, listing, collection, collection=collection)
