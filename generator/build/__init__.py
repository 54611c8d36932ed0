"""Run the site engine (MkDocs, or Zensical) over the docs dir: the last stage.

The site is built into a fresh folder beside `site/` and swapped in only when
the build succeeds, so a failed build leaves the previous site untouched.
A build is skipped when neither the docs dir nor mkdocs.yml changed since the
last successful one.

With Pagefind search and MkDocs, a rebuild after some pages changed is
incremental: MkDocs' own `--dirty` renders only the pages whose Markdown is
newer than their HTML (the generator rewrites only files whose text changed),
in place, and the built files of docs files gone since then are removed
(`stale.py`). Material's built-in search cannot be rebuilt that way (its index
would hold only the re-rendered pages), nor can a change of mkdocs.yml, the
theme overrides or the engine versions: those build in full. Either way,
Pagefind indexes the generator's search records while the engine runs
(`search.py`). The engines themselves are run by `engines.py`.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DigestError
from ..project import engine_config
from ..settings import ENGINES, Settings
from ..stamps import files_digest, read_stamp, tree_files, write_stamp
from .engines import ENGINE_VARIABLE, SITE_ENGINE_VARIABLE, check_engine, engine_fingerprint
from .search import STAMP, EarlySearch, engine_and_search, indexed_parts
from .stale import built_paths, missing_built, remove_gone_pages, remove_stale_pages

__all__ = [
    "ENGINE_VARIABLE", "SITE_ENGINE_VARIABLE", "STAMP", "BuildResult", "EarlySearch", "build_site", "built_paths",
    "check_engine", "engine_fingerprint", "missing_built", "remove_gone_pages", "remove_stale_pages",
    "tree_fingerprint",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BuildResult:
    """What the engine did."""

    skipped: bool
    site_dir: Path
    output: str = ""
    incremental: bool = False
    #: Seconds spent in the site engine (by its name: "mkdocs", "zensical") and in the search index
    #: ("search" is absent when the index was kept).
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


def build_site(settings: Settings, engine: str, force: bool = False, early: EarlySearch | None = None) -> BuildResult:
    """Build the static site with the site engine in strict mode and the `engine` search; skip it when nothing changed.

    `engine` is the generator's choice of search engine for the pages it wrote (`GenerateReport.engine`).
    Incremental (MkDocs `--dirty`, in place) when the previous site was built
    with the same configuration and Pagefind search; in full otherwise, or with `force`.
    `early`: the parts already indexed while the pages rendered (see `EarlySearch`).
    """
    if engine not in ENGINES:
        raise DigestError(f"unknown search engine {engine!r}")
    config = engine_config(settings)
    check_engine(settings)
    site = settings.site_path
    stamp_path = settings.resolve(STAMP)
    stamp = read_stamp(stamp_path)
    fingerprint, sources = tree_fingerprint(settings)
    setup = engine_fingerprint(settings, engine)
    # Never skipped while the site lacks a page or a redirect the docs dir has (one deleted from site/).
    if (not force and site.is_dir() and stamp.get("tree") == fingerprint and stamp.get("engine") == engine
            and stamp.get("setup") == setup and not missing_built(site, sources)):
        return BuildResult(skipped=True, site_dir=site)
    previous = indexed_parts(settings, engine, force, stamp, setup)
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


def _build_and_swap(
    settings: Settings, config: Path, site: Path, engine: str, timings: dict[str, float]
) -> tuple[str, dict[str, str]]:
    site.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site.name}-", dir=site.parent))
    try:
        output, searched = engine_and_search(settings, config, staging, engine, timings)
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
        output, searched = engine_and_search(settings, config, site, "pagefind", timings, dirty=True,
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
