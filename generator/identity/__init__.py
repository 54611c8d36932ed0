"""Stable paper ids: a paper keeps its id, and so its address, through edits of its abstract.

The reader gives each paper a fingerprint (a hash of its abstract's words, in
`Paper.id`). `identify` turns it into the paper's stable id, by the lock file
(lock.py):

1. the record's own id (`source_id`, within its collection) names a paper of the lock;
2. else the fingerprint is one the lock knows;
3. else the abstract is a near-duplicate of exactly one paper of the lock no
   other paper took, and that paper's abstract of exactly this one (sketch.py:
   estimated similarity at least `THRESHOLD`): an edited abstract;
4. else the paper is new: its id comes from the record's own id when it has
   one, else from its fingerprint.

A digest without a lock adopts the ids its last run published (`adopt`, from
its papers.json), so upgrading keeps every address. `publish` records each
paper's address once the titles are known (and every topic and area page:
tag_addresses.py); `redirects` gives every address a paper had before, with
the address it has now, and `tag_redirects` every topic page's.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..cache import entry_key
from ..model import Paper, Problem, TagPage
from .lock import LOCK_FILE, Entry, Lock, dump_lock, parse_lock, stale_reasons
from .sketch import THRESHOLD, bands, similarity, sketches
from .tag_addresses import record_tags, tag_redirects

__all__ = [
    "LOCK_FILE", "Entry", "Identified", "Lock", "adopt", "dump_lock", "identify", "parse_lock", "publish",
    "redirects", "stale_reasons", "tag_redirects",
]


class _Memo(Protocol):
    """Where sketches of earlier runs are kept (the analysis cache)."""

    def get(self, key: str) -> Any | None: ...

    def put(self, key: str, value: Any) -> None: ...


@dataclass
class Identified:
    """Papers with their stable ids, the lock as they leave it, and what the user is told."""

    papers: list[Paper]
    lock: Lock
    problems: list[Problem] = field(default_factory=list)
    #: Ids of papers joined into another one by a correction: joined id -> id of the paper it joined.
    moved: dict[str, str] = field(default_factory=dict)


def source_key(paper: Paper) -> str:
    """Return the key of a record's own id: "<collection>/<id>" ("" without one)."""
    return f"{paper.collection}/{paper.source_id}" if paper.source_id else ""


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=6).hexdigest()


def _sketches(papers: list[Paper], memo: _Memo | None) -> list[str]:
    """Return each paper's sketch, from `memo` when an earlier run made it."""
    found: list[str | None] = []
    for paper in papers:
        kept = memo.get(entry_key("sketch", paper.abstract)) if memo is not None else None
        found.append(kept if isinstance(kept, str) and len(kept) == 128 else None)
    missing = [i for i, value in enumerate(found) if value is None]
    for i, value in zip(missing, sketches([papers[i].abstract for i in missing]), strict=True):
        found[i] = value
        if memo is not None:
            memo.put(entry_key("sketch", papers[i].abstract), value)
    return [value or "" for value in found]


def _near_matches(wanted: dict[int, str], free: list[Entry]) -> dict[int, tuple[Entry, float]]:
    """Return, for papers (index: sketch), the one free entry each is an edit of, when the match is unique.

    Unique both ways: the paper is like no other free entry, and the entry is like no other paper
    (at the threshold). Candidates are found by shared bands, then scored.
    """
    index: dict[str, list[int]] = defaultdict(list)
    for position, entry in enumerate(free):
        for band in bands(entry.sketch):
            index[band].append(position)
    above: dict[int, list[tuple[int, float]]] = {}
    claimants: dict[int, list[int]] = defaultdict(list)
    for paper, value in wanted.items():
        candidates = sorted({position for band in bands(value) for position in index.get(band, ())})
        scored = [(p, similarity(value, free[p].sketch)) for p in candidates]
        above[paper] = [(p, s) for p, s in scored if s >= THRESHOLD]
        for p, _ in above[paper]:
            claimants[p].append(paper)
    return {
        paper: (free[found[0][0]], found[0][1])
        for paper, found in above.items()
        if len(found) == 1 and claimants[found[0][0]] == [paper]
    }


def identify(papers: list[Paper], lock: Lock, memo: _Memo | None = None) -> Identified:
    """Give each paper its stable id and `added` number; return them with the lock updated for them.

    `papers` carry their fingerprint in `id` (as the reader makes them). Entries of the lock no paper
    took stay as they were (`publish` marks them moved or gone).
    """
    by_source = {entry.source: entry for entry in lock.entries if entry.source}
    by_fingerprint: dict[str, list[Entry]] = defaultdict(list)
    for each in lock.entries:
        by_fingerprint[each.fingerprint].append(each)
    taken: dict[str, int] = {}
    chosen: list[Entry | None] = [None] * len(papers)
    for i, paper in enumerate(papers):
        found = by_source.get(source_key(paper)) if paper.source_id else None
        if found is None or found.id in taken:
            found = next((e for e in by_fingerprint.get(paper.id, ()) if e.id not in taken), None)
        if found is not None:
            taken[found.id] = i
            chosen[i] = found
    # New and edited texts need a sketch (an unchanged one keeps the lock's).
    need = [i for i, entry in enumerate(chosen) if entry is None or entry.fingerprint != papers[i].id]
    made = dict(zip(need, _sketches([papers[i] for i in need], memo), strict=True))
    problems: list[Problem] = []
    free = [entry for entry in lock.entries if entry.id not in taken]
    rest = {i: made[i] for i, entry in enumerate(chosen) if entry is None}
    for i, (like, score) in sorted(_near_matches(rest, free).items()):
        taken[like.id] = i
        chosen[i] = like
        problems.append(Problem(
            "info", papers[i].source.file, papers[i].source.line or None,
            f"{papers[i].source.unit} {papers[i].source.paragraph}: an edited abstract of paper {like.id} "
            f"(similarity {score:.2f}); it keeps its id and address", kind="edited",
        ))
    known = set(lock.by_id)
    added = lock.next_added
    result: list[Paper] = []
    entries = {each.id: each for each in lock.entries}
    for i, paper in enumerate(papers):
        key = source_key(paper)
        entry = chosen[i]
        if entry is None:
            new_id = _new_id(paper, key, known)
            known.add(new_id)
            entry = Entry(new_id, added, paper.id, made[i], key)
            added += 1
        else:
            entry = replace(entry, fingerprint=paper.id, sketch=made.get(i, entry.sketch),
                            source=key or entry.source, moved="", gone=False)
        entries[entry.id] = entry
        result.append(replace(paper, id=entry.id, added=entry.added))
    return Identified(result, lock.with_entries(list(entries.values())), problems)


def _new_id(paper: Paper, key: str, known: set[str]) -> str:
    """Return a new paper's id: from its record's own id, else its fingerprint; never one already used."""
    candidate = _hash(f"source\0{key}") if key else paper.id
    salt = 0
    while candidate in known:
        salt += 1
        candidate = _hash(f"{paper.id}\0{salt}")
    return candidate


def publish(
    lock: Lock, papers: list[Paper], moved: dict[str, str] | None = None, within: dict[str, str] | None = None,
    tags: Iterable[TagPage] = (),
) -> Lock:
    """Return the lock with each paper's address recorded, and the papers it no longer has marked.

    `tags` (the topic and area pages this build publishes) join the lock's (`record_tags`).

    An entry no paper took is `moved` into the paper it became part of (`moved`: the corrections'
    joins; the paper one of whose paragraphs has its fingerprint, `within`: fingerprint -> id; or the
    current paper its abstract is a near-duplicate of), else `gone`; one never published is dropped.
    """
    moved = dict(moved or {})
    current = {paper.id: paper for paper in papers}
    entries: list[Entry] = []
    orphans = [entry for entry in lock.entries if entry.id not in current]
    for entry in orphans:
        if within and entry.fingerprint in within and entry.id not in moved:
            moved[entry.id] = within[entry.fingerprint]
    if orphans:
        live = [lock.by_id[paper.id] for paper in papers if paper.id in lock.by_id]
        wanted = {i: entry.sketch for i, entry in enumerate(orphans) if entry.id not in moved}
        for i, (entry, _) in _near_matches(wanted, live).items():
            moved[orphans[i].id] = entry.id
    for entry in lock.entries:
        paper = current.get(entry.id)
        if paper is not None:
            urls = (*(u for u in entry.urls if u != paper.url), paper.url)
            entries.append(replace(entry, urls=urls, moved="", gone=False))
        elif entry.id in moved and moved[entry.id] != entry.id:
            entries.append(replace(entry, moved=moved[entry.id], gone=False))
        elif entry.urls:
            entries.append(replace(entry, moved="", gone=True))
    return lock.with_entries(entries, record_tags(lock.tags, tags))


def redirects(lock: Lock, papers: Iterable[Paper]) -> dict[str, str]:
    """Return every address a paper had before, with the one to send readers to ("" for the home page).

    A moved paper leads to the paper it became part of (through any chain of moves); a gone one
    to the home page.
    """
    current = {paper.id: paper.url for paper in papers}
    live = set(current.values())
    result: dict[str, str] = {}
    for entry in lock.entries:
        target, seen = entry, {entry.id}
        while target.id not in current and target.moved and target.moved in lock.by_id and target.moved not in seen:
            seen.add(target.moved)
            target = lock.by_id[target.moved]
        url = current.get(target.id, "")
        for old in entry.urls:
            if old != url and old not in live:
                result.setdefault(old, url)
    return dict(sorted(result.items()))


def adopt(rows: Iterable[dict], fingerprint: Callable[[str], str]) -> Lock:
    """Return the lock a digest without one had in effect: the papers its last run published (papers.json rows).

    `fingerprint(abstract)` gives an abstract's fingerprint (read.paper_id).
    """
    kept = [row for row in rows if isinstance(row, dict) and isinstance(row.get("id"), str)
            and isinstance(row.get("abstract"), str) and isinstance(row.get("url"), str)]
    made = sketches([row["abstract"] for row in kept])
    entries: list[Entry] = []
    seen: set[str] = set()
    for row, value in zip(kept, made, strict=True):
        if row["id"] in seen:
            continue
        seen.add(row["id"])
        key = f"{row.get('collection', '')}/{row['source_id']}" if row.get("source_id") else ""
        entries.append(Entry(row["id"], len(entries) + 1, fingerprint(row["abstract"]), value, key, (row["url"],)))
    return Lock(tuple(entries), exists=False)


def read_rows(text: str) -> list[dict]:
    """Return the rows of a papers.json text ([] when it is not one)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return []
    rows = data.get("papers") if isinstance(data, dict) else data
    return rows if isinstance(rows, list) else []
