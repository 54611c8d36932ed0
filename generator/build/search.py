"""The Pagefind index beside the site engine: which parts changed, and indexing them while the engine runs.

Pagefind indexes the generator's search records (generator/build/pagefind.py),
in parts, while the site engine renders the pages: a dirty build indexes again
only the parts whose records changed. The records depend only on the enriched
papers, so `EarlySearch` can start Pagefind on a dirty build's changed parts
while the generator still renders the pages; the build then takes those parts
instead of indexing them itself.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..errors import DigestError
from ..model import Paper
from ..settings import Settings
from ..stamps import read_stamp
from .engines import engine_fingerprint, run_engine
from .pagefind import (
    RECORDS_FILE,
    Indexing,
    Part,
    index_part,
    install_parts,
    list_parts,
    parts_of,
    read_parts,
    search_records,
)

log = logging.getLogger(__name__)

#: What the last successful build did (its inputs' hash, setup, search parts, docs files).
STAMP = ".paper-digest/build-stamp"


def timed(timings: dict[str, float], name: str, work, *args):
    """Run `work(*args)` and record its seconds under `name` in `timings`."""
    start = time.perf_counter()
    try:
        return work(*args)
    finally:
        timings[name] = time.perf_counter() - start


def engine_and_search(
    settings: Settings, config: Path, site: Path, search: str, timings: dict[str, float], dirty: bool = False,
    indexed: dict[str, str] | None = None, early: EarlySearch | None = None,
) -> tuple[str, dict[str, str]]:
    """Run the site engine into `site`; with Pagefind, index the search records meanwhile into its index parts.

    `indexed` maps the parts already in `site` (a dirty build) to their records'
    hashes: a part whose records are unchanged is kept, since MkDocs --dirty
    leaves its folder alone. Return the engine's log and the parts' hashes now.
    The engine's seconds are recorded under its name ("mkdocs", "zensical").
    """
    name = settings.site_engine
    if search != "pagefind":
        return timed(timings, name, run_engine, settings, config, site, search, dirty), {}
    output, hashes = _engine_and_pagefind(settings, config, site, timings, dirty, indexed, early)
    _empty_material_index(site)
    return output, hashes


#: Material's own search index, which its search plugin writes beside the pages.
MATERIAL_INDEX = "search/search_index.json"


def _empty_material_index(site: Path) -> None:
    """Leave Material's own index of a Pagefind site with no page in it.

    The header box asks Pagefind and never reads it, and MkDocs --dirty would write into it only
    the pages it rendered again: emptied, it is the same after any build, dirty or not.
    """
    path = site / MATERIAL_INDEX
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(index, dict) and index.get("docs"):
        index["docs"] = []
        path.write_text(json.dumps(index, ensure_ascii=False, sort_keys=True), encoding="utf-8")


def _engine_and_pagefind(
    settings: Settings, config: Path, site: Path, timings: dict[str, float], dirty: bool,
    indexed: dict[str, str] | None, early: EarlySearch | None,
) -> tuple[str, dict[str, str]]:
    name, search = settings.site_engine, "pagefind"
    parts = read_parts(settings.docs_path / RECORDS_FILE, settings.search_part_size)
    changed = changed_parts(parts, indexed or {}, site)
    hashes = {part.folder: part.digest for part in parts}
    if not changed:
        output = timed(timings, name, run_engine, settings, config, site, search, dirty)
        list_parts(site, parts)
        return output, hashes
    index = Path(tempfile.mkdtemp(prefix=".pagefind-", dir=site.parent))
    try:
        # The engine renders on one core; Pagefind indexes the changed parts on the other.
        with ThreadPoolExecutor(1) as pool:
            # A dirty build leaves the search folders alone: the parts move in as soon as they are
            # indexed. A full build's engine empties `site` first: they move in after it.
            into = site if dirty else None
            indexing = pool.submit(timed, timings, "search", _index_parts, changed, index, early, into, parts)
            try:
                output = timed(timings, name, run_engine, settings, config, site, search, dirty)
            finally:
                indexing.exception()  # wait for it either way
            indexing.result()
        if not dirty:
            install_parts(index, site, changed)
        list_parts(site, parts)
    finally:
        shutil.rmtree(index, ignore_errors=True)
    return output, hashes


def changed_parts(parts: list[Part], indexed: dict[str, str], site: Path) -> list[Part]:
    """Return the parts whose records differ from those `indexed` in `site` (folder: hash), or whose folder is gone."""
    return [part for part in parts if indexed.get(part.folder) != part.digest or not (site / part.folder).is_dir()]


def _index_parts(
    parts: list[Part], folder: Path, early: EarlySearch | None = None, site: Path | None = None,
    every: list[Part] | None = None,
) -> None:
    """Index `parts` into `folder` (taking those `early` indexed).

    With `site`, move them into it and list `every` part there at once: a new
    first part comes without the parts list, and the site is searched in full
    again only once the list is back.
    """
    for part in parts:
        if early is None or not early.take(part, folder / part.folder):
            index_part(part, folder / part.folder)
    if site is not None:
        install_parts(folder, site, parts)
        list_parts(site, every if every is not None else parts)


def indexed_parts(settings: Settings, search: str, force: bool, stamp: dict, setup: str) -> dict[str, str] | None:
    """Return the index parts the last build made (folder: records' hash) if this build is incremental, else None.

    Incremental (MkDocs `--dirty`, in place) when the previous site was built
    with the same configuration and Pagefind search, by MkDocs, and not forced.
    Zensical always builds into a fresh folder (it keeps a cache of its own).
    """
    site = settings.site_path
    if not (settings.incremental and not force and search == "pagefind" and settings.site_engine == "mkdocs"
            and site.is_dir() and stamp.get("setup") == setup):
        return None
    # Parts indexed by the last build, by folder: an edit re-indexes only the parts it changed.
    recorded = stamp.get("search")
    return {str(k): str(v) for k, v in recorded.items()} if isinstance(recorded, dict) else {}


#: Past this many added, edited or removed search records, the search is left to run beside MkDocs:
#: MkDocs --dirty then renders about ten pages per changed paper (its page, its listings, the
#: pages it is related from), enough to hide Pagefind's 5-7 s per part, while Pagefind would slow
#: the pages' rendering on a 2-core machine (20,000 papers: 300 added took 62.7 s with an early
#: start against 59.1 s without, while one edited abstract gains about 3 s from it).
EARLY_MAX_CHANGES = 50


def _changed_records(previous_file: Path, records: str) -> int:
    """Return how many records were added, edited or removed since the last run's records file.

    The larger of the lines gained and the lines lost: an edited paper counts once.
    (Sets, not counts: each line holds its paper's URL, so no two lines are the same.)
    """
    try:
        before = set(previous_file.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return sys.maxsize
    now = set(records.splitlines())
    return max(len(now - before), len(before - now))


class EarlySearch:
    """Pagefind indexing of an incremental build's changed parts, started once the papers are enriched.

    The generator calls `start` with the enriched papers before it renders the
    pages: the parts whose records changed since the last build are handed to
    Pagefind processes, which index them meanwhile. `build_site` takes a part from here only when its records are
    exactly those the generator wrote; it indexes any other itself. Nothing
    starts for a build that will be full. Use it as a context manager: leaving
    it waits for Pagefind and removes what was not taken.
    """

    def __init__(self, settings: Settings, force: bool = False) -> None:
        self.settings = settings
        self.force = force
        self._folder: Path | None = None
        self._running: dict[str, Indexing] = {}

    @property
    def started(self) -> list[str]:
        """The index parts (folders) being indexed early and not taken yet."""
        return sorted(self._running)

    def start(self, papers: list[Paper], engine: str) -> None:
        """Start indexing the changed parts of `papers`' search records (only for an incremental build)."""
        if self._folder is not None or engine != "pagefind":
            return
        settings = self.settings
        stamp = read_stamp(settings.resolve(STAMP))
        previous = indexed_parts(settings, engine, self.force, stamp, engine_fingerprint(settings, engine))
        if previous is None:
            return
        site = settings.site_path
        records = search_records(papers)
        if _changed_records(settings.docs_path / RECORDS_FILE, records) > EARLY_MAX_CHANGES:
            return
        changed = changed_parts(parts_of(records, settings.search_part_size), previous, site)
        if not changed:
            return
        self._folder = Path(tempfile.mkdtemp(prefix=".pagefind-early-", dir=site.parent))
        for part in changed:
            pages = self._folder / "pages" / part.folder
            try:
                self._running[part.folder] = Indexing(part, pages, self._folder / "index" / part.folder)
            except (DigestError, OSError) as error:  # the build indexes this part again, and reports its error
                log.info("early search indexing of %s failed: %s", part.folder, error)

    def take(self, part: Part, target: Path) -> bool:
        """Move `part`'s index into `target` if it was indexed here from the same records (waiting for it)."""
        indexing = self._running.pop(part.folder, None)
        if indexing is None:
            return False
        try:
            indexing.wait()
        except DigestError as error:
            log.info("early search indexing of %s failed: %s", part.folder, error)
            return False
        # Its pages are not needed any more: removed here, beside MkDocs, rather than after the build.
        shutil.rmtree(indexing.pages, ignore_errors=True)
        if indexing.part.digest != part.digest:
            return False
        shutil.move(indexing.output, target)
        return True

    def __enter__(self) -> EarlySearch:
        return self

    def __exit__(self, *_exc: object) -> None:
        for indexing in self._running.values():
            with contextlib.suppress(DigestError):
                indexing.wait()
        self._running = {}
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
