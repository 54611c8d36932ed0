"""A cache of what each abstract gives on its own, keyed by a hash of the abstract and its given fields.

One JSON file under `.paper-digest/`. It is used only when everything about
it checks out: the version, the fingerprint of the code, models and settings
the values depend on, and a checksum over the entries (so a hand-edited or
truncated file is never trusted). Anything else is ignored, never an error:
the values are computed again and the file is rewritten.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Bump when the file's layout changes.
VERSION = 1


def entry_key(*parts: str | Iterable[str]) -> str:
    """Return the cache key of one paper's fields (strings, or lists of strings)."""
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        text = part if isinstance(part, str) else "\x1f".join(part)
        digest.update(text.encode("utf-8", "surrogatepass") + b"\x1e")
    return digest.hexdigest()


def _checksum(entries: dict[str, Any]) -> str:
    canonical = json.dumps(entries, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(canonical.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


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
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("version") != VERSION:
                self.reason = "another cache version"
            elif data.get("fingerprint") != self.fingerprint:
                self.reason = "the code, models or settings changed"
            elif not isinstance(data.get("entries"), dict) or data.get("checksum") != _checksum(data["entries"]):
                self.reason = "damaged (checksum mismatch)"
            else:
                self.entries = data["entries"]
                self.loaded = len(self.entries)
                self.reason = ""
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
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
        payload = {"version": VERSION, "fingerprint": self.fingerprint, "checksum": _checksum(entries),
                   "entries": entries}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".cache-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(payload, out, ensure_ascii=False, separators=(",", ":"))
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
