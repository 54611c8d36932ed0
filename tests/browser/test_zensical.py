"""The default digest built with Zensical, Material's successor: pages, header search and links in Chromium.

Zensical is an optional site engine (`pip install -e '.[zensical]'`; `.ci/run`
installs it). Its own search answers a small digest, Pagefind a large one: both
are built here from the default digest (Pagefind forced with `search = "pagefind"`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json

import pytest

from generator.build import build_site
from generator.pipeline import generate
from generator.settings import load_settings
from tests.browser.conftest import screenshot, serve
from tests.conftest import DEFAULT_CORPUS, copy_project
from tests.test_links import broken_links

pytestmark = [
    pytest.mark.browser, pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("zensical") is None,
        reason="Zensical is not installed: python -m pip install -e '.[zensical]' (.ci/run installs it)",
    ),
]


@pytest.fixture(scope="module", params=["material", "pagefind"])
def zensical_site(request, tmp_path_factory):
    """The default digest built by Zensical with its own search ("material") or Pagefind; served."""
    project = copy_project(tmp_path_factory.mktemp(f"zensical-{request.param}") / "project")
    settings = dataclasses.replace(load_settings(project), site_engine="zensical", search=request.param)
    report = generate([DEFAULT_CORPUS], settings)
    result = build_site(settings, report.engine)
    server = serve(settings.site_path)
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    yield settings, result, server, records
    server.stop()


def test_zensical_builds_the_site_with_no_issue_and_every_link_resolves(zensical_site) -> None:
    settings, result, _, records = zensical_site
    assert "No issues found" in result.output and "zensical" in result.timings
    assert all((settings.site_path / r["url"] / "index.html").is_file() for r in records)
    checked, broken = broken_links(settings.site_path)
    assert checked > 1000
    assert broken == []


def watch_failures(page) -> list[str]:
    """Record every response of the page that failed (404 and the like)."""
    failed: list[str] = []
    page.on("response", lambda response: failed.append(f"{response.status} {response.url}") if response.status >= 400
            else None)
    return failed


def test_every_kind_of_page_opens_with_no_console_error_and_no_failed_request(page, zensical_site) -> None:
    _, _, server, records = zensical_site
    failed = watch_failures(page)
    paper = records[0]
    for path in ["", "tags/", "collections/", "filter/", "map/", "stats/", "starred/", "about/", paper["url"],
                 paper["tags"][0]["url"]]:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
    page.goto(server.url + paper["url"])
    page.locator("h1", has_text=paper["title"][:40]).wait_for()
    page.locator("canvas").count()  # the map page drew (checked below through the console)
    assert page.watch.errors == [] and page.watch.outside == [] and failed == []


def test_the_header_search_finds_a_paper_and_opens_it(page, zensical_site) -> None:
    settings, _, server, records = zensical_site
    target = next(r for r in records if r["title"].startswith("VisionReasoner"))
    failed = watch_failures(page)
    page.goto(server.url)
    if settings.search == "pagefind":
        box = page.locator("input.pd-search-box__input")
        box.click()
        box.fill("VisionReasoner")
        result = page.locator(".pd-search-box .md-search-result__item").first
    else:
        page.locator(".md-search__button").click()
        page.keyboard.type("VisionReasoner")
        # Zensical's own search dialog (in a shadow root, which playwright's locators enter): options linking pages.
        result = page.locator(f"a[role=option][href*='{target['slug']}']").first
    result.wait_for(timeout=15_000)
    screenshot(page, f"zensical-search-{settings.search}")
    result.click()
    page.wait_for_url(lambda url: target["url"] in url, wait_until="commit")
    page.locator("h1", has_text=target["title"][:40]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == [] and failed == []
