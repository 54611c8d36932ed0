"""A cache of what each abstract gives on its own, keyed by a hash of the abstract and its given fields.

One file under `.paper-digest/`: a JSON header line (version, fingerprint of
the code, models and settings the values depend on, and a checksum of the
rest), then the entries as one JSON object. It is used only when everything
checks out, so a hand-edited or truncated file is never trusted. Anything
else is ignored, never an error: the values are computed again and the file
is rewritten.

The same class keeps each paper's nearest papers between runs
(`pipeline.NEIGHBOURS`, keyed by the paper's vector; see enrich/related.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .stamps import write_atomically

log = logging.getLogger(__name__)

#: Bump when the file's layout changes.
VERSION = 2


def entry_key(*parts: str | Iterable[str]) -> str:
    """Return the cache key of one paper's fields (strings, or lists of strings)."""
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        text = part if isinstance(part, str) else "\x1f".join(part)
        digest.update(text.encode("utf-8", "surrogatepass") + b"\x1e")
    return digest.hexdigest()


def _checksum(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class Cache:
    """Values by key, loaded from and saved to one file; valid only for one `fingerprint`."""

    def __init__(self, path: Path, fingerprint: str) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self.entries: dict[str, Any] = {}
        self.loaded = 0
        self.used: set[str] = set()
        self.reason = "no cache yet"
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        try:
            head, _, body = self.path.read_bytes().partition(b"\n")
            header = json.loads(head.decode("utf-8"))
            if not isinstance(header, dict) or header.get("version") != VERSION:
                self.reason = "another cache version"
            elif header.get("fingerprint") != self.fingerprint:
                self.reason = "the code, models or settings changed"
            elif header.get("checksum") != _checksum(body):
                self.reason = "damaged (checksum mismatch)"
            else:
                entries = json.loads(body.decode("utf-8"))
                if not isinstance(entries, dict):
                    raise ValueError("entries are not an object")
                self.entries = entries
                self.loaded = len(self.entries)
                self.reason = ""
        except (OSError, ValueError, RecursionError) as exc:  # JSON and UTF-8 errors are ValueErrors
            self.reason = f"unreadable ({exc.__class__.__name__})"
        if self.reason:
            log.info("ignoring %s: %s", self.path, self.reason)

    def get(self, key: str) -> Any | None:
        """Return the value stored under `key`, or None."""
        value = self.entries.get(key)
        if value is not None:
            self.used.add(key)
        return value

    def put(self, key: str, value: Any) -> None:
        self.entries[key] = value
        self.used.add(key)

    def discard(self) -> None:
        """Forget every entry (a value failed to decode: nothing in the file is trusted)."""
        log.info("ignoring %s: an entry does not decode", self.path)
        self.entries = {}
        self.used = set()
        self.loaded = 0

    def save(self) -> None:
        """Write the entries used in this run (others are dropped), atomically."""
        entries = {key: self.entries[key] for key in sorted(self.used) if key in self.entries}
        body = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
        header = {"version": VERSION, "fingerprint": self.fingerprint, "checksum": _checksum(body)}
        write_atomically(self.path, json.dumps(header).encode("utf-8") + b"\n" + body)
