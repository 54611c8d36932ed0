"""Readers for structured digests: JSON Lines, JSON, CSV/TSV, BibTeX and arXiv Atom.

Each reader yields `RawRecord`s (a field dict and where it came from) or
`Problem`s for records it cannot read, and raises `BadFile` for a file it
cannot read whole; `to_paper` maps a record's fields to a `Paper` through a
table of case-insensitive aliases (raw.py). Readers stream where the format
allows (JSON Lines, CSV) so a 20,000-record file is read once.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..dates import leading_date, year_in
from ..errors import BadFile
from ..model import Paper, Problem, Source
from ..text import to_plain
from .feeds import read_feed
from .jsonfile import json_reason, read_json
from .metadata import area_name, citation_of, split_keywords
from .raw import ALIASES, RawRecord, lookup
from .raw import lowered as _lowered

__all__ = ["ALIASES", "READERS", "NoAbstract", "RawRecord", "TooLong", "build_paper", "iter_records", "to_paper"]


class NoAbstract(ValueError):
    """A record without an abstract: counted in one line, listed only when asked (a bibliography has many)."""


class TooLong(ValueError):
    """An abstract longer than the `max_abstract_chars` setting: a runaway field, which stops the build."""


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
        except (ValueError, RecursionError) as exc:  # a number too long or objects nested too deeply as well
            reason = json_reason(exc, line) if isinstance(exc, ValueError) else f"not valid JSON: {exc}"
            yield Problem("error", name, number, f"record {index}: {reason}")
            continue
        if not isinstance(value, dict):
            found = type(value).__name__
            yield Problem("error", name, number, f"record {index}: expected a JSON object, found {found}")
            continue
        yield RawRecord(value, index, number)


class _Tape:
    """The lines a CSV reader takes, each kept from the start of the record being read: after a break,
    the records that follow it are counted from them."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.rest = iter(lines)
        self.kept: list[str] = []

    def __iter__(self) -> _Tape:
        return self

    def __next__(self) -> str:
        line = next(self.rest)
        self.kept.append(line)
        return line


def _csv(text: str | Iterable[str], name: str, delimiter: str = ",") -> Iterator[RawRecord | Problem]:
    tape = _Tape(_lines(text))
    reader = csv.DictReader(tape, delimiter=delimiter, strict=True)
    index = 0
    while True:
        start = reader.line_num + 1
        tape.kept.clear()
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            # csv's strict reader cannot find the next record: the file is not read whole.
            after = _rows([*tape.kept[1:], *tape.rest], delimiter)
            raise BadFile(name, start, _csv_reason(exc, index + 1), index + 1 + after) from None
        index += 1
        if None in row:
            extra = row.pop(None)
            yield Problem("error", name, start, f"record {index}: {len(extra)} more fields than the header has columns")
            continue
        if any(value is None for value in row.values()):
            yield Problem("error", name, start, f"record {index}: fewer fields than the header has columns")
            continue
        yield RawRecord(row, index, start)


def _csv_reason(exc: csv.Error, number: int) -> str:
    """Say why the CSV reader stopped at record `number`."""
    said = str(exc)
    if "field larger than field limit" in said:
        return f"record {number}: a field longer than {csv.field_size_limit():,} characters (a runaway field)"
    if "unexpected end of data" in said:
        said = "a quote opened in it is never closed (read to the end of the file)"
    return f"broken CSV quoting in record {number}: {said}"


def _rows(lines: list[str], delimiter: str) -> int:
    """Return how many records `lines` hold, read leniently (the lines after a break): a count of what is lost."""
    try:
        return sum(1 for row in csv.reader(lines, delimiter=delimiter) if any(row))
    except csv.Error:
        return sum(1 for line in lines if line.strip())


def _tsv(text: str | Iterable[str], name: str) -> Iterator[RawRecord | Problem]:
    return _csv(text, name, delimiter="\t")


def _optional_text(fields: dict[str, Any], name: str) -> str:
    """Return a text field by its aliases, or '' when the record has none."""
    value = lookup(fields, name)
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


def to_paper(
    record: RawRecord, name: str, collection: str, unit: str = "record", max_chars: int = 0,
) -> tuple[dict[str, Any], Source]:
    """Map a record's fields to Paper fields; raise ValueError or TypeError with the reason.

    An abstract longer than `max_chars` characters (when set) raises TooLong. (A record is one abstract:
    sentences are counted only where paragraphs may hold many, in text digests.)
    """
    fields = _lowered(record.fields)
    abstract = lookup(fields, "abstract")
    if abstract is None:
        raise NoAbstract("no abstract (looked for " + ", ".join(ALIASES["abstract"][:3]) + ")")
    abstract = _text(abstract, "abstract")
    if not re.search(r"\w", abstract):
        raise ValueError("the abstract has no words")
    if max_chars and len(abstract) > max_chars:
        raise TooLong(too_long(f"{len(abstract):,} characters long", "max_abstract_chars", max_chars))
    year = year_in(_optional_text(fields, "year"))
    venue = _optional_text(fields, "venue")
    if venue and year and year not in venue:
        venue = f"{venue} {year}"
    title = _optional_text(fields, "title")
    keywords, subjects = split_keywords(_keywords(lookup(fields, "keywords")))
    # A BibTeX name list is split by its reader (read/bibtex.py: bib_names), each person whole ("Google, Inc.").
    persons = fields.get("bibtex_author_names") or _authors(lookup(fields, "authors"))
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


def too_long(size: str, setting: str, limit: int) -> str:
    """Say that an abstract `size` long ("27,039 characters long") is over `setting` (its value `limit`)."""
    return (f"the abstract is {size}, more than {setting} ({limit:,}): a runaway field (a whole paper, or many "
            "abstracts in one); fix the record, raise the setting, or pass --skip-bad to leave it out")


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
    "jsonl": _jsonl, "json": read_json, "csv": _csv, "tsv": _tsv, "arxiv": read_feed,
}


def _bib(text: str, name: str) -> Iterator[RawRecord | Problem]:
    from .bibtex import read_bib

    return read_bib(text, name)


READERS["bib"] = _bib
