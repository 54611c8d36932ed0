"""The rendered files, kept in a temporary file on disk rather than in memory until they are written.

The generator renders every file of the docs dir before it writes any (so that
a page in the way of a hand-written file stops the run before anything is
written): at 100,000 papers that is about 2.5 GB of text, which would all be
in the process's memory at once, beside the papers. `SpooledFiles` is the
mapping the renderer fills instead: each file's bytes go to an unnamed
temporary file as they come, and are read back when they are written to the
docs dir. The mapping holds only where each file's bytes are.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, MutableMapping
from pathlib import Path


class SpooledFiles(MutableMapping[str, bytes]):
    """Files by path (relative to the docs dir), their bytes in a temporary file in `folder`.

    Setting a path again keeps the new bytes (the old ones stay unused in the file until it is closed).
    The file has no name and is gone when the mapping is closed or dropped.
    """

    def __init__(self, folder: Path | None = None) -> None:
        self._file = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 (open while the mapping lives)
        self._where: dict[str, tuple[int, int]] = {}
        self._end = 0

    def __setitem__(self, path: str, data: bytes) -> None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"{path}: a generated file's content must be bytes, not {type(data).__name__}")
        view = memoryview(data)
        done = 0
        while done < len(view):  # one call writes at most about 2 GB
            written = os.pwrite(self._file.fileno(), view[done:], self._end + done)
            if written <= 0:
                raise OSError(f"cannot keep the rendered {path} in a temporary file (disk full?)")
            done += written
        self._where[path] = (self._end, done)
        self._end += done

    def __getitem__(self, path: str) -> bytes:
        start, length = self._where[path]
        parts = []
        done = 0
        while done < length:  # one call reads at most about 2 GB
            part = os.pread(self._file.fileno(), length - done, start + done)
            if not part:
                raise OSError(f"the temporary file holding the rendered {path} was cut short")
            parts.append(part)
            done += len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def __delitem__(self, path: str) -> None:
        del self._where[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, path: object) -> bool:
        return path in self._where

    def close(self) -> None:
        """Remove the temporary file; the mapping is empty after this."""
        self._where = {}
        self._file.close()
