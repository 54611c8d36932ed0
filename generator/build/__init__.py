"""Run the site engine (MkDocs) over the docs dir: the last stage.

The site is built into a fresh folder beside `site/` and swapped in only when
the build succeeds, so a failed build leaves the previous site untouched.
A build is skipped when neither the docs dir nor mkdocs.yml changed since the
last successful one.

With Pagefind search, a rebuild after some pages changed is incremental: MkDocs'
own `--dirty` renders only the pages whose Markdown is newer than their HTML
(the generator rewrites only files whose text changed), in place. Material's
built-in search cannot be rebuilt that way (its index would hold only the
re-rendered pages), nor can a change of mkdocs.yml, the theme overrides or the
engine versions: those build in full. Either way, Pagefind indexes the
generator's search records (generator/build/pagefind.py) while MkDocs runs:
in parts, and a dirty build indexes again only the parts whose records changed.
The records depend only on the enriched papers, so `EarlySearch` can start
Pagefind on a dirty build's changed parts while the generator still renders the
pages; the build then takes those parts instead of indexing them itself.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DigestError
from ..model import GENERATED_FOLDERS, Paper
from ..project import engine_config, project_config, theme_sources
from ..settings import ENGINES, Settings
from ..stamps import files_digest, read_stamp, remove_empty_parents, tree_files, write_stamp
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

STAMP = ".paper-digest/build-stamp"


#: How the engine choice reaches MkDocs: mkdocs.yml reads it with `!ENV` into `extra.search_engine`,
#: which the header partial (overrides/partials/search.html) switches on.
ENGINE_VARIABLE = "PAPER_DIGEST_SEARCH"



@dataclass(frozen=True)
class BuildResult:
    """What the engine did."""

    skipped: bool
    site_dir: Path
    output: str = ""
    incremental: bool = False
    #: Seconds spent in MkDocs and in the search index ("search" is absent when the index was kept).
    timings: dict[str, float] = field(default_factory=dict)


def tree_fingerprint(settings: Settings) -> tuple[str, list[str]]:
    """Return a hash of every input of the engine (docs dir files and the config), and the docs dir's files.

    The files are paths relative to the docs dir, "/"-separated, sorted.
    """
    config = engine_config(settings)
    docs = settings.docs_path
    files = tree_files(docs)
    prefix = os.path.join(os.fspath(docs), "")
    names = [os.fspath(path)[len(prefix):].replace(os.sep, "/") for path in files]
    return files_digest([config, *files], root=settings.project_dir), names


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
            path = site / rel
            if path.is_file():
                path.unlink()
                removed.append(rel)
                remove_empty_parents(path.parent, site)
    return sorted(removed)


def _page_sources(source: str) -> tuple[str, str]:
    """Return both docs files that build to the page of `source` ("x.md" and "x/index.md")."""
    stem = source.removesuffix(".md").removesuffix("/index")
    return f"{stem}.md", f"{stem}/index.md"


def engine_fingerprint(settings: Settings, engine: str) -> str:
    """Return a hash of what every page's HTML depends on besides its Markdown.

    The configuration, the theme overrides, the search engine and the engine
    versions: when any changes, every page must be rendered again.
    """
    from importlib.metadata import version

    theme = sorted(p for folder in theme_sources(settings) for p in folder.rglob("*") if p.is_file())
    return files_digest(
        [engine_config(settings), project_config(settings), *theme], root=settings.project_dir, content=True,
        extra=f"{engine} mkdocs {version('mkdocs')} material {version('mkdocs-material')}",
    )


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


def _timed(timings: dict[str, float], name: str, work, *args):
    start = time.perf_counter()
    try:
        return work(*args)
    finally:
        timings[name] = time.perf_counter() - start


def _mkdocs_and_search(
    settings: Settings, config: Path, site: Path, engine: str, timings: dict[str, float], dirty: bool = False,
    indexed: dict[str, str] | None = None, early: EarlySearch | None = None,
) -> tuple[str, dict[str, str]]:
    """Run MkDocs into `site`; with Pagefind, index the search records meanwhile into its index parts.

    `indexed` maps the parts already in `site` (a dirty build) to their records'
    hashes: a part whose records are unchanged is kept, since MkDocs --dirty
    leaves its folder alone. Return MkDocs' output and the parts' hashes now.
    """
    if engine != "pagefind":
        return _timed(timings, "mkdocs", _mkdocs, settings, config, site, engine, dirty), {}
    parts = read_parts(settings.docs_path / RECORDS_FILE, settings.search_part_size)
    changed = _changed_parts(parts, indexed or {}, site)
    hashes = {part.folder: part.digest for part in parts}
    if not changed:
        output = _timed(timings, "mkdocs", _mkdocs, settings, config, site, engine, dirty)
        list_parts(site, parts)
        return output, hashes
    index = Path(tempfile.mkdtemp(prefix=".pagefind-", dir=site.parent))
    try:
        # MkDocs renders on one core; Pagefind indexes the changed parts on the other.
        with ThreadPoolExecutor(1) as pool:
            # A dirty build leaves the search folders alone: the parts move in as soon as they are
            # indexed. A full build's MkDocs --clean empties `site` first: they move in after it.
            into = site if dirty else None
            search = pool.submit(_timed, timings, "search", _index_parts, changed, index, early, into, parts)
            try:
                output = _timed(timings, "mkdocs", _mkdocs, settings, config, site, engine, dirty)
            finally:
                search.exception()  # wait for it either way
            search.result()
        if not dirty:
            install_parts(index, site, changed)
        list_parts(site, parts)
    finally:
        shutil.rmtree(index, ignore_errors=True)
    return output, hashes


def _changed_parts(parts: list[Part], indexed: dict[str, str], site: Path) -> list[Part]:
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


def _indexed_parts(
    settings: Settings, engine: str, force: bool, stamp: dict, setup: str
) -> dict[str, str] | None:
    """Return the index parts the last build made (folder: records' hash) if this build is incremental, else None.

    Incremental (MkDocs `--dirty`, in place) when the previous site was built
    with the same configuration and Pagefind search, and not forced.
    """
    site = settings.site_path
    if not (settings.incremental and not force and engine == "pagefind" and site.is_dir()
            and stamp.get("setup") == setup):
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
        previous = _indexed_parts(settings, engine, self.force, stamp, engine_fingerprint(settings, engine))
        if previous is None:
            return
        site = settings.site_path
        records = search_records(papers)
        if _changed_records(settings.docs_path / RECORDS_FILE, records) > EARLY_MAX_CHANGES:
            return
        changed = _changed_parts(parts_of(records, settings.search_part_size), previous, site)
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


def build_site(settings: Settings, engine: str, force: bool = False, early: EarlySearch | None = None) -> BuildResult:
    """Build the static site with MkDocs in strict mode and the `engine` search; skip it when nothing changed.

    `engine` is the generator's choice for the pages it wrote (`GenerateReport.engine`).
    Incremental (MkDocs `--dirty`, in place) when the previous site was built
    with the same configuration and Pagefind search; in full otherwise, or with `force`.
    `early`: the parts already indexed while the pages rendered (see `EarlySearch`).
    """
    if engine not in ENGINES:
        raise DigestError(f"unknown search engine {engine!r}")
    config = engine_config(settings)
    site = settings.site_path
    stamp_path = settings.resolve(STAMP)
    stamp = read_stamp(stamp_path)
    fingerprint, sources = tree_fingerprint(settings)
    if not force and site.is_dir() and stamp.get("tree") == fingerprint and stamp.get("engine") == engine:
        return BuildResult(skipped=True, site_dir=site)
    setup = engine_fingerprint(settings, engine)
    previous = _indexed_parts(settings, engine, force, stamp, setup)
    # Until this build succeeds, the stamp must not vouch for the site.
    stamp_path.unlink(missing_ok=True)
    timings: dict[str, float] = {}
    if previous is not None:
        before = stamp.get("sources")
        listed = before if isinstance(before, list) and all(isinstance(s, str) for s in before) else None
        output, searched = _build_in_place(settings, config, site, timings, previous, early, (listed, sources))
    else:
        output, searched = _build_and_swap(settings, config, site, engine, timings)
    incremental = previous is not None
    write_stamp(stamp_path, {
        "tree": fingerprint, "setup": setup, "engine": engine, "search": searched, "sources": sources,
    })
    return BuildResult(skipped=False, site_dir=site, output=output, incremental=incremental, timings=timings)


def _mkdocs(settings: Settings, config: Path, site: Path, engine: str, dirty: bool = False) -> str:
    # Strict mode fails on any warning, and a dirty build always warns that it
    # is dirty: there, the other warnings are checked here instead.
    mode = ["--dirty", "--no-strict"] if dirty else ["--clean", "--strict"]
    command = [
        sys.executable, "-m", "mkdocs", "build", *mode, "--config-file", str(config), "--site-dir", str(site),
    ]
    env = {**os.environ, "PYTHONWARNINGS": "ignore", ENGINE_VARIABLE: engine}
    process = subprocess.run(command, cwd=settings.project_dir, capture_output=True, text=True, env=env, check=False)
    warnings = [
        line for line in process.stderr.splitlines()
        if line.startswith("WARNING") and "'dirty' build" not in line
    ]
    if process.returncode != 0 or (dirty and warnings):
        raise DigestError(process.stderr.strip())
    return process.stderr


def _build_and_swap(
    settings: Settings, config: Path, site: Path, engine: str, timings: dict[str, float]
) -> tuple[str, dict[str, str]]:
    site.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site.name}-", dir=site.parent))
    try:
        output, searched = _mkdocs_and_search(settings, config, staging, engine, timings)
    except DigestError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise DigestError(f"The site build failed; the previous site is unchanged.\n{error}") from None
    except BaseException:
        # Ctrl-C (or any other stop) leaves no half-built folder beside the site.
        shutil.rmtree(staging, ignore_errors=True)
        raise
    # Swap the new site in; the old one is removed only after the new one is in place.
    previous = None
    if site.exists():
        previous = site.with_name(f".{site.name}-old-{os.getpid()}")
        site.rename(previous)
    staging.rename(site)
    site.chmod(0o755)
    if previous is not None:
        shutil.rmtree(previous, ignore_errors=True)
    return output, searched


def _build_in_place(
    settings: Settings, config: Path, site: Path, timings: dict[str, float], indexed: dict[str, str],
    early: EarlySearch | None = None, sources: tuple[list[str] | None, list[str]] = (None, []),
) -> tuple[str, dict[str, str]]:
    """Build with MkDocs --dirty into the live site, then remove what the docs dir no longer produces.

    `sources`: the docs dir's files at the last build (None if its stamp has no list: then every
    generated folder is swept) and now.
    """
    before, now = sources
    try:
        output, searched = _mkdocs_and_search(settings, config, site, "pagefind", timings, dirty=True,
                                              indexed=indexed, early=early)
        removed = remove_stale_pages(site, settings.docs_path) if before is None else remove_gone_pages(
            site, before, now
        )
        log.info("incremental build: removed %d stale files", len(removed))
    except DigestError as error:
        # The site may be half updated; no stamp is written, so the next build is a full one.
        raise DigestError(
            f"Incremental build failed; run `paper-digest build --force` for a full build.\n{error}"
        ) from None
    return output, searched
