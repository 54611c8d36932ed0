"""A record as a structured reader finds it, and the field names each Paper field is looked up by.

The readers (records.py, jsonfile.py, feeds.py, bibtex.py) yield `RawRecord`s;
`lookup` finds a field by its aliases, case-insensitively, reaching into nested
objects (OpenReview's `content.abstract.value`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class RawRecord:
    """One record of a structured file: its fields and where it starts."""

    fields: dict[str, Any]
    index: int
    line: int


def lowered(fields: dict[str, Any]) -> dict[str, Any]:
    """Return `fields` with their names in lower case."""
    return {str(k).lower(): v for k, v in fields.items()}


def lookup(fields: dict[str, Any], name: str) -> Any:
    """Return a field by its aliases from lowercased fields, reaching into nested objects (None: not there)."""
    for alias in ALIASES[name]:
        value: Any = fields
        for part in alias.split("."):
            if isinstance(value, dict):
                value = (value if value is fields else lowered(value)).get(part)
            else:
                value = None
                break
        if value not in (None, "", []):
            return value
    return None


def has_abstract(fields: dict[str, Any]) -> bool:
    """Return True when a record holds a field the abstract is looked up by."""
    return lookup(lowered(fields), "abstract") is not None
