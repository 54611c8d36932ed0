"""Pagefind's fragments packed into bundles: at most 2,048 files per index part instead of one per paper.

Pagefind writes each indexed page's result data (its URL, title and text for
the excerpt) as a file of its own, `fragment/<lang>_<hex hash>.pf_fragment`,
and the search box fetches one per result shown. At 100,000 papers that is
100,000 files, half of the 200,000 a host such as GitLab Pages allows. So once
a part is indexed its fragments are packed into `BUCKETS` bundles by the first
hex digits of their hash: `fragment/<bucket>.pf_bundle`. The search box
(assets/pagefind-search.js) answers Pagefind's request for a fragment from its
bundle, fetched once; Pagefind sees the same bytes as before.

A bundle is one line of JSON (each fragment's name: its offset and length in
the bytes after that line), then the fragments' bytes, as Pagefind wrote them,
in name order: the same fragments give the same bundle.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

#: Bundles per index part. A part of 7,000 papers (`search_part_size`) fills about 1,980 of them
#: with 3.4 fragments each (about 5 KB): ten results fetch about 50 KB instead of 15 KB (the first
#: search stays under 1 MB), from 2,000 files, not 7,000. The search box computes the same bucket:
#: keep the two in step.
BUCKETS = 2048
#: A fragment's file name: Pagefind's language code, "_", then a hash of at least three hex digits.
_FRAGMENT = re.compile(r"^[A-Za-z0-9-]+_([0-9a-f]{3})[0-9a-f]*\.pf_fragment$")
SUFFIX = ".pf_bundle"


def bucket_of(name: str) -> int | None:
    """Return the bundle a fragment's file name goes to, or None if it is not of Pagefind's shape."""
    match = _FRAGMENT.match(name)
    # Three hex digits are 4,096 values: each two go to the same bundle.
    return int(match.group(1), 16) * BUCKETS // 4096 if match else None


def bundle_fragments(index: Path) -> int:
    """Pack the fragments of the index folder `index` (one part) into bundles, removing them; return the bundles.

    A fragment whose name is not of Pagefind's shape is left as it is (the search box fetches it as usual).
    """
    folder = index / "fragment"
    if not folder.is_dir():
        return 0
    buckets: dict[int, list[Path]] = defaultdict(list)
    for path in folder.iterdir():
        bucket = bucket_of(path.name)
        if bucket is not None and path.is_file():
            buckets[bucket].append(path)
    for bucket, paths in buckets.items():
        paths.sort(key=lambda path: path.name)
        contents = [path.read_bytes() for path in paths]
        where: dict[str, list[int]] = {}
        offset = 0
        for path, content in zip(paths, contents, strict=True):
            where[path.name.removesuffix(".pf_fragment")] = [offset, len(content)]
            offset += len(content)
        header = json.dumps(where, separators=(",", ":"), sort_keys=True).encode("ascii") + b"\n"
        (folder / f"{bucket}{SUFFIX}").write_bytes(header + b"".join(contents))
        for path in paths:
            path.unlink()
    return len(buckets)


def unbundle(bundle: bytes) -> dict[str, bytes]:
    """Return the fragments of a bundle by name (what the search box does with one): for tests and checks."""
    header, _, body = bundle.partition(b"\n")
    return {name: body[start : start + length] for name, (start, length) in json.loads(header).items()}
