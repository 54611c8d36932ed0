"""A cache of what each abstract gives on its own, keyed by a hash of the abstract and its given fields.

A folder under `.paper-digest/` of 256 shard files (`00.json` ... `ff.json`, a
key's shard from a hash of the key). Each is a JSON header line (version,
fingerprint of the code, models and settings the values depend on, and a
checksum of the rest), then its entries as one JSON object. A shard is used
only when everything in it checks out, so a hand-edited or truncated file is
never trusted; anything else is ignored, never an error: its values are
computed again and it is rewritten. A run rewrites only the shards whose
entries changed: after one edited abstract, two of 256 (a few hundred kB,
where sixteen shards made each rewrite several MB of a 20,000-paper digest's).

The same class keeps each paper's nearest papers between runs
(`pipeline.NEIGHBOURS`, keyed by the paper's vector; see enrich/related.py).
`ArrayFile` keeps the last run's word counts as arrays (`pipeline.TERM_COUNTS`),
under the same rule: a file that does not check out is ignored.
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

#: Bump when the files' layout changes.
VERSION = 4
#: Shard files per cache.
SHARDS = 256


def entry_key(*parts: str | Iterable[str]) -> str:
    """Return the cache key of one paper's fields (strings, or lists of strings)."""
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        text = part if isinstance(part, str) else "\x1f".join(part)
        digest.update(text.encode("utf-8", "surrogatepass") + b"\x1e")
    return digest.hexdigest()


def _checksum(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def shard_of(key: str) -> int:
    """Return the shard a key is stored in."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=1).digest()[0] % SHARDS


def shard_path(folder: Path, shard: int) -> Path:
    """Return the file of one shard."""
    return folder / f"{shard:02x}.json"


class Cache:
    """Values by key, loaded from and saved to a folder of shards; valid only for one `fingerprint`."""

    def __init__(self, path: Path, fingerprint: str) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self.entries: dict[str, Any] = {}
        self.loaded = 0
        self.used: set[str] = set()
        self.reason = "no cache yet"
        #: Per shard, the keys read from its file (None: no valid file).
        self._on_disk: list[set[str] | None] = [None] * SHARDS
        self._changed: set[int] = set()
        #: Values put under keys the cache did not hold (what this run had to work out).
        self.added = 0
        self._load()

    def _load(self) -> None:
        if not self.path.is_dir():
            return
        problems = []
        for shard in range(SHARDS):
            problem = self._load_shard(shard)
            if problem:
                problems.append(f"{shard_path(self.path, shard).name}: {problem}")
        self.loaded = len(self.entries)
        self.reason = "; ".join(problems)
        if self.reason:
            log.info("ignoring part of %s: %s", self.path, self.reason)

    def _load_shard(self, shard: int) -> str:
        """Read one shard into `entries`; return why it was ignored, or ''."""
        path = shard_path(self.path, shard)
        if not path.exists():
            return ""
        try:
            head, _, body = path.read_bytes().partition(b"\n")
            header = json.loads(head.decode("utf-8"))
            if not isinstance(header, dict) or header.get("version") != VERSION:
                return "another cache version"
            if header.get("fingerprint") != self.fingerprint:
                return "the code, models or settings changed"
            if header.get("checksum") != _checksum(body):
                return "damaged (checksum mismatch)"
            entries = json.loads(body.decode("utf-8"))
            if not isinstance(entries, dict) or any(shard_of(key) != shard for key in entries):
                raise ValueError("entries are not an object of this shard")
        except (OSError, ValueError, RecursionError) as exc:  # JSON and UTF-8 errors are ValueErrors
            return f"unreadable ({exc.__class__.__name__})"
        self.entries.update(entries)
        self._on_disk[shard] = set(entries)
        return ""

    def get(self, key: str) -> Any | None:
        """Return the value stored under `key`, or None."""
        value = self.entries.get(key)
        if value is not None:
            self.used.add(key)
        return value

    def put(self, key: str, value: Any) -> None:
        if key not in self.entries:
            self.added += 1
        if self.entries.get(key) != value:
            self._changed.add(shard_of(key))
        self.entries[key] = value
        self.used.add(key)

    def discard(self) -> None:
        """Forget every entry (a value failed to decode: nothing in the files is trusted)."""
        log.info("ignoring %s: an entry does not decode", self.path)
        self.entries = {}
        self.used = set()
        self.loaded = 0
        self._on_disk = [None] * SHARDS
        self._changed = set(range(SHARDS))

    def save(self) -> None:
        """Write the entries used in this run (others are dropped), atomically, rewriting only changed shards."""
        kept: list[list[str]] = [[] for _ in range(SHARDS)]
        for key in self.used:
            if key in self.entries:
                kept[shard_of(key)].append(key)
        for shard, keys in enumerate(kept):
            path = shard_path(self.path, shard)
            if shard not in self._changed and self._on_disk[shard] == set(keys):
                continue  # the file holds exactly these entries already
            if not keys:
                path.unlink(missing_ok=True)
                continue
            entries = {key: self.entries[key] for key in sorted(keys)}
            body = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
            header = {"version": VERSION, "fingerprint": self.fingerprint, "checksum": _checksum(body)}
            write_atomically(path, json.dumps(header).encode("utf-8") + b"\n" + body)
        # Shard files of another layout (an older version's names) are never read again.
        names = {shard_path(self.path, shard).name for shard in range(SHARDS)}
        for stray in self.path.glob("*.json") if self.path.is_dir() else ():
            if stray.name not in names:
                stray.unlink(missing_ok=True)


class ArrayFile:
    """Named numpy arrays kept between runs in one .npz file; valid only for one `fingerprint`.

    The file holds the arrays, the cache version, the fingerprint and a
    checksum of the arrays' bytes: anything that does not check out (another
    version or fingerprint, a damaged or hand-edited file, an object array,
    which would need pickle) is ignored, never an error, and `arrays` is None.
    """

    def __init__(self, path: Path, fingerprint: str) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self.arrays: dict[str, Any] | None = None
        self._new: dict[str, Any] | None = None
        self.reason = "no file yet"
        if path.exists():
            self.reason = self._load()
            if self.reason:
                log.info("ignoring %s: %s", path, self.reason)

    def _load(self) -> str:
        import numpy as np  # (numpy is the enrich stage's; the cache module loads without it)

        try:
            with np.load(self.path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except Exception as exc:  # (zip, header and pickle refusals raise many kinds)
            return f"unreadable ({exc.__class__.__name__})"
        head = arrays.pop("_header", None)
        if head is None or head.dtype.kind != "U" or head.shape != (3,):
            return "unreadable (no header)"
        version, fingerprint, checksum = (str(part) for part in head)
        if version != str(VERSION):
            return "another cache version"
        if fingerprint != self.fingerprint:
            return "the code, models or settings changed"
        if checksum != _array_checksum(arrays):
            return "damaged (checksum mismatch)"
        self.arrays = arrays
        return ""

    def put(self, arrays: dict[str, Any]) -> None:
        """Keep `arrays` to be saved (they replace the file's)."""
        self._new = arrays

    def save(self) -> None:
        """Write the arrays put, atomically; nothing when none were put or they equal the file's."""
        import io

        import numpy as np

        new = self._new
        if new is None:
            return
        old = self.arrays
        if old is not None and old.keys() == new.keys() and all(np.array_equal(old[k], new[k]) for k in new):
            return
        header = np.array([str(VERSION), self.fingerprint, _array_checksum(new)])
        buffer = io.BytesIO()
        np.savez(buffer, _header=header, **new)
        write_atomically(self.path, buffer.getvalue())
        self.arrays = new


def _array_checksum(arrays: dict[str, Any]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for name in sorted(arrays):
        array = arrays[name]
        digest.update(f"{name}\x1f{array.dtype.str}\x1f{array.shape}\x1e".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()
