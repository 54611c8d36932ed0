"""All papers in the browser: reached from the navigation, every order switchable, every page free of errors."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_all_papers_is_in_the_navigation_and_switches_order(page, site_server, default_site) -> None:
    records = json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))
    page.goto(site_server.url)
    page.locator(".md-tabs a", has_text="All papers").click()
    page.locator("h1", has_text="All papers").wait_for()
    links = page.locator(".pd-listing .pd-paper-link")
    assert links.count() == len(records)  # 57 papers: one page
    # Newest first: one undated collection, so the last paper of the digest comes first.
    assert links.first.inner_text() == records[-1]["title"]
    page.locator(".pd-orders a", has_text="By title").click()
    page.locator(".pd-orders strong", has_text="By title").wait_for()
    titles = page.locator(".pd-listing .pd-paper-link").all_inner_texts()
    assert titles == sorted(titles, key=lambda t: (t.casefold()))
    page.locator(".pd-orders a", has_text="By first area").click()
    page.locator(".pd-orders strong", has_text="By first area").wait_for()
    headings = page.locator("h2.pd-listing__group").all_inner_texts()
    # Largest area first, as the home page and the map's legend order them.
    areas = [a["name"] for a in json.loads((default_site.site_path / "map.json").read_text(encoding="utf-8"))["areas"]]
    assert headings and headings == [name for name in areas if name in headings]
    # Each entry shows its title, summary and tags.
    entry = page.locator(".pd-listing li").first
    assert entry.locator(".pd-paper-link").count() == 1 and entry.locator(".pd-tag").count() >= 1
    screenshot(page, "all-papers")
    assert page.watch.errors == [] and page.watch.outside == []


def test_no_page_of_the_site_logs_an_error(page, site_server, default_site) -> None:
    site = default_site.site_path
    pages = sorted(
        path.parent.relative_to(site).as_posix()
        for path in site.rglob("index.html")
        if not path.relative_to(site).as_posix().startswith(("papers/", "tags/", "collections/"))
    )
    # Every page that is not one of many alike, one of each of those, and the new pages' own widgets at work.
    pages += [next(site.glob(f"{folder}/*/index.html")).parent.relative_to(site).as_posix()
              for folder in ("papers", "tags", "collections")]
    for path in pages:
        url = site_server.url + ("" if path == "." else path + "/")
        page.goto(url)
        page.wait_for_load_state("networkidle")
    page.goto(site_server.url + "map/")
    page.wait_for_function("window.pdMap !== undefined")
    page.goto(site_server.url + "similar/?paper=" + json.loads((site / "papers.json").read_text())[0]["id"])
    page.wait_for_function("(document.querySelector('[data-pd-similar]').dataset.seconds || '') !== ''")
    assert page.watch.errors == [] and page.watch.outside == [] and page.watch.dialogs == []
