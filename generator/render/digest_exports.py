"""The whole digest's exports, papers.json, papers.csv and papers.bib: written as they are, or gzipped once large.

In a digest larger than `topic_files_max_papers`, an export of `gzip_exports_min_mb` (100 MB) or
more is written gzipped only (`papers.json.gz`): GitHub refuses a file over 100 MiB in a repository,
Cloudflare Pages one over 25 MiB, no browser or spreadsheet opens a 270 MB file usefully, and at
100,000 papers the three files as they are would take 0.6 GB of a 1 GB host, the gzipped ones
0.13 GB. Smaller files are written as they are and nothing else: hosts send text files compressed
anyway. The site's links name the file written (`DigestExports.links`), and `read_export` reads
either form back (the lock's adoption, `paper-digest diff`).
"""

from __future__ import annotations

import gzip
import hashlib
import struct
import zlib
from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path

from ..model import PATHS, Collection, Paper
from ..rows import RowLayout, join_rows, render_rows
from ..settings import Settings
from .exports import PAPERS_BIB, PAPERS_CSV, csv_row
from .paper_pages import PageMemo, left_as_is
from .payloads import PAPERS_JSON, papers_json_row

#: What the gzipped form of an export is called.
GZIP_SUFFIX = ".gz"


def render_exports(
    papers: Sequence[Paper], collections: dict[str, Collection], bib_rows: Sequence[bytes],
    keys: Sequence[str] | None, memo: PageMemo | None, topic_files: bool, settings: Settings,
    files: MutableMapping[str, bytes],
) -> dict[str, str]:
    """Render the three exports into `files`, each as it is or gzipped only (the module's docstring says when).

    Return, by kind ("json", "csv", "bib"), the path each link names: "papers.json" or
    "papers.json.gz". `bib_rows`: papers.bib's entries, rendered already (the paper pages quote
    them). Each file goes into `files` (the spooled files: on disk) before the next is made, so that
    only one is in memory; a file `memo` keeps as it is is left out.
    """
    links = {}
    kinds: list[tuple[str, str, RowLayout, Callable[[], list[bytes]]]] = [
        ("json", PATHS.papers_json, PAPERS_JSON,
         lambda: render_rows(PATHS.papers_json, papers, lambda p: papers_json_row(p, collections), keys, memo)),
        ("csv", PATHS.papers_csv, PAPERS_CSV, lambda: render_rows(PATHS.papers_csv, papers, csv_row, keys, memo)),
        ("bib", PATHS.papers_bib, PAPERS_BIB, lambda: list(bib_rows)),
    ]
    for kind, path, layout, make in kinds:
        rows = make()
        if not gzip_only(layout.joined_size(rows), topic_files, settings):
            files[path] = join_rows(path, layout, rows, keys, memo)
            links[kind] = path
            continue
        # Its rows are not noted for the next run: they are rendered again rather than unpacked.
        data = join_rows(path, layout, rows, None, None)
        del rows
        packed = gzipped(path + GZIP_SUFFIX, data, memo)
        if packed is not None:
            files[path + GZIP_SUFFIX] = packed
        links[kind] = path + GZIP_SUFFIX
    return links


def gzip_only(size: int, topic_files: bool, settings: Settings) -> bool:
    """Whether an export of `size` bytes is written gzipped only: from the setting, in a digest without topic files."""
    return not topic_files and size >= settings.gzip_exports_min_mb * 1_000_000


def gzipped(path: str, data: bytes, memo: PageMemo | None) -> bytes | None:
    """Return `data` gzipped the same way on every machine, or None when `memo` keeps the file at `path`."""
    if memo is not None:
        digest = hashlib.blake2b(memo.fingerprint.encode("utf-8"), digest_size=16)
        digest.update(data)
        if left_as_is(memo, path, digest.hexdigest()):
            return None
    return gzip_bytes(data)


#: A gzip member's header with no time, no file name and "unknown" as the OS (zlib's own header names the
#: OS it was built for: the same file would differ between Linux and Windows).
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def gzip_bytes(data: bytes) -> bytes:
    """Return `data` as a gzip file, byte for byte the same wherever it is made with the same zlib."""
    deflate = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    body = deflate.compress(data) + deflate.flush()
    return _GZIP_HEADER + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


def written_export(folder: Path, name: str) -> Path | None:
    """Return the export `name` ("papers.json") in `folder` as written: as it is, else gzipped; None if neither."""
    for path in (folder / name, folder / (name + GZIP_SUFFIX)):
        if path.is_file():
            return path
    return None


def read_export(path: Path) -> str:
    """Return the text of the export file at `path`, unpacked when its name ends in `.gz`.

    Raises OSError (a file missing, or not gzip), EOFError (cut short) or UnicodeDecodeError.
    """
    if path.suffix != GZIP_SUFFIX:
        return path.read_text(encoding="utf-8")
    with gzip.open(path, "rb") as packed:
        return packed.read().decode("utf-8")
