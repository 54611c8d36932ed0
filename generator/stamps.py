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
    for path in paths:
        name = path.relative_to(root).as_posix() if root and path.is_relative_to(root) else str(path)
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        if not path.exists():
            digest.update(b"absent\0")
        elif content:
            digest.update(hashlib.blake2b(path.read_bytes(), digest_size=16).digest())
        else:
            stat = path.stat()
            digest.update(f"{stat.st_size}:{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


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
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
