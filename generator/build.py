"""Run the site engine (MkDocs) over the docs dir: the last stage.

The site is built into a fresh folder beside `site/` and swapped in only when
the build succeeds, so a failed build leaves the previous site untouched.
A build is skipped when neither the docs dir nor mkdocs.yml changed since the
last successful one.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import DigestError
from .settings import Settings

log = logging.getLogger(__name__)

STAMP = ".paper-digest/build-stamp"


@dataclass(frozen=True)
class BuildResult:
    """What the engine did."""

    skipped: bool
    site_dir: Path
    output: str = ""


def tree_fingerprint(settings: Settings) -> str:
    """Return a hash of every input of the engine: docs dir files and the config."""
    digest = hashlib.blake2b(digest_size=16)
    config = settings.resolve(settings.config_file)
    for path in [config, *sorted(p for p in settings.docs_path.rglob("*") if p.is_file())]:
        digest.update(path.relative_to(settings.project_dir).as_posix().encode("utf-8", "surrogateescape"))
        stat = path.stat()
        digest.update(f"{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def search_engine_of(settings: Settings) -> str:
    """Return the search engine the generator chose for the pages in the docs dir."""
    from .render import SEARCH_ENGINE_FILE

    path = settings.docs_path / SEARCH_ENGINE_FILE
    engine = path.read_text(encoding="utf-8").strip() if path.exists() else "material"
    return engine if engine in ("material", "pagefind") else "material"


def _index_with_pagefind(site: Path) -> None:
    """Index the paper pages with Pagefind into site/pagefind/."""
    command = [
        sys.executable, "-m", "pagefind", "--site", str(site), "--glob", "papers/**/*.html",
        "--root-selector", "article", "--force-language", "en", "--quiet",
    ]
    process = subprocess.run(command, capture_output=True, text=True)
    if process.returncode != 0 or not (site / "pagefind" / "pagefind.js").exists():
        shutil.rmtree(site, ignore_errors=True)
        raise DigestError(f"Pagefind indexing failed; the previous site is unchanged.\n{process.stderr.strip()}")


def build_site(settings: Settings, force: bool = False) -> BuildResult:
    """Build the static site with MkDocs in strict mode; skip it when nothing changed."""
    config = settings.resolve(settings.config_file)
    if not config.exists():
        raise DigestError(f"{config}: MkDocs configuration not found (run from the project folder)")
    site = settings.site_path
    stamp = settings.resolve(STAMP)
    fingerprint = tree_fingerprint(settings)
    if not force and site.is_dir() and stamp.exists() and stamp.read_text() == fingerprint:
        return BuildResult(skipped=True, site_dir=site)

    site.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site.name}-", dir=site.parent))
    engine = search_engine_of(settings)
    command = [
        sys.executable, "-m", "mkdocs", "build", "--strict", "--clean",
        "--config-file", str(config), "--site-dir", str(staging),
    ]
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "PAPER_DIGEST_SEARCH": engine}
    process = subprocess.run(command, cwd=settings.project_dir, capture_output=True, text=True, env=env)
    if process.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise DigestError(f"MkDocs build failed; the previous site is unchanged.\n{process.stderr.strip()}")
    if engine == "pagefind":
        _index_with_pagefind(staging)
    # Swap the new site in; the old one is removed only after the new one is in place.
    previous = None
    if site.exists():
        previous = site.with_name(f".{site.name}-old-{os.getpid()}")
        site.rename(previous)
    staging.rename(site)
    site.chmod(0o755)
    if previous is not None:
        shutil.rmtree(previous, ignore_errors=True)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(fingerprint)
    return BuildResult(skipped=False, site_dir=site, output=process.stderr)
