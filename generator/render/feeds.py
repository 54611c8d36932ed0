"""Atom feeds: one for the whole digest, one per tag, newest papers first.

Written with the standard library's XML writer (ElementTree escapes every
text and attribute), never by joining strings, so abstract text stays text.
Dates come from the sources, never the clock, so two builds of the same input
give the same bytes: a record's own date, else a date in the source file's
name (a daily digest's `2026-11-30.txt`), else its year, else
SOURCE_DATE_EPOCH, else the collection's year.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import PurePosixPath

from ..dates import YEAR, date_in, year_in
from ..model import ET_AL, Paper

ATOM = "http://www.w3.org/2005/Atom"
#: Entries per feed: a feed follows what is new, it is not an archive.
FEED_ENTRIES = 100

# Characters XML 1.0 cannot hold at all, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

ET.register_namespace("", ATOM)


def fallback_date(source_date_epoch: str, collection: str) -> str:
    """Return the date for papers whose source gives none: SOURCE_DATE_EPOCH, else the collection's year."""
    if source_date_epoch.strip().isdigit():
        return datetime.fromtimestamp(int(source_date_epoch), UTC).strftime("%Y-%m-%d")
    year = year_in(collection)
    return f"{year}-01-01" if year else "1970-01-01"


def paper_date(paper: Paper, source_date_epoch: str = "") -> str:
    """Return the ISO date a paper's feed entry carries (see the module docstring for the order)."""
    own = date_in(paper.date) or date_in(PurePosixPath(paper.source.file).name)
    if own:
        return own
    if paper.year and YEAR.fullmatch(paper.year):
        return f"{paper.year}-01-01"
    return fallback_date(source_date_epoch, paper.collection)


def _text(value: str) -> str:
    return _NOT_XML.sub("", value)


_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _add(parent: ET.Element, tag: str, text: str = "", **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", {k: _text(v) for k, v in attributes.items()})
    if text:
        element.text = _text(text)
    return element


def newest_first(papers: Sequence[Paper], source_date_epoch: str = "") -> list[Paper]:
    """Return the papers newest first: the later date first (`paper_date`), and of one date the one
    the digest gained later (`Paper.added`, kept in the lock), then the later in the digest.

    The one definition of "newest" on the site: the feeds and the All papers
    page both take their order from it. A text digest's papers share one date,
    so the papers added by the last edit of the sources come first.
    """
    dates = [paper_date(paper, source_date_epoch) for paper in papers]
    return [
        papers[i] for i in sorted(range(len(papers)), key=lambda i: (dates[i], papers[i].added, i), reverse=True)
    ]


def newest(papers: Sequence[Paper], rank: dict[str, int], count: int = FEED_ENTRIES) -> list[Paper]:
    """Return the `count` newest of `papers`, newest first; `rank` is each paper's place in `newest_first`."""
    return sorted(papers, key=lambda p: rank[p.id])[:count]


def atom_feed(
    feed_id: str, title: str, path: str, page: str, papers: Sequence[Paper], dates: dict[str, str],
    site_url: str = "",
) -> bytes:
    """Return an Atom feed of `papers` (already chosen and ordered) to be written at docs-dir `path`.

    `page` is the site URL of the page the feed follows ("" for the home page).
    Links are absolute under `site_url` when it is set, else relative to the feed's own place.
    """
    base = site_url.rstrip("/") + "/" if site_url else "../" * path.count("/")
    feed = ET.Element(f"{{{ATOM}}}feed")
    _add(feed, "id", feed_id)
    _add(feed, "title", title)
    _add(feed, "updated", _timestamp(max((dates[p.id] for p in papers), default="1970-01-01")))
    _add(feed, "link", rel="self", type="application/atom+xml", href=base + path)
    _add(feed, "link", rel="alternate", type="text/html", href=(base + page) or "./")
    author = _add(feed, "author")
    _add(author, "name", "paper-digest")
    _add(feed, "generator", "paper-digest")
    for paper in papers:
        entry = _add(feed, "entry")
        if paper.lang != "en":
            # Its title and summary are in the abstract's language (the feed's own text is the site's).
            entry.set(_XML_LANG, paper.lang)
        _add(entry, "id", f"urn:paper-digest:paper:{paper.id}")
        _add(entry, "title", paper.title)
        _add(entry, "link", rel="alternate", type="text/html", href=base + paper.url)
        _add(entry, "updated", _timestamp(dates[paper.id]))
        _add(entry, "published", _timestamp(dates[paper.id]))
        for name in paper.authors:
            if name != ET_AL:  # "and others" names no person
                _add(_add(entry, "author"), "name", name)
        for tag in paper.tags:
            _add(entry, "category", term=tag.slug, label=tag.name)
        _add(entry, "summary", paper.summary or paper.title, type="text")
    ET.indent(feed, space=" ")
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"


def _timestamp(date: str) -> str:
    return f"{date}T00:00:00Z"
