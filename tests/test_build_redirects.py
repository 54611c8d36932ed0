"""Addresses are forever on every build (issue 42): an incremental build after a retitling edit serves every
old address, and a build never skips while site/ lacks a page or redirect the lock lists."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from generator.build import build_site
from generator.identity import parse_lock
from generator.pipeline import generate
from generator.settings import Settings, load_settings
from tests.conftest import copy_project
from tests.test_metadata import ABSTRACTS


def _write(source: Path, titles: list[str]) -> Path:
    source.write_text("".join(json.dumps({"title": title, "abstract": text, "venue": "Redirect Conf 2026"}) + "\n"
                              for title, text in zip(titles, ABSTRACTS, strict=True)), encoding="utf-8")
    return source


def _lock_addresses(project: Path) -> set[str]:
    lock = parse_lock((project / "paper-digest.lock").read_text(encoding="utf-8"), "paper-digest.lock")
    return {url for entry in lock.entries for url in entry.urls}


def _served(settings: Settings, url: str) -> str:
    """Return the built page at an address, read as the site serves it."""
    return (settings.site_path / url / "index.html").read_text(encoding="utf-8")


def test_a_redirect_at_a_gone_page_address_is_kept_and_a_missing_one_found(tmp_path: Path) -> None:
    from generator.build import missing_built, remove_gone_pages

    site = tmp_path / "site"
    for rel in ("papers/old/index.html", "papers/new/index.html", "papers/gone/index.html"):
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text("x", encoding="utf-8")
    # papers/old.md became the redirect papers/old/index.html: the same site file, kept; papers/gone.md went.
    before = ["papers/old.md", "papers/new.md", "papers/gone.md"]
    now = ["papers/new.md", "papers/old/index.html"]
    assert remove_gone_pages(site, before, now) == ["papers/gone/index.html"]
    assert (site / "papers/old/index.html").is_file()
    assert missing_built(site, now) == []
    (site / "papers/old/index.html").unlink()
    assert missing_built(site, [*now, "about.md"]) == ["papers/old/index.html"]


@pytest.mark.slow
@pytest.mark.parametrize("search", ["pagefind", "material"])
def test_an_incremental_build_after_retitling_serves_every_old_address(tmp_path: Path, search: str) -> None:
    project = copy_project(tmp_path / "project")
    source = project / "in" / "papers.jsonl"
    source.parent.mkdir()
    settings = dataclasses.replace(load_settings(project), search=search)
    titles = [f"Original Title Number {n}" for n in range(len(ABSTRACTS))]
    first = generate([_write(source, titles)], settings)
    build_site(settings, first.engine)
    old = {paper.id: paper.url for paper in first.papers}
    # Two papers are retitled: their pages move, and their old addresses must lead to the new ones.
    titles[1], titles[4] = "A Recommender for Book Retail", "Diffusion Designs Protein Binders"
    report = generate([_write(source, titles)], settings)
    result = build_site(settings, report.engine)
    assert not result.skipped and result.incremental == (search == "pagefind")
    new = {paper.id: paper.url for paper in report.papers}
    moved = {old[i]: new[i] for i in new if old[i] != new[i]}
    assert len(moved) == 2
    for before, after in moved.items():
        page = _served(settings, before)
        assert 'http-equiv="refresh"' in page and f"../../{after}" in page
        assert "<h1" in _served(settings, after)
    # Every address the lock lists is served: a page, or a redirect to one.
    assert all((settings.site_path / url / "index.html").is_file() for url in _lock_addresses(project))
    # Nothing changed since: skipped, as before.
    assert build_site(settings, generate([source], settings).engine).skipped
    # A redirect deleted from site/ is restored by the next build, which must not skip.
    gone = settings.site_path / next(iter(moved)) / "index.html"
    gone.unlink()
    page = settings.site_path / new[next(iter(new))] / "index.html"
    page.unlink()
    again = build_site(settings, generate([source], settings).engine)
    assert not again.skipped
    assert gone.is_file() and 'http-equiv="refresh"' in gone.read_text(encoding="utf-8") and page.is_file()
    assert build_site(settings, generate([source], settings).engine).skipped
