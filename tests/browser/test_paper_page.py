"""A paper page's own chrome (overrides/lean-layout.html, issue 43): what a reader clicks still works."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import _watched, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def records(default_site) -> list[dict]:
    return json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))


def test_on_a_phone_the_drawer_opens_from_the_header_and_navigates(phone_page, site_server, records) -> None:
    page = phone_page
    paper = records[0]
    page.goto(site_server.url + paper["url"])
    drawer = page.locator(".md-sidebar--primary .md-nav--primary")
    link = drawer.locator("a.md-nav__link", has_text="All papers")
    def on_screen() -> bool:
        box = link.bounding_box()
        return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390

    assert not on_screen()  # the drawer is closed, off the screen's left edge
    page.locator(".md-header label[for=__drawer]").click()
    page.wait_for_function("document.getElementById('__drawer').checked")
    page.wait_for_timeout(400)  # its slide-in
    assert on_screen()
    # The same top-level links as every other page's drawer, in the same order.
    names = [a.strip() for a in drawer.locator("a.md-nav__link").all_inner_texts()]
    assert names == ["Home", "All papers", "Topics", "Collections", "Filter", "Map", "Like this", "Stats",
                     "Starred", "About"]
    screenshot(page, "paper-phone-drawer")
    link.click()
    page.wait_for_url(lambda url: url.endswith("/all/"), wait_until="commit")
    page.locator("h1", has_text="All papers").wait_for()
    # Back to a paper by Material's instant navigation (no reload): its drawer gets its links too.
    page.locator("article a.pd-paper-link").first.click()
    page.wait_for_url(lambda url: "/papers/" in url, wait_until="commit")
    page.locator(".md-header label[for=__drawer]").click()
    page.wait_for_timeout(400)
    assert on_screen()
    assert drawer.locator("a.md-nav__link").count() == 10
    assert page.watch.errors == [] and page.watch.outside == []


def test_without_javascript_the_page_reads_and_the_drawer_opens_on_the_home_link(browser, site_server, records) -> None:
    # The drawer's links are copied from the tabs by assets/site.js; without it the drawer still opens,
    # with the site's name and logo, a link to the home page (where the drawer is Material's own).
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    for page in _watched(context):
        page.goto(site_server.url + records[0]["url"])
        assert records[0]["abstract"][:60] in page.locator("article").inner_text()
        assert page.locator("article h2", has_text="Related papers").is_visible()
        home = page.locator(".md-nav--primary .md-nav__title a.md-logo")
        assert home.bounding_box()["x"] < 0
        page.locator(".md-header label[for=__drawer]").click()
        page.wait_for_timeout(400)
        assert home.bounding_box()["x"] >= 0
        home.click()
        page.wait_for_url(site_server.url, wait_until="commit")
        assert page.locator(".md-nav--primary a.md-nav__link", has_text="Topics").count() >= 1


def test_the_header_icons_are_drawn_and_the_palette_switch_turns_the_site_dark(page, site_server, records) -> None:
    page.goto(site_server.url + records[0]["url"])
    body = page.locator("body")
    assert body.get_attribute("data-md-color-scheme") == "default"
    switch = page.locator("form[data-md-component=palette] label:visible")
    assert switch.count() == 1
    # The icon is a CSS mask (assets/digest.css), drawn at Material's icon size.
    drawn = switch.evaluate("""label => {
        const style = getComputedStyle(label, '::before');
        return {mask: style.maskImage || style.webkitMaskImage, width: style.width};
    }""")
    assert "svg" in drawn["mask"] and drawn["width"] == "24px", drawn
    switch.click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    # The choice holds on the next page opened, before Material's bundle runs (assets/palette.js).
    page.goto(site_server.url + records[1]["url"])
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    screenshot(page, "paper-dark")
    page.locator("form[data-md-component=palette] label:visible").click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'default'")
    assert page.watch.errors == [] and page.watch.outside == []


def test_the_search_box_on_a_paper_page_finds_a_paper_and_opens_it(page, site_server, records) -> None:
    target = next(r for r in records if r["title"].startswith("VisionReasoner"))
    page.goto(site_server.url + records[0]["url"])
    box = page.locator(".md-search__input")
    box.click()
    box.press_sequentially("VisionReasoner", delay=30)
    result = page.locator(".md-search-result__item", has_text=target["title"][:30]).first
    result.wait_for(timeout=10_000)
    result.locator("a").first.click()
    page.wait_for_url(lambda url: f"/{target['url']}" in url, wait_until="commit")
    page.locator("h1", has_text=target["title"][:40]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []


def test_the_cite_block_copies_and_a_related_paper_opens(page, site_server, records) -> None:
    # Material's copy button and its "Copied" message still come with the lean page's configuration.
    paper = next(r for r in records if r["related"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(site_server.url + paper["url"])
    page.locator("article pre button[data-md-type=copy]").first.click()
    page.locator(".md-dialog", has_text="Copied to clipboard").wait_for(timeout=5_000)
    assert page.evaluate("navigator.clipboard.readText()").startswith("@")
    # A related paper's link opens its page.
    first = next(r for r in records if r["id"] == paper["related"][0])
    page.locator("#related-papers + ul a").first.click()
    page.wait_for_url(lambda url: url.endswith(f"/{first['url']}"), wait_until="commit")
    page.locator("h1", has_text=first["title"][:40]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []
