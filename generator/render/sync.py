"""The render stage's file I/O: write changed files into the docs dir, delete what no longer belongs.

Every generated file is listed in a manifest inside the docs dir, so a later
run can delete what no longer belongs without touching hand-written files. A
file is rewritten only when its content changes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DigestError
from ..stamps import files_digest, remove_empty_parents, write_atomically

MANIFEST = ".paper-digest-manifest.json"
#: Bump when the page store's layout changes.
_PAGES_VERSION = 2

log = logging.getLogger(__name__)


@dataclass
class RenderResult:
    """What rendering did to the docs dir."""

    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0
    #: Paper and listing pages and feeds left as the last run wrote them instead of rendered (counted in `unchanged`).
    reused: int = 0

    @property
    def total(self) -> int:
        return len(self.written) + self.unchanged


def _sync_file(path: Path, data: bytes) -> bool:
    """Write `data` to `path` unless it already holds exactly that; return True when written."""
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.write_bytes(data)
    return True


def write_files(files: Mapping[str, bytes], docs_dir: Path, kept: Set[str] = frozenset()) -> RenderResult:
    """Write generated files that changed; delete generated files no longer produced.

    Files in `kept` are generated files the memo found intact in the docs dir
    (`PageStore`): they stay as they are, unread.
    """
    result = RenderResult()
    manifest_path = docs_dir / MANIFEST
    previous = _read_manifest(manifest_path)
    both = sorted(set(kept) & set(files))
    if both:
        # Two pages of one path (a tag slug that is another page's name): the file would depend on history.
        raise DigestError(f"{docs_dir / both[0]}: two generated files have this path; rename the tag or page")
    left = sorted(kept)
    for rel in sorted(files):
        path = docs_dir / rel
        if rel not in previous and path.exists():
            raise DigestError(
                f"{path}: a hand-written file is in the way of a generated page; move it or rename it"
            )
    ordered = sorted(files)
    for folder in sorted({(docs_dir / rel).parent for rel in ordered}):
        folder.mkdir(parents=True, exist_ok=True)
    for rel in ordered:
        if _sync_file(docs_dir / rel, files[rel]):
            result.written.append(rel)
        else:
            result.unchanged += 1
    result.unchanged += len(left)
    result.reused = len(left)
    generated = set(files).union(left)
    for rel in sorted(set(previous) - generated):
        path = docs_dir / rel
        if path.is_file():
            path.unlink()
            result.deleted.append(rel)
            remove_empty_parents(path.parent, docs_dir)
    manifest = json.dumps(sorted(generated), indent=0) + "\n"
    if not manifest_path.exists() or manifest_path.read_text(encoding="utf-8") != manifest:
        manifest_path.write_text(manifest, encoding="utf-8")
    return result


def generated_fingerprint(docs_dir: Path) -> str:
    """Return a hash of the generated files as they are on disk (names, sizes, times).

    It changes when a generated page is edited, deleted or rewritten by hand.
    """
    manifest = docs_dir / MANIFEST
    return files_digest([manifest, *(docs_dir / rel for rel in sorted(_read_manifest(manifest)))], root=docs_dir)


def _read_manifest(path: Path) -> set[str]:
    if not path.exists():
        return set()
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DigestError(f"{path}: the generator's manifest is damaged; delete it and build again") from exc
    # Only relative paths inside the docs dir: a tampered manifest cannot reach outside.
    return {e for e in entries if isinstance(e, str) and not e.startswith("/") and ".." not in e.split("/")}


class PageStore:
    """The pages and feeds the last run wrote: their keys, sizes and modification times (a `PageMemo`);
    and where each paper's row is in the files made of rows (rows.py: papers.json, papers.csv, ...).

    One JSON file under `.paper-digest/`. A page is left as it is (not rendered,
    not even read) only when its key (its inputs) is the same and the file in
    the docs dir is exactly as it was written (size and modification time): a
    page edited by hand, or a store that is missing, damaged or from other
    templates or code, means the page is rendered again, never trusted.
    """

    def __init__(self, path: Path, docs_dir: Path, fingerprint: str) -> None:
        self.path = path
        self.docs_dir = docs_dir
        self.fingerprint = fingerprint
        self.keys: dict[str, str] = {}
        #: The pages left as they are in the docs dir this run (`kept`, then `record`ed as reused).
        self.kept_now: set[str] = set()
        self._known: dict[str, list] = {}
        #: Per file made of rows: [size, modification time, keys, starts, ends] as the last run wrote it.
        self._rows_known: dict[str, list] = {}
        self._rows_now: dict[str, tuple[list[str], list[int], list[int]]] = {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") == _PAGES_VERSION and data.get("fingerprint") == fingerprint:
                self._known = {k: v for k, v in data["pages"].items() if isinstance(v, list) and len(v) == 3}
                self._rows_known = {k: v for k, v in data["rows"].items() if isinstance(v, list) and len(v) == 5}
        except (OSError, ValueError, AttributeError, KeyError, TypeError) as exc:
            if path.exists():
                log.info("ignoring %s (%s)", path, exc.__class__.__name__)

    def kept(self, path: str, key: str) -> bool:
        known = self._known.get(path)
        if known is None or known[0] != key:
            return False
        try:
            stat = (self.docs_dir / path).stat()
        except OSError:
            return False
        return [stat.st_size, stat.st_mtime_ns] == known[1:]

    def record(self, path: str, key: str, reused: bool) -> None:
        self.keys[path] = key
        if reused:
            self.kept_now.add(path)

    def rows(self, path: str) -> dict[str, bytes]:
        """Return the rows of the file at `path` by key, if the file is exactly as the last run wrote it."""
        known = self._rows_known.get(path)
        if known is None:
            return {}
        file = self.docs_dir / path
        try:
            size, mtime, keys, starts, ends = known
            stat = file.stat()
            if [stat.st_size, stat.st_mtime_ns] != [size, mtime] or not len(keys) == len(starts) == len(ends):
                return {}
            data = file.read_bytes()
            rows = {}
            for key, start, end in zip(keys, starts, ends, strict=True):
                if not (isinstance(key, str) and isinstance(start, int) and isinstance(end, int)
                        and 0 <= start <= end <= size):
                    return {}
                rows[key] = data[start:end]
        except (OSError, ValueError, TypeError) as exc:
            log.info("ignoring the rows of %s (%s)", path, exc.__class__.__name__)
            return {}
        return rows

    def record_rows(self, path: str, keys: Sequence[str], spans: Sequence[tuple[int, int]]) -> None:
        self._rows_now[path] = (list(keys), [start for start, _ in spans], [end for _, end in spans])

    def save(self) -> None:
        """Write the keys of the pages and rows now in the docs dir, with the files' sizes and times.

        Only when they changed.
        """
        pages = {}
        for rel, key in sorted(self.keys.items()):
            stat = (self.docs_dir / rel).stat()
            pages[rel] = [key, stat.st_size, stat.st_mtime_ns]
        rows = {}
        for rel, (keys, starts, ends) in sorted(self._rows_now.items()):
            stat = (self.docs_dir / rel).stat()
            rows[rel] = [stat.st_size, stat.st_mtime_ns, keys, starts, ends]
        if pages == self._known and rows == self._rows_known:
            return
        text = json.dumps(
            {"version": _PAGES_VERSION, "fingerprint": self.fingerprint, "pages": pages, "rows": rows}
        ) + "\n"
        write_atomically(self.path, text.encode("utf-8"))
