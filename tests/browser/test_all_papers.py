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


@pytest.fixture(scope="module")
def paged_site(tmp_path_factory):
    """The default corpus with 20 papers a page: each order of All papers spans three pages."""
    from generator.build import build_site
    from generator.pipeline import generate
    from generator.settings import load_settings
    from tests.browser.conftest import serve
    from tests.conftest import DEFAULT_CORPUS, copy_project, write_tree

    project = copy_project(tmp_path_factory.mktemp("paged") / "project")
    write_tree(project, {"paper-digest.toml": "listing_size = 20\n"})
    settings = load_settings(project)
    build_site(settings, generate([DEFAULT_CORPUS], settings).engine)
    server = serve(settings.site_path)
    yield settings.site_path, server
    server.stop()


def _order_pages(page, url: str) -> list[list[str]]:
    """The titles of each page of one order, following its Next links from `url`."""
    pages = []
    page.goto(url)
    while True:
        page.locator(".pd-pager").first.wait_for()
        page.wait_for_load_state("networkidle")
        pages.append(page.locator(".pd-listing .pd-paper-link").all_inner_texts())
        following = page.locator(".pd-pager").first.locator("a", has_text="Next")
        if not following.count():
            return pages
        following.click()
        page.wait_for_function(
            "n => document.querySelector('.pd-pager strong') && document.querySelector('.pd-pager strong')"
            ".textContent === String(n)", arg=len(pages) + 1,
        )


@pytest.mark.parametrize("order", ["", "title/", "collection/", "area/"])
def test_each_all_papers_order_lists_every_paper_once_across_its_pages(page, paged_site, order) -> None:
    site, server = paged_site
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    pages = _order_pages(page, f"{server.url}all/{order}")
    assert [len(titles) for titles in pages] == [20, 20, 17]
    titles = [title for titles in pages for title in titles]
    assert sorted(titles) == sorted(r["title"] for r in records)  # every paper, once
    if order == "title/":
        assert titles == sorted(titles, key=str.casefold)
    if order == "area/":
        # A page that opens inside an area says so; each entry keeps its summary and tags.
        assert page.locator("h2.pd-listing__group").count() >= 1
        entry = page.locator(".pd-listing li").first
        assert entry.locator(".pd-tag").count() >= 1 and len(entry.inner_text().splitlines()) >= 2
    if order:
        # Only the first page of this order is a page: the others are made in the browser, and the
        # addresses they had as pages (all/title/page/2/) are redirects to them.
        for number in (2, 3):
            moved = (site / "all" / order / "page" / str(number) / "index.html").read_text(encoding="utf-8")
            assert 'http-equiv="refresh"' in moved and "pd-listing" not in moved
        page.goto(f"{server.url}all/{order}page/2/")
        page.wait_for_url(f"**/all/{order}?page=2")
        page.locator(".pd-pager strong", has_text="2").first.wait_for()
        assert page.locator(".pd-listing .pd-paper-link").all_inner_texts() == pages[1]
        # A page's address can be opened directly.
        page.goto(f"{server.url}all/{order}?page=3")
        page.locator(".pd-pager strong", has_text="3").first.wait_for()
        assert page.locator(".pd-listing .pd-paper-link").all_inner_texts() == pages[2]
    assert page.watch.errors == [] and page.watch.outside == []
