"""The lock file (`paper-digest.lock`): each paper's stable id and every address it has had.

Plain JSON, one paper a line, committed with the digest:

    {
    "lock": 1,
    "about": "...",
    "papers": [
    {"id": "3f9a0c1b2d4e", "added": 1, "fingerprint": "...", "sketch": "...", "urls": ["papers/x-3f9a0c/"]},
    ...
    ],
    "tags": [
    {"url": "tags/parsing/", "name": "Parsing", "pages": 2},
    ...
    ]}

`fingerprint` is a hash of the abstract's words (exact matches), `sketch` a
near-duplicate sketch (edited abstracts, see sketch.py), `source` the record's
own id with its collection, `added` the order in which papers were first seen,
`urls` every address the paper was published at (the last is the current one),
`moved` the id of the paper it became part of and `gone` a paper no longer in
the sources: both keep redirect pages at their old addresses.

`tags` lists every topic and area listing the site has published (`TagPage`:
its address, name, broader topic, and the most listing pages it had), kept
after it goes so that its addresses lead on (a lock written before it had
none: it starts with the next build).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace

from ..errors import DigestError
from ..model import TagPage

#: The lock file's name in the project folder (the `lock_file` setting can change it).
LOCK_FILE = "paper-digest.lock"
VERSION = 1
_ABOUT = (
    "Written by paper-digest: each paper's id and every address it has had, so that links survive edits. "
    "Commit it with the digest; do not edit it by hand."
)


@dataclass(frozen=True)
class Entry:
    """One paper the digest has had."""

    id: str
    #: The order in which papers were first seen: 1, 2, 3 ... (never reused).
    added: int
    fingerprint: str
    sketch: str
    #: "<collection>/<the record's own id>", when the source gives an id.
    source: str = ""
    urls: tuple[str, ...] = ()
    #: The id of the paper this one became part of (merged or joined), or "".
    moved: str = ""
    #: True when the paper is no longer in the sources.
    gone: bool = False

    def to_json(self) -> str:
        data = {k: v for k, v in asdict(self).items() if v not in ("", False, ())}
        data["urls"] = list(self.urls)
        return json.dumps(data, ensure_ascii=False, sort_keys=False)


@dataclass(frozen=True)
class Lock:
    """Every paper the digest has had, in the order they were first seen."""

    entries: tuple[Entry, ...] = ()
    #: Every topic and area listing published, by address.
    tags: tuple[TagPage, ...] = ()
    #: Whether this lock was read from a file (a digest without one adopts its published ids).
    exists: bool = False
    by_id: dict[str, Entry] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id.update({entry.id: entry for entry in self.entries})

    @property
    def next_added(self) -> int:
        return max((entry.added for entry in self.entries), default=0) + 1

    def with_entries(self, entries: list[Entry], tags: tuple[TagPage, ...] | None = None) -> Lock:
        kept = self.tags if tags is None else tuple(sorted(tags, key=lambda page: page.url))
        return Lock(tuple(sorted(entries, key=lambda e: e.added)), kept, exists=self.exists)


def _tag_json(page: TagPage) -> str:
    data: dict[str, str | int] = {"url": page.url, "name": page.name}
    if page.parent:
        data["parent"] = page.parent
    if page.pages != 1:
        data["pages"] = page.pages
    return json.dumps(data, ensure_ascii=False)


def dump_lock(lock: Lock) -> str:
    """Return the lock file's text: the same lock always gives the same bytes."""
    head = json.dumps({"lock": VERSION, "about": _ABOUT}, ensure_ascii=False)[:-1]
    papers = _json_list("papers", [entry.to_json() for entry in lock.entries])
    tags = f",\n{_json_list('tags', [_tag_json(page) for page in lock.tags])}" if lock.tags else ""
    return f"{head},\n{papers}{tags}}}\n"


def _json_list(key: str, lines: list[str]) -> str:
    """Return `"key": [...]` with one item a line (an empty list on one line)."""
    return f"\"{key}\": [\n" + ",\n".join(lines) + "\n]" if lines else f"\"{key}\": []"


def parse_lock(text: str, name: str) -> Lock:
    """Read a lock file's text; a broken one is an error naming the file and line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DigestError(f"{name}:{exc.lineno}: not a valid lock file ({exc.msg}); "
                          "restore it from version control, or delete it to start a new one") from exc
    if not isinstance(data, dict) or data.get("lock") != VERSION or not isinstance(data.get("papers"), list):
        raise DigestError(f"{name}: not a paper-digest lock file of version {VERSION}")
    entries = []
    for number, item in enumerate(data["papers"], start=4):
        try:
            entries.append(Entry(
                id=_string(item, "id"), added=int(item["added"]), fingerprint=_string(item, "fingerprint"),
                sketch=_string(item, "sketch"), source=str(item.get("source", "")),
                urls=tuple(str(u) for u in item.get("urls", [])), moved=str(item.get("moved", "")),
                gone=bool(item.get("gone", False)),
            ))
        except (KeyError, TypeError, ValueError) as exc:
            raise DigestError(f"{name}:{number}: a paper of the lock file lacks or mistypes {exc}") from exc
    ids = [entry.id for entry in entries]
    if len(set(ids)) != len(ids):
        raise DigestError(f"{name}: the same id is listed twice")
    tags = _parse_tags(data.get("tags", []), name, text)
    return Lock(tuple(sorted(entries, key=lambda e: e.added)), tags, exists=True)


def _parse_tags(items: object, name: str, text: str) -> tuple[TagPage, ...]:
    """Read the lock's `tags` list; a broken item is an error naming the file and its line."""
    if not isinstance(items, list):
        raise DigestError(f"{name}: `tags` is not a list")
    start = next((n for n, line in enumerate(text.splitlines(), start=1) if line.startswith('"tags"')), 0)
    pages = []
    for number, item in enumerate(items, start=start + 1):
        try:
            pages_count = item.get("pages", 1) if isinstance(item, dict) else 1
            if not isinstance(pages_count, int) or isinstance(pages_count, bool) or pages_count < 1:
                raise ValueError("pages")
            pages.append(TagPage(_string(item, "url"), _string(item, "name"), str(item.get("parent", "")), pages_count))
        except (KeyError, TypeError, ValueError) as exc:
            raise DigestError(f"{name}:{number}: a topic page of the lock file lacks or mistypes {exc}") from exc
    urls = [page.url for page in pages]
    if len(set(urls)) != len(urls):
        raise DigestError(f"{name}: the same topic page is listed twice")
    return tuple(sorted(pages, key=lambda page: page.url))


def _string(item: object, key: str) -> str:
    if not isinstance(item, dict) or not isinstance(item.get(key), str) or not item[key]:
        raise KeyError(key)
    return str(item[key])


def stale_reasons(before: Lock, after: Lock, limit: int = 5) -> list[str]:
    """Return what differs between the lock on disk and the one this run needs, one line each."""
    if not before.exists:
        return ["there is no lock file yet"]
    old = before.by_id
    reasons: list[str] = []
    for entry in after.entries:
        was = old.get(entry.id)
        if was is None:
            reasons.append(f"paper {entry.id} is new ({entry.urls[-1] if entry.urls else 'no address yet'})")
        elif was != replace(entry):
            what = [name for name in ("fingerprint", "urls", "moved", "gone", "source", "sketch")
                    if getattr(was, name) != getattr(entry, name)]
            reasons.append(f"paper {entry.id}: {', '.join(what)} changed")
    gone = [entry.id for entry in before.entries if entry.id not in after.by_id]
    reasons += [f"paper {paper_id} would be dropped from the lock" for paper_id in gone]
    known = {page.url: page for page in before.tags}
    for page in after.tags:
        if page.url not in known:
            reasons.append(f"topic page {page.url} ({page.name}) is new")
        elif known[page.url] != page:
            reasons.append(f"topic page {page.url} changed")
    if len(reasons) > limit:
        reasons = [*reasons[:limit], f"and {len(reasons) - limit} more"]
    return reasons
