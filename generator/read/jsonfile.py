"""The JSON reader: the shapes paper lists come in, and why a file is not read.

A JSON file holds its records as a list (`[{...}, ...]`), an object holding one
list (`{"notes": [...], "count": 3}`, OpenReview's API), an object of records
keyed by paper id (MiniConf's `papers.json`: `{"p1": {...}, "p2": {...}}`) or
one record alone. A file that does not parse is not read at all (BadFile): its
records are counted, so that leaving it out says what it loses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from ..errors import BadFile
from ..model import Problem
from .raw import ALIASES, RawRecord, has_abstract, lookup, lowered

#: The shapes tried, as the hint for a file where none holds an abstract names them.
SHAPES = (
    'a list of records ([{"abstract": ...}, ...])',
    'an object holding one list ({"papers": [...]})',
    'an object of records keyed by id ({"id1": {"abstract": ...}, ...})',
    "one record",
)
# A field the abstract is looked up by, written as an object key: counts the records of a broken file.
_ABSTRACT_KEY = re.compile(
    '"(?:' + "|".join(re.escape(alias.split(".")[-2] if alias.endswith(".value") else alias.split(".")[-1])
                      for alias in ALIASES["abstract"]) + r')"\s*:',
    re.IGNORECASE,
)


def json_reason(exc: ValueError, text: str) -> str:
    """Say why `text` is not JSON, and whether it was cut off (a truncated download or copy)."""
    if not isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc}"
    # "Unterminated string starting at": the column finishes the sentence (no "at at column").
    what = exc.msg.removesuffix(" at")
    said = f"not valid JSON: {what} at column {exc.colno}"
    if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
        said += "; the file ends in the middle of a record (cut off?)"
    return said


def abstracts_in(text: str) -> int:
    """Return how many records with an abstract a JSON text (whole or broken) holds: its abstract keys."""
    return len(_ABSTRACT_KEY.findall(text))


def read_json(text: str, name: str) -> Iterator[RawRecord | Problem]:
    """Yield the records of a JSON file in any of SHAPES; raise BadFile when it is not JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadFile(name, exc.lineno, json_reason(exc, text), abstracts_in(text)) from None
    except (ValueError, RecursionError) as exc:  # a number too long, objects nested too deeply
        raise BadFile(name, None, f"not valid JSON: {exc}", abstracts_in(text)) from None
    records, shape = find_records(data)
    if records is None:
        raise BadFile(name, 1, f"expected {' or '.join(SHAPES[:3])}, found {type(data).__name__}")
    found = False
    for index, value in enumerate(records, start=1):
        if not isinstance(value, dict):
            yield Problem("error", name, None, f"record {index}: expected an object, found {type(value).__name__}")
            continue
        found = found or has_abstract(value)
        yield RawRecord(value, index, 0)
    if records and not found:
        yield Problem("warning", name, None, no_abstract_hint(shape, records))


def find_records(data: Any) -> tuple[list[Any] | None, str]:
    """Return the records of parsed JSON and the shape they were found in (None: no shape fits)."""
    if isinstance(data, list):
        return data, SHAPES[0]
    if not isinstance(data, dict):
        return None, ""
    if has_abstract(data):
        return [data], SHAPES[3]
    lists = [v for v in data.values() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
    if len(lists) > 1:
        # Several lists of objects ({"papers": [...], "authors": [...]}): those whose records hold abstracts.
        lists = [v for v in lists if any(has_abstract(x) for x in v)] or lists[:1]
    if lists:
        return [record for found in lists for record in found], SHAPES[1]
    keyed = [(key, value) for key, value in data.items() if isinstance(value, dict)]
    if len(keyed) >= 2 and len(keyed) == len(data):
        # The key is the paper's id when the record names none of its own.
        return [value if lookup(lowered(value), "id") is not None else {"id": key, **value}
                for key, value in keyed], SHAPES[2]
    return [data], SHAPES[3]


def no_abstract_hint(shape: str, records: list[Any]) -> str:
    """Say where a file's abstracts were looked for, when no record has one."""
    first = next((r for r in records if isinstance(r, dict)), {})
    names = ", ".join(list(map(str, first))[:12]) or "none"
    return (f"no record holds an abstract: read as {shape} (tried {'; '.join(SHAPES)}); "
            f"the abstract is looked for in the fields {', '.join(ALIASES['abstract'])}; "
            f"the first record's fields are: {names}")
