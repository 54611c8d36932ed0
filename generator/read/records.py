"""Readers for structured digests: JSON Lines, JSON, CSV/TSV, BibTeX and arXiv Atom.

Each reader yields `RawRecord`s (a field dict and where it came from) or
`Problem`s for records it cannot read; `to_paper` maps a record's fields to a
`Paper` through a table of case-insensitive aliases. Readers stream where the
format allows (JSON Lines, CSV) so a 20,000-record file is read once.
"""

from __future__ import annotations

import csv
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..dates import leading_date, year_in
from ..model import Paper, Problem, Source
from ..text import to_plain
from .metadata import area_name, citation_of, split_keywords

#: Field names accepted for each field, matched case-insensitively; dotted names reach into nested objects.
ALIASES: dict[str, tuple[str, ...]] = {
    "abstract": ("abstract", "summary", "content.abstract.value", "content.abstract", "abstract_text", "description"),
    "title": ("title", "content.title.value", "content.title", "paper_title", "name"),
    "authors": ("authors", "author", "content.authors.value", "content.authors", "creators"),
    "keywords": ("keywords", "tags", "content.keywords.value", "content.keywords", "keyword", "subjects"),
    "id": ("id", "uid", "forum", "paper_id", "key", "arxiv_id", "doi"),
    # biblatex: eventtitle ("CVPR 2021") before journaltitle and booktitle ("Proceedings of ...").
    "venue": ("venue", "content.venue.value", "content.venue", "conference", "eventtitle", "journaltitle", "journal",
              "booktitle", "collection"),
    "year": ("year", "content.year", "published", "date"),
    "date": ("date", "published", "content.date", "created", "pub_date"),
    "url": ("url", "pdf", "content.pdf.value", "link", "html_url", "pdf_url", "site"),
    # Not "track": a conference's track ("main", "Datasets and Benchmarks") is no research area.
    "area": ("primary_area", "content.primary_area.value", "area", "category", "primary_category",
             "primaryclass"),
    "tldr": ("tldr", "tl;dr", "tl_dr", "content.tldr.value", "content.tldr", "content.tl;dr.value", "content.tl;dr"),
}
_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"


class NoAbstract(ValueError):
    """A record without an abstract: counted in one line, listed only when asked (a bibliography has many)."""


@dataclass(frozen=True)
class RawRecord:
    """One record of a structured file: its fields and where it starts."""

    fields: dict[str, Any]
    index: int
    line: int


def iter_records(name: str, fmt: str, text: str | Iterable[str]) -> Iterator[RawRecord | Problem]:
    """Yield the records of one structured file, and a Problem for each one that is broken.

    `text` is the whole file, or for the streamed formats an iterable of its lines.
    """
    return READERS[fmt](text, name)


def _lines(text: str | Iterable[str]) -> Iterable[str]:
    return text.split("\n") if isinstance(text, str) else text


def _jsonl(text: str | Iterable[str], name: str) -> Iterator[RawRecord | Problem]:
    index = 0
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            continue
        index += 1
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            yield Problem("error", name, number, f"record {index}: not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(value, dict):
            found = type(value).__name__
            yield Problem("error", name, number, f"record {index}: expected a JSON object, found {found}")
            continue
        yield RawRecord(value, index, number)


def _json(text: str, name: str) -> Iterator[RawRecord | Problem]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        yield Problem("error", name, exc.lineno, f"not valid JSON: {exc.msg} at column {exc.colno}")
        return
    if isinstance(data, dict):
        # An object holding the list: {"papers": [...]} or {"notes": [...]}; or one record alone.
        lists = [v for v in data.values() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
        data = lists[0] if len(lists) == 1 else [data]
    if not isinstance(data, list):
        yield Problem("error", name, 1, "expected a list of records or an object holding one")
        return
    for index, value in enumerate(data, start=1):
        if not isinstance(value, dict):
            yield Problem("error", name, None, f"record {index}: expected an object, found {type(value).__name__}")
            continue
        yield RawRecord(value, index, 0)


def _csv(text: str | Iterable[str], name: str, delimiter: str = ",") -> Iterator[RawRecord | Problem]:
    reader = csv.DictReader(_lines(text), delimiter=delimiter, strict=True)
    index = 0
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield Problem("error", name, start, f"broken CSV quoting: {exc}; the rest of the file is skipped")
            return
        index += 1
        if None in row:
            extra = row.pop(None)
            yield Problem("error", name, start, f"record {index}: {len(extra)} more fields than the header has columns")
            continue
        if any(value is None for value in row.values()):
            yield Problem("error", name, start, f"record {index}: fewer fields than the header has columns")
            continue
        yield RawRecord(row, index, start)


def _tsv(text: str | Iterable[str], name: str) -> Iterator[RawRecord | Problem]:
    return _csv(text, name, delimiter="\t")


def _arxiv(text: str, name: str) -> Iterator[RawRecord | Problem]:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        yield Problem("error", name, exc.position[0], f"not valid XML: {exc}")
        return
    for index, entry in enumerate(root.iter(f"{_ATOM}entry"), start=1):
        fields: dict[str, Any] = {
            "id": (entry.findtext(f"{_ATOM}id") or "").strip(),
            "title": entry.findtext(f"{_ATOM}title") or "",
            "summary": entry.findtext(f"{_ATOM}summary") or "",
            "authors": [a.findtext(f"{_ATOM}name") or "" for a in entry.findall(f"{_ATOM}author")],
            "published": entry.findtext(f"{_ATOM}published") or "",
            "keywords": [c.get("term", "") for c in entry.findall(f"{_ATOM}category")],
        }
        primary = entry.find(f"{_ARXIV}primary_category")
        if primary is not None:
            fields["primary_category"] = primary.get("term", "")
        for link in entry.findall(f"{_ATOM}link"):
            if link.get("rel") == "alternate" or (link.get("title") == "pdf" and "url" not in fields):
                fields["url"] = link.get("href", "")
        yield RawRecord(fields, index, 0)


def _lowered(fields: dict[str, Any]) -> dict[str, Any]:
    return {str(k).lower(): v for k, v in fields.items()}


def _lookup(lowered: dict[str, Any], name: str) -> Any:
    """Return a field by its aliases from lowercased fields, reaching into nested objects."""
    for alias in ALIASES[name]:
        value: Any = lowered
        for part in alias.split("."):
            if isinstance(value, dict):
                value = (value if value is lowered else _lowered(value)).get(part)
            else:
                value = None
                break
        if value not in (None, "", []):
            return value
    return None


def _optional_text(fields: dict[str, Any], name: str) -> str:
    """Return a text field by its aliases, or '' when the record has none."""
    value = _lookup(fields, name)
    return "" if value is None else _text(value, name)


def _text(value: Any, field: str) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise TypeError(f"`{field}` should be text, found {type(value).__name__}")
    return " ".join(value.split())


def _names(value: Any, field: str, separators: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        parts = re.split(separators, value)
    elif isinstance(value, list):
        parts = [p.get("name", "") if isinstance(p, dict) else p for p in value]
        if not all(isinstance(p, str) for p in parts):
            raise TypeError(f"`{field}` should be a list of text")
    else:
        raise TypeError(f"`{field}` should be text or a list, found {type(value).__name__}")
    return tuple(dict.fromkeys(" ".join(p.split()) for p in parts if p and p.strip()))


def _keywords(value: Any) -> tuple[str, ...]:
    # A list cut at semicolons keeps its commas: "Computer Vision: Detection, Categorization, Retrieval" is one keyword.
    separators = r"[;|]" if isinstance(value, str) and re.search(r"[;|]", value) else r"[;,|]"
    return _names(value, "keywords", separators)


def _authors(value: Any) -> tuple[str, ...]:
    # BibTeX writes "Last, First and Last, First"; other sources "A, B" or "A; B".
    if isinstance(value, str) and re.search(r"\s+and\s+", value):
        names = _names(value, "authors", r"\s+and\s+")
    else:
        names = _names(value, "authors", r"[;|]" if isinstance(value, str) and re.search(r"[;|]", value) else r",")
    return tuple(" ".join(reversed([p.strip() for p in n.split(",", 1)])) if n.count(",") == 1 else n for n in names)


_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/\S+)$", re.IGNORECASE)


def _doi_url(doi: str) -> str:
    """Return the address of a DOI ("10.1016/x", "doi:10.1016/x" or its doi.org URL); "" for anything else."""
    match = _DOI.match(doi.strip())
    return f"https://doi.org/{match.group(1)}" if match else ""


def to_paper(record: RawRecord, name: str, collection: str, unit: str = "record") -> tuple[dict[str, Any], Source]:
    """Map a record's fields to Paper fields; raise ValueError or TypeError with the reason."""
    fields = _lowered(record.fields)
    abstract = _lookup(fields, "abstract")
    if abstract is None:
        raise NoAbstract("no abstract (looked for " + ", ".join(ALIASES["abstract"][:3]) + ")")
    abstract = _text(abstract, "abstract")
    if not re.search(r"\w", abstract):
        raise ValueError("the abstract has no words")
    year = year_in(_optional_text(fields, "year"))
    venue = _optional_text(fields, "venue")
    if venue and year and year not in venue:
        venue = f"{venue} {year}"
    title = _optional_text(fields, "title")
    keywords, subjects = split_keywords(_keywords(_lookup(fields, "keywords")))
    # A BibTeX name list is split by its reader (read/bibtex.py: bib_names), each person whole ("Google, Inc.").
    persons = fields.get("bibtex_author_names") or _authors(_lookup(fields, "authors"))
    values = {
        "abstract": abstract,
        # Titles and names may carry LaTeX ("{GRACE}", "G\\\"odel") or math: keep their plain text.
        "title": to_plain(title) if title else "",
        "authors": tuple(to_plain(a) for a in persons),
        "keywords": keywords,
        "subjects": subjects,
        "source_id": _optional_text(fields, "id"),
        # The file's collection: read/metadata.py makes it the venue's in a list of a few venues.
        "collection": collection,
        "venue": to_plain(venue),
        "citation": citation_of(fields),
        "year": year,
        "url": _optional_text(fields, "url") or _doi_url(str(fields.get("doi") or "")),
        "given_area": area_name(_optional_text(fields, "area")),
        "date": leading_date(_optional_text(fields, "date")),
        "tldr": _optional_text(fields, "tldr"),
    }
    return values, Source(name, record.index, record.line, unit)


def build_paper(values: dict[str, Any], source: Source, paper_id: str) -> Paper:
    """Return a Paper from mapped values (a given title is kept and marked `given`)."""
    return Paper(
        id=paper_id,
        abstract=values["abstract"],
        collection=values["collection"],
        source=source,
        title=values["title"],
        title_source="given" if values["title"] else "headline",
        authors=values["authors"],
        keywords=values["keywords"],
        given_area=values["given_area"],
        source_url=values["url"],
        year=values["year"],
        venue=values["venue"],
        subjects=values["subjects"],
        citation=values["citation"],
        date=values["date"],
        source_id=values["source_id"],
        tldr=values["tldr"],
    )


#: The reader of each structured format (generator/formats.py names them).
READERS: dict[str, Callable[[Any, str], Iterator[RawRecord | Problem]]] = {
    "jsonl": _jsonl, "json": _json, "csv": _csv, "tsv": _tsv, "arxiv": _arxiv,
}


def _bib(text: str, name: str) -> Iterator[RawRecord | Problem]:
    from .bibtex import read_bib

    return read_bib(text, name)


READERS["bib"] = _bib
