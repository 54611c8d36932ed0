"""The arXiv reader: Atom feeds as the arXiv API returns them, and OAI-PMH harvests of arXiv.

Elements are matched by their local name, whatever namespace they are in or
where it is declared: a saved response may wrap its entries in an element of
its own and declare the Atom namespace on the first `<entry>` only. An OAI-PMH
harvest (`ListRecords`) gives `<record>`s in one of arXiv's metadata formats:
`arXiv`, `arXivRaw` or `oai_dc`. A file that is not XML is not read at all
(BadFile), with the entries it holds counted.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from typing import Any

from ..errors import BadFile
from ..model import Problem
from .raw import RawRecord

#: What the hint for a file without entries says was looked for.
LOOKED_FOR = "Atom <entry> elements (the arXiv API) or OAI-PMH <record>s in the arXiv, arXivRaw or oai_dc format"
_ENTRY_TAG = re.compile(r"<(?:[\w.-]+:)?(?:entry|record)[\s>]")


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: ET.Element, name: str) -> list[ET.Element]:
    return [child for child in element if _local(child.tag) == name]


def _text(element: ET.Element | None) -> str:
    return "".join(element.itertext()).strip() if element is not None else ""


def _first(element: ET.Element, name: str) -> str:
    found = _children(element, name)
    return _text(found[0]) if found else ""


def read_feed(text: str, name: str) -> Iterator[RawRecord | Problem]:
    """Yield the entries of an arXiv Atom feed or OAI-PMH harvest; raise BadFile when it is not XML."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise BadFile(name, line, f"not valid XML: {exc}",
                      len(_ENTRY_TAG.findall(text))) from None
    except (ValueError, RecursionError) as exc:
        raise BadFile(name, None, f"not valid XML: {exc}", len(_ENTRY_TAG.findall(text))) from None
    index = 0
    found = False
    for element in root.iter():
        kind = _local(element.tag)
        fields: dict[str, Any] | None
        if kind == "entry":
            fields = _atom(element)
        elif kind == "record" and _children(element, "header"):
            fields = _oai(element)
            if fields is None:  # a deleted record: a header and no metadata
                continue
        else:
            continue
        index += 1
        found = True
        yield RawRecord(fields, index, 0)
    if not found:
        yield Problem("warning", name, None, f"no entries: looked for {LOOKED_FOR}")


def _atom(entry: ET.Element) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "id": _first(entry, "id"),
        "title": _first(entry, "title"),
        "summary": _first(entry, "summary"),
        "authors": [_first(author, "name") for author in _children(entry, "author")],
        "published": _first(entry, "published"),
        "keywords": [c.get("term", "") for c in _children(entry, "category")],
    }
    primary = _children(entry, "primary_category")
    if primary:
        fields["primary_category"] = primary[0].get("term", "")
    for link in _children(entry, "link"):
        if link.get("rel") == "alternate" or (link.get("title") == "pdf" and "url" not in fields):
            fields["url"] = link.get("href", "")
    return fields


def _oai(record: ET.Element) -> dict[str, Any] | None:
    header = _children(record, "header")[0]
    found = _children(record, "metadata")
    if header.get("status") == "deleted" or not found or not len(found[0]):
        return None
    # The format's element (<arXiv>, <arXivRaw>, <oai_dc:dc>), or the fields themselves in a harvest saved
    # without it (<metadata><title>, <description>, ...).
    data = found[0][0] if len(found[0]) == 1 and len(found[0][0]) else found[0]
    kind = _local(data.tag)
    if not _children(data, "abstract"):
        return _dublin_core(data, header)
    arxiv_id = _first(data, "id")
    categories = _first(data, "categories").split()
    fields: dict[str, Any] = {
        "id": arxiv_id or _first(header, "identifier"),
        "title": _first(data, "title"),
        "abstract": _first(data, "abstract"),
        "keywords": categories,
        "url": f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else "",
        "doi": _first(data, "doi"),
    }
    if categories:
        fields["primary_category"] = categories[0]
    if kind == "arXivRaw":
        # Authors in one line ("A. One, B. Two and C. Three"); the first version's date, as e-mail writes it.
        fields["authors"] = re.split(r",\s*|\s+and\s+", " ".join(_first(data, "authors").split()))
        versions = _children(data, "version")
        fields["published"] = _email_date(_first(versions[0], "date")) if versions else ""
    else:
        fields["authors"] = [
            " ".join(part for part in (_first(a, "forenames"), _first(a, "keyname"), _first(a, "suffix")) if part)
            for found in _children(data, "authors") for a in _children(found, "author")
        ]
        fields["published"] = _first(data, "created") or _first(header, "datestamp")
    return fields


def _dublin_core(data: ET.Element, header: ET.Element) -> dict[str, Any]:
    # Descriptions hold the abstract and the submitter's comment ("Comment: 12 pages").
    descriptions = [_text(d) for d in _children(data, "description")]
    abstract = next((d for d in descriptions if not d.startswith("Comment:")), "")
    links = [_text(i) for i in _children(data, "identifier") if _text(i).startswith("http")]
    dates = [_text(d) for d in _children(data, "date")]
    return {
        "id": links[0] if links else _first(header, "identifier"),
        "title": _first(data, "title"),
        "abstract": abstract,
        # Creators as "Last, First", one an element: each is one person.
        "authors": [_text(c) for c in _children(data, "creator")],
        "keywords": [_text(s) for s in _children(data, "subject")],
        "published": dates[0] if dates else "",
        "url": links[0] if links else "",
    }


def _email_date(text: str) -> str:
    """Return an e-mail date ("Mon, 2 Apr 2007 19:18:42 GMT") as YYYY-MM-DD, or '' when it is not one."""
    try:
        return parsedate_to_datetime(text).date().isoformat() if text else ""
    except (TypeError, ValueError, IndexError, OverflowError):
        return ""
