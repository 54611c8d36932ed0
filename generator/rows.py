"""Digest-wide files made of one row per paper, and the reuse of the rows that did not change.

papers.json, papers.csv, papers.bib and the search records hold one row per
paper, in input order, between a head and a tail. One edited abstract changes
one row of each, so a rebuild takes every other row from the file the last
run wrote, through a `RowMemo` the output edge provides: a row is reused when
its paper's key (a hash of the whole `Paper` record, its collection's URL and
the code and templates) is the one it was written under.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .model import Collection, Paper


class RowMemo(Protocol):
    """Rows of the files the last run wrote, by docs-dir path and paper key."""

    #: A hash of the templates and code the files were rendered with: part of every key.
    fingerprint: str

    def rows(self, path: str) -> Mapping[str, bytes]:
        """Return the rows of the file at `path` by key, if it is as the last run wrote it (else none)."""

    def record_rows(self, path: str, keys: Sequence[str], spans: Sequence[tuple[int, int]]) -> None:
        """Note where each row of the file written at `path` now is (its byte range), by key."""


@dataclass(frozen=True)
class RowLayout:
    """How a file joins its rows: head, row, separator, row, ..., tail."""

    head: str = ""
    separator: str = ""
    tail: str = ""

    def joined_size(self, rows: Sequence[bytes]) -> int:
        """Return the bytes of the file `join_rows` makes of `rows`, without making it."""
        parts = (self.head, self.tail, *([self.separator] * max(len(rows) - 1, 0)))
        return sum(len(part.encode("utf-8")) for part in parts) + sum(len(row) for row in rows)


def paper_keys(papers: Sequence[Paper], collections: Mapping[str, Collection], fingerprint: str) -> list[str]:
    """Return each paper's row key: everything a row can show of it, and the code that renders it."""
    base = hashlib.blake2b(fingerprint.encode("utf-8"), digest_size=16)
    keys = []
    for paper in papers:
        digest = base.copy()
        # The whole record (a row shows a part of it) and the URL of its collection's page.
        digest.update(repr((paper, collections[paper.collection].url)).encode("utf-8", "surrogatepass"))
        keys.append(digest.hexdigest())
    return keys


def render_rows(
    path: str, papers: Sequence[Paper], row: Callable[[Paper], str], keys: Sequence[str] | None,
    memo: RowMemo | None,
) -> list[bytes]:
    """Return each paper's row of the file at `path` (UTF-8), taken from `memo` when its key is there."""
    if memo is None or keys is None:
        return [row(paper).encode("utf-8") for paper in papers]
    kept = memo.rows(path)
    out = []
    for paper, key in zip(papers, keys, strict=True):
        data = kept.get(key)
        out.append(row(paper).encode("utf-8") if data is None else data)
    return out


def join_rows(
    path: str, layout: RowLayout, rows: Sequence[bytes], keys: Sequence[str] | None, memo: RowMemo | None
) -> bytes:
    """Return the file's bytes, and tell `memo` where each row is in it."""
    head, separator = layout.head.encode("utf-8"), layout.separator.encode("utf-8")
    data = head + separator.join(rows) + layout.tail.encode("utf-8")
    if memo is not None and keys is not None:
        spans = []
        at = len(head)
        for row in rows:
            spans.append((at, at + len(row)))
            at += len(row) + len(separator)
        memo.record_rows(path, keys, spans)
    return data
