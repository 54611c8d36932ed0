"""Stamps: small JSON files in `.paper-digest/` that remember what the last successful run saw."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def files_digest(paths: Iterable[Path], root: Path | None = None, content: bool = False, extra: str = "") -> str:
    """Return a hash of files: each name (relative to `root` when inside it) with its size and
    modification time, or with its bytes when `content`; a missing file counts as absent.

    `extra` adds what else the result depends on (settings, versions).
    """
    digest = hashlib.blake2b(extra.encode("utf-8"), digest_size=16)
    # Plain strings and one system call per file: at 20,000 pages, Path objects cost a second a run.
    prefix = os.path.join(os.fspath(root), "") if root else ""
    for path in paths:
        text = os.fspath(path)
        name = text[len(prefix):] if prefix and text.startswith(prefix) else text
        digest.update(name.replace(os.sep, "/").encode("utf-8", "surrogateescape") + b"\0")
        try:
            if content:
                with open(text, "rb") as handle:
                    digest.update(hashlib.blake2b(handle.read(), digest_size=16).digest())
            else:
                stat = os.stat(text)
                digest.update(f"{stat.st_size}:{stat.st_mtime_ns}\0".encode())
        except FileNotFoundError:
            digest.update(b"absent\0")
    return digest.hexdigest()


def tree_files(folder: Path) -> list[Path]:
    """Return the files under `folder` (following no links to folders), in path order; [] if it is missing."""
    found: list[tuple[list[str], Path]] = []
    for top, _, names in os.walk(folder):
        base = Path(top)
        parts = base.relative_to(folder).parts
        found.extend(([*parts, name], base / name) for name in names)
    return [path for _, path in sorted(found, key=lambda item: item[0])]


def read_stamp(path: Path) -> dict:
    """Return the stamp at `path`, or {} when it is missing or unreadable (then nothing is reused)."""
    try:
        stamp = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def write_stamp(path: Path, stamp: dict) -> None:
    """Write a stamp; call it only once the work it vouches for has succeeded."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(stamp, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file beside it: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        # mkstemp makes the file private (0600): give it the mode any new file gets (a committed lock, a page).
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """Return the process's umask (reading it means setting it: it is put back at once)."""
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def remove_empty_parents(folder: Path, root: Path) -> None:
    """Remove `folder` and its parents up to (not including) `root` while they are empty."""
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
