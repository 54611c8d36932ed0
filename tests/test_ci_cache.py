"""CI's cache round trip: the build state one run saves lets the next run, in a fresh clone, redo only what changed.

The workflows (deploy.yml, pull-request.yml) restore `.paper-digest/`, the generated pages and
the built site with actions/cache, which keeps files' times, into a fresh checkout, whose
own files all have new times. This test does the same by hand and compares with a cold build.
"""

from __future__ import annotations

import dataclasses
import gzip
import shutil
from pathlib import Path

import pytest

from generator.build import build_site
from generator.identity.lock import LOCK_FILE
from generator.pipeline import generate
from generator.settings import load_settings
from tests.conftest import DEFAULT_CORPUS, copy_project

pytestmark = pytest.mark.slow

#: What the workflows cache (their actions/cache `path`), less the hand-written pages, which come from the checkout.
CACHED = (".paper-digest", "site", "site_src")
HAND_WRITTEN = ("about.md", "assets")


def fresh_clone(target: Path, digest: Path, lock: Path | None = None) -> Path:
    """A fresh project (every file new, as a checkout makes them) whose source is a copy of `digest`.

    `lock`: the committed paper-digest.lock the checkout holds.
    """
    project = copy_project(target)
    shutil.copytree(digest, project / "in")
    if lock is not None:
        shutil.copyfile(lock, project / LOCK_FILE)
    return project


def restore_cache(saved: Path, project: Path) -> None:
    """Copy the cached paths of `saved` into `project`, keeping their files' times (as actions/cache restores)."""
    for name in CACHED:
        ignore = shutil.ignore_patterns(*HAND_WRITTEN) if name == "site_src" else None
        shutil.copytree(saved / name, project / name, copy_function=shutil.copy2, ignore=ignore, dirs_exist_ok=True)


def build(project: Path):
    settings = dataclasses.replace(load_settings(project), search="pagefind")
    report = generate([project / "in"], settings)
    return report, build_site(settings, report.engine)


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_fresh_clone_with_the_restored_cache_rebuilds_one_edit_as_a_cold_build_would(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # MkDocs dates the sitemap by it, not by the clock
    first = fresh_clone(tmp_path / "run-1", DEFAULT_CORPUS)
    build(first)
    # The next run: a fresh clone of the edited repository, with the first run's cache restored.
    edited = tmp_path / "edited"
    shutil.copytree(DEFAULT_CORPUS, edited)
    source = sorted(edited.glob("*.txt"))[1]
    text = source.read_text(encoding="utf-8")
    paragraphs = text.split("\n\n")
    paragraphs[3] = paragraphs[3].rstrip("\n") + " We also release the code."
    source.write_text("\n\n".join(paragraphs), encoding="utf-8")
    # The lock the first run wrote is committed with the digest (it keeps the edited paper's id).
    committed = first / LOCK_FILE
    assert committed.is_file()
    second = fresh_clone(tmp_path / "run-2", edited, committed)
    restore_cache(first, second)
    report, result = build(second)
    # Only the edited abstract was analysed again, and MkDocs rebuilt the changed pages in place.
    assert report.analysed_count == 1
    assert result.incremental and not result.skipped
    # The paper's page and the listings that show it are written again; most of the site is left as it was.
    assert len(report.render.written) * 4 < report.render.unchanged, report.render
    # The same site, byte for byte, as a cold build of the edited digest.
    cold = fresh_clone(tmp_path / "cold", edited, committed)
    cold_report, cold_result = build(cold)
    assert cold_report.analysed_count == len(cold_report.papers) == 57 and not cold_result.incremental
    assert files(second / "site_src") == files(cold / "site_src")
    restored, built = site_files(second / "site"), site_files(cold / "site")
    assert sorted(set(restored) ^ set(built)) == []
    assert [name for name in built if restored[name] != built[name]] == []


def site_files(site: Path) -> dict[str, bytes]:
    """Return the site's files, the Pagefind index's by its page fragments only.

    Two cold builds of the same records give Pagefind filter and metadata files of other names and
    bytes (its own order of things), so the index is compared by what it holds for each page.
    """
    kept = {}
    for name, data in files(site).items():
        if name.startswith("pagefind/") and not name.startswith("pagefind/fragment/"):
            continue
        kept[name] = gzip.decompress(data) if name.endswith(".pf_fragment") else data
    return kept
