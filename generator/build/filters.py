"""Pagefind's filter files rewritten in a fixed order, so that the same records give the same index.

Pagefind (1.5.2) writes each filter ("tag": the topics) as one file,
`filter/<lang>_<hash>.pf_filter`: its values, each with the pages that carry it,
in the order of a Rust hash map, which differs from run to run once a part
holds a few thousand papers (Pagefind/pagefind#638). The file's name is a hash
of its bytes, the language's meta file `pagefind.<lang>_<hash>.pf_meta` names
it, and `pagefind-entry.json` names the meta file: three files and two names
change between two builds of the same digest, and a host re-uploads them.

So once a part is indexed, each filter file's values are put in the order of
their text, and the files are named again from their bytes, the meta files
and the entry with them. Pagefind's runtime reads the same filters: it looks
values up by name and counts them, and the order of a file's values is not
part of what it shows.

The files are Pagefind's signature `pagefind_dcd` and then one CBOR item,
gzipped; a file that does not read back to the same bytes through cbor2 is
left as Pagefind wrote it (a later Pagefind with another layout keeps working,
only unsorted).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import cbor2

#: Pagefind's signature before the CBOR item of each of its data files.
SIGNATURE = b"pagefind_dcd"
_ENTRY = "pagefind-entry.json"


def sort_filters(index: Path) -> bool:
    """Rewrite the filter files of the index folder `index` (one part) in value order; True if any name changed.

    Nothing is removed until every new file is written, and nothing changes
    unless the entry and every meta file are of the layout this module knows.
    """
    entry_path = index / _ENTRY
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    metas = {language["hash"]: _read(index / f"pagefind.{language['hash']}.pf_meta")
             for language in entry["languages"].values()}
    if _dumps(entry) != entry_path.read_text(encoding="utf-8") or any(meta is None for meta in metas.values()):
        return False
    renamed: dict[str, str] = {}
    for path in sorted((index / "filter").glob("*.pf_filter")):
        item = _read(path)
        if _is_filter(item):
            ordered = [item[0], sorted(item[1], key=lambda value: value[0])]
            old = path.name.removesuffix(".pf_filter")
            renamed[old] = _write(index / "filter", old, ordered, ".pf_filter")
    renamed = {old: new for old, new in renamed.items() if new != old}
    if not renamed:
        return False
    for language in entry["languages"].values():
        old = language["hash"]
        language["hash"] = _write(index, old, _replace_strings(metas[old], renamed), ".pf_meta", prefix="pagefind.")
    entry_path.write_text(_dumps(entry), encoding="utf-8")
    for old in renamed:
        (index / "filter" / f"{old}.pf_filter").unlink()
    for old in metas:
        if old not in {language["hash"] for language in entry["languages"].values()}:
            (index / f"pagefind.{old}.pf_meta").unlink()
    return True


def _read(path: Path) -> Any:
    """Return the CBOR item of one of Pagefind's files, or None if it is not one that cbor2 writes back the same."""
    raw = gzip.decompress(path.read_bytes())
    if not raw.startswith(SIGNATURE):
        return None
    body = raw[len(SIGNATURE) :]
    item = cbor2.loads(body)
    return item if cbor2.dumps(item) == body else None


def _write(folder: Path, old: str, item: Any, suffix: str, prefix: str = "") -> str:
    """Write `item` as a Pagefind file named from its bytes (the language and hash length of `old`); return the name."""
    raw = SIGNATURE + cbor2.dumps(item)
    language, _, digest = old.rpartition("_")
    name = f"{language}_{hashlib.sha256(raw).hexdigest()[: len(digest)]}"
    # mtime=0: the gzip header carries no date, so the bytes depend on the content alone.
    (folder / f"{prefix}{name}{suffix}").write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    return name


def _is_filter(item: Any) -> bool:
    """True for Pagefind's filter layout: [name, [[value, [page, ...]], ...]]."""
    return (
        isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], list)
        and all(isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) for value in item[1])
    )


def _replace_strings(item: Any, renamed: dict[str, str]) -> Any:
    """Return `item` with every string that is a key of `renamed` replaced by its value."""
    if isinstance(item, str):
        return renamed.get(item, item)
    if isinstance(item, list):
        return [_replace_strings(value, renamed) for value in item]
    if isinstance(item, dict):
        return {key: _replace_strings(value, renamed) for key, value in item.items()}
    return item


def _dumps(entry: dict) -> str:
    """The entry file as Pagefind writes it: compact JSON, characters as they are."""
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
