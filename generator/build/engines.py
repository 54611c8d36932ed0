"""The site engines that turn the docs dir into the site: MkDocs with Material (the default) and Zensical.

Zensical, Material's successor, reads the same mkdocs.yml. Both get the search
engine and their own name through environment variables, which mkdocs.yml reads
with `!ENV` into `extra`: the header partial (overrides/partials/search.html)
switches on them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..child_env import child_env
from ..errors import DigestError
from ..project import engine_config, project_config, theme_sources
from ..settings import Settings
from ..stamps import files_digest

#: How the search engine choice reaches the site engine (`extra.search_engine` in mkdocs.yml).
ENGINE_VARIABLE = "PAPER_DIGEST_SEARCH"
#: How the site engine's name reaches the templates (`extra.site_engine` in mkdocs.yml).
SITE_ENGINE_VARIABLE = "PAPER_DIGEST_ENGINE"
#: How the setting site_url reaches the engine (`site_url` in mkdocs.yml).
SITE_URL_VARIABLE = "PAPER_DIGEST_SITE_URL"

#: The packages each site engine renders with: their versions are part of what every page depends on.
_PACKAGES = {"mkdocs": ("mkdocs", "mkdocs-material"), "zensical": ("zensical",)}


def engine_versions(site_engine: str) -> str:
    """Return the versions of the packages `site_engine` renders with ("mkdocs 1.6.1 mkdocs-material 9.8.1")."""
    try:
        return " ".join(f"{name} {version(name)}" for name in _PACKAGES[site_engine])
    except PackageNotFoundError as error:
        raise DigestError(
            f"site engine {site_engine!r} is not installed: run `python -m pip install -e '.[{site_engine}]'` "
            f"(missing package: {error.name})"
        ) from None


def check_engine(settings: Settings) -> None:
    """Fail with a clear error, before any work, if the project's site engine cannot build it."""
    engine_versions(settings.site_engine)
    if settings.site_engine == "zensical" and not settings.site_path.parent.resolve().is_relative_to(
        settings.resolve(settings.config_file).parent.resolve()
    ):
        raise DigestError(
            f"{settings.site_path}: Zensical builds only into a folder beside or below "
            f"{settings.config_file}; set site_dir to one"
        )


def engine_fingerprint(settings: Settings, search: str) -> str:
    """Return a hash of what every page's HTML depends on besides its Markdown.

    The configuration, the theme overrides, the site's address, the site and search
    engines and their versions: when any changes, every page must be rendered again.
    """
    theme = sorted(p for folder in theme_sources(settings) for p in folder.rglob("*") if p.is_file())
    return files_digest(
        [engine_config(settings), project_config(settings), *theme], root=settings.project_dir, content=True,
        extra=f"{search} {engine_versions(settings.site_engine)} {settings.site_url}",
    )


def run_engine(settings: Settings, config: Path, site: Path, search: str, dirty: bool = False) -> str:
    """Build the docs dir into `site` with the project's site engine in strict mode; return its log.

    `dirty` (MkDocs only): render only the pages whose Markdown is newer than their HTML, in place.
    Any warning fails the build (DigestError with the engine's log).
    """
    env = {
        **os.environ, "PYTHONWARNINGS": "ignore", ENGINE_VARIABLE: search, SITE_ENGINE_VARIABLE: settings.site_engine,
    }
    env.pop(SITE_URL_VARIABLE, None)
    if settings.site_url:
        env[SITE_URL_VARIABLE] = settings.site_url
    if settings.site_engine == "zensical":
        return _zensical(settings, config, site, env)
    return _mkdocs(settings, config, site, env, dirty)


def _mkdocs(settings: Settings, config: Path, site: Path, env: dict[str, str], dirty: bool) -> str:
    # Strict mode fails on any warning, and a dirty build always warns that it
    # is dirty: there, the other warnings are checked here instead.
    mode = ["--dirty", "--no-strict"] if dirty else ["--clean", "--strict"]
    # MkDocs' own command, keeping less of the site in memory (lean_mkdocs.py: the same pages).
    command = [
        sys.executable, "-m", f"{__package__}.lean_mkdocs", "build", *mode, "--config-file", str(config),
        "--site-dir", str(site),
    ]
    # The process imports this very package, wherever it was imported from (installed or not).
    env = child_env(env)
    process = subprocess.run(command, cwd=settings.project_dir, capture_output=True, text=True, env=env, check=False)
    warnings = [
        line for line in process.stderr.splitlines()
        if line.startswith("WARNING") and "'dirty' build" not in line
    ]
    if process.returncode != 0 or (dirty and warnings):
        raise DigestError(process.stderr.strip())
    return process.stderr


def _zensical(settings: Settings, config: Path, site: Path, env: dict[str, str]) -> str:
    # Zensical takes no site folder on its command line: a configuration beside mkdocs.yml
    # inherits it and names the folder (which Zensical wants below the configuration's folder).
    derived = config.with_name(f".{site.name}.zensical.yml")
    target = os.path.relpath(site, config.parent)
    derived.write_text(f"INHERIT: {config.name}\nsite_dir: {target}\n", encoding="utf-8")
    try:
        command = [sys.executable, "-m", "zensical", "build", "--strict", "--config-file", str(derived)]
        process = subprocess.run(command, cwd=config.parent, capture_output=True, text=True, env=env, check=False)
    finally:
        derived.unlink(missing_ok=True)
    output = (process.stdout + process.stderr).strip()
    if process.returncode != 0 or "No issues found" not in output:
        raise DigestError(output)
    return output
