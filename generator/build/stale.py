"""Built files whose docs file is gone: found and removed after an in-place (MkDocs --dirty) build."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..model import GENERATED_FOLDERS
from ..stamps import remove_empty_parents


def built_paths(source: str) -> list[str]:
    """Return the site files MkDocs builds from the docs file `source` (directory URLs).

    `papers/x.md` and `papers/x/index.md` give `papers/x/index.html`; any other file is copied as it is.
    """
    if not source.endswith(".md"):
        return [source]
    stem = source.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return [f"{stem}.html"]
    return [f"{stem}/index.html"]


def remove_gone_pages(site: Path, before: list[str], now: list[str]) -> list[str]:
    """Delete the built files of the docs files that were in `before` and are not in `now`.

    Return their site paths, sorted. Emptied folders are removed. This finds
    what `remove_stale_pages` finds and more (a tag's feed at the site root, a
    hand-written page deleted), without listing 20,000 built folders: the build
    stamp keeps the docs dir's file list of the last build.
    """
    kept = set(now)
    removed: list[str] = []
    for source in sorted(set(before) - kept):
        # A page moved between `x.md` and `x/index.md` still builds to the same file.
        if source.endswith(".md") and any(other in kept for other in _page_sources(source)):
            continue
        for rel in built_paths(source):
            if rel in kept:
                continue  # a docs file copied to the same place: the redirect page at a retitled paper's old address
            path = site / rel
            if path.is_file():
                path.unlink()
                removed.append(rel)
                remove_empty_parents(path.parent, site)
    return sorted(removed)


def missing_built(site: Path, sources: list[str]) -> list[str]:
    """Return the site paths the generated docs files build to that are not in `site`, sorted.

    Only the generated folders are looked at (paper, tag and collection pages, and the redirect
    pages at old addresses): a file there is never left out of the site on purpose, so one
    missing (deleted by hand, or by an older build) means the site needs building again.
    """
    folders = tuple(f"{folder}/" for folder in GENERATED_FOLDERS)
    return sorted(rel for source in sources if source.startswith(folders)
                  for rel in built_paths(source) if not (site / rel).is_file())


def _page_sources(source: str) -> tuple[str, str]:
    """Return both docs files that build to the page of `source` ("x.md" and "x/index.md")."""
    stem = source.removesuffix(".md").removesuffix("/index")
    return f"{stem}.md", f"{stem}/index.md"


def remove_stale_pages(site: Path, docs: Path) -> list[str]:
    """Delete built files of generated folders whose source is gone; return their site paths, sorted.

    `papers/x/index.html` comes from `papers/x.md` (or `papers/x/index.md`); any other file from the
    same path in the docs dir. Each folder is listed once on both sides (no check per file): at
    20,000 papers this takes a few hundredths of a second instead of seconds.
    """
    removed: list[str] = []
    for folder in GENERATED_FOLDERS:
        if (site / folder).is_dir():
            # (all/index.html comes from all.md, beside the folder)
            _sweep(site / folder, docs / folder, folder, removed, own_page=(docs / f"{folder}.md").is_file())
    return sorted(removed)


def _sweep(built: Path, source: Path, rel: str, removed: list[str], own_page: bool = False) -> None:
    """Remove, under the built folder `built`, what the docs folder `source` no longer produces.

    `own_page`: the docs dir has the page this folder's index.html comes from (`<folder>.md`).
    """
    sources = {entry.name: entry.is_dir() for entry in os.scandir(source)} if source.is_dir() else {}
    for entry in sorted(os.scandir(built), key=lambda e: e.name):
        name, path = entry.name, Path(entry.path)
        if not entry.is_dir():
            # index.html comes from the folder's page or its index.md; any other file from itself.
            page_file = name == "index.html"
            kept = (own_page or "index.md" in sources) if page_file else (name in sources and not sources[name])
            if not kept:
                _remove(path, f"{rel}/{name}", removed)
            continue
        page = f"{name}.md" in sources
        if sources.get(name) or page:
            _sweep(path, source / name, f"{rel}/{name}", removed, own_page=page)
            if not any(path.iterdir()):
                path.rmdir()
        else:
            _remove(path, f"{rel}/{name}", removed)


def _remove(path: Path, rel: str, removed: list[str]) -> None:
    """Delete a built file or folder, recording each file removed."""
    if path.is_dir():
        for inner in sorted(p for p in path.rglob("*") if p.is_file()):
            removed.append(f"{rel}/{inner.relative_to(path).as_posix()}")
        shutil.rmtree(path)
    else:
        path.unlink()
        removed.append(rel)
