"""The default site as a reader meets it, in headless Chromium."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def records(default_site) -> list[dict]:
    return json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))


def by_title(records, prefix: str) -> dict:
    return next(r for r in records if r["title"].startswith(prefix))


def test_home_page_loads_cleanly_and_stays_on_the_site(page, site_server) -> None:
    page.goto(site_server.url)
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").first.inner_text() == "ICLR 2026"
    assert "57 papers" in page.locator("article").inner_text()
    screenshot(page, "home")
    assert page.watch.errors == []
    assert page.watch.outside == []


def test_katex_is_fetched_only_by_pages_that_show_math(page, site_server, records) -> None:
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(site_server.url)
    page.wait_for_load_state("networkidle")
    assert not [url for url in fetched if "katex" in url]
    # Opening a page with math fetches it then, once.
    grace = by_title(records, "GRACE")
    page.evaluate(f"location.href = new URL({grace['url']!r}, document.baseURI).href")
    page.locator("article .katex").first.wait_for(timeout=10_000)
    assert len([url for url in fetched if url.endswith("katex.min.js")]) == 1
    assert page.watch.errors == [] and page.watch.outside == []


def test_searching_a_method_name_finds_its_paper_and_opens_it(page, site_server, records) -> None:
    target = by_title(records, "VisionReasoner")
    page.goto(site_server.url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    # Typed key by key as a reader does: Material's search reads the box on keyup (and shortly after
    # focus), so a programmatic fill() with no key events raced that focus read and was missed.
    page.locator("input.md-search__input").press_sequentially("VisionReasoner")
    result = page.locator(".md-search-result__item a", has_text="VisionReasoner").first
    result.wait_for(timeout=10_000)
    screenshot(page, "search")
    result.click()
    page.wait_for_url(lambda url: f"/{target['url']}" in url, wait_until="commit")
    page.locator("h1", has_text=target["title"]).wait_for()
    assert page.watch.errors == []


def test_paper_page_shows_title_tag_links_and_typeset_math(page, site_server, records) -> None:
    grace = by_title(records, "GRACE")
    page.goto(site_server.url + grace["url"])
    assert page.locator("h1").first.inner_text() == grace["title"]
    assert page.locator("p.pd-inferred").is_visible()
    chips = page.locator("article a.pd-tag:not(.pd-shared)")
    assert chips.count() == len(grace["tags"])
    # The abstract's $\pi_\theta$ is typeset by the vendored KaTeX.
    page.locator("article .katex").first.wait_for(timeout=5_000)
    assert page.locator("article .katex-error, article .arithmatex-error").count() == 0
    screenshot(page, "paper")
    first_tag = grace["tags"][0]
    chips.first.click()
    page.wait_for_url(lambda url: url.endswith(f"/{first_tag['url']}"), wait_until="commit")
    page.locator("h1", has_text=first_tag["name"]).wait_for()
    assert page.locator(f"article a[href*='{grace['slug']}']").count() >= 1
    assert page.watch.errors == [] and page.watch.outside == []


def test_tag_page_lists_all_its_papers(page, site_server, records) -> None:
    tag = records[0]["tags"][0]
    members = [r for r in records if any(t["slug"] == tag["slug"] for t in r["tags"])]
    page.goto(site_server.url + tag["url"])
    links = page.locator("article a.pd-paper-link")
    assert links.count() == len(members)
    assert {links.nth(i).inner_text() for i in range(links.count())} == {r["title"] for r in members}
    screenshot(page, "tag")


def test_topics_index_lists_every_tag_with_its_count(page, site_server, records) -> None:
    # A parent topic counts its sub-topics' papers too; a sub-topic is listed in its parent's row, not a row of its own.
    counts: dict[str, int] = {}
    subtopics: set[str] = set()
    for record in records:
        for name in {t["name"] for t in record["tags"]} | {t["parent"] for t in record["tags"] if t["parent"]}:
            counts[name] = counts.get(name, 0) + 1
        subtopics |= {t["name"] for t in record["tags"] if t["parent"]}
    counts = {name: count for name, count in counts.items() if name not in subtopics}
    page.goto(site_server.url + "tags/")
    rows = page.locator("article table tbody tr")
    shown = {rows.nth(i).locator("td").nth(0).inner_text(): int(rows.nth(i).locator("td").nth(1).inner_text())
             for i in range(rows.count())}
    assert shown == counts
    screenshot(page, "topics")


def test_dark_mode_toggles(page, site_server) -> None:
    page.goto(site_server.url)
    body = page.locator("body")
    before = body.get_attribute("data-md-color-scheme")
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    page.wait_for_function(f"document.body.getAttribute('data-md-color-scheme') !== '{before}'")
    assert {before, body.get_attribute("data-md-color-scheme")} == {"default", "slate"}
    screenshot(page, "home-dark")


def test_layout_fits_a_phone(browser, site_server, records) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    for path in ("", "tags/", by_title(records, "GRACE")["url"]):
        page.goto(site_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, (path, width)
    assert page.locator("h1").first.is_visible()
    assert page.locator("label.md-header__button[for='__drawer']").is_visible()
    screenshot(page, "paper-phone")
    context.close()


def test_related_papers_are_listed_and_open(page, site_server, records) -> None:
    grace = by_title(records, "GRACE")
    assert grace["related"], "GRACE should have related papers in the default corpus"
    first = next(r for r in records if r["id"] == grace["related"][0])
    page.goto(site_server.url + grace["url"])
    section = page.locator("article h2", has_text="Related papers")
    assert section.is_visible()
    links = page.locator(f"article a[href*='{first['slug']}']")
    assert links.count() >= 1
    links.first.click()
    page.wait_for_url(lambda url: f"/{first['url']}" in url, wait_until="commit")
    page.locator("h1", has_text=first["title"]).wait_for()


def test_paper_page_offers_its_bibtex_with_a_copy_button(page, site_server, records) -> None:
    grace = by_title(records, "GRACE")
    page.goto(site_server.url + grace["url"])
    code = page.locator("article pre code", has_text="@misc{")
    assert code.count() == 1 and grace["title"] in code.inner_text()
    assert page.locator("article pre button.md-clipboard, article .md-code__button").count() >= 1


def test_no_page_kind_logs_a_console_error_under_instant_navigation(page, site_server, records) -> None:
    # Reached by clicks, as a reader moves: Material's instant navigation swaps the page in place and
    # rewrites its links (an SVG link's href cannot be set: the charts' links are xlink:href).
    missing: list[str] = []
    page.on("response", lambda response: missing.append(response.url) if response.status == 404 else None)
    page.goto(site_server.url)
    page.wait_for_load_state("networkidle")
    for tab in ("Stats", "Topics", "Collections", "Filter", "Map", "Starred", "About", "Home"):
        page.locator(".md-tabs__link", has_text=tab).first.click()
        page.wait_for_load_state("networkidle")
    page.locator(".md-tabs__link", has_text="Stats").first.click()
    page.locator("svg.pd-chart a").first.click()  # a chart's link opens its tag page
    page.wait_for_load_state("networkidle")
    assert "/tags/" in page.url
    page.locator("article a[href*='papers/']").first.click()
    page.wait_for_load_state("networkidle")
    assert "/papers/" in page.url
    assert page.watch.errors == [], missing


def test_an_old_address_of_a_paper_leads_to_its_page(page, site_server, records, default_site) -> None:
    from generator.render.redirects import redirect_page

    paper = records[0]
    # As a retitle leaves it: the old address is a static page that redirects to the current one.
    old = "papers/an-old-title-" + paper["id"][:6] + "/"
    target = default_site.site_path / old / "index.html"
    target.parent.mkdir(parents=True)
    target.write_text(redirect_page(old, paper["url"]), encoding="utf-8")
    try:
        page.goto(site_server.url + old)
        page.wait_for_url(site_server.url + paper["url"])
        assert page.locator("h1").first.inner_text() == paper["title"]
        assert page.watch.errors == []
    finally:
        target.unlink()
        target.parent.rmdir()
