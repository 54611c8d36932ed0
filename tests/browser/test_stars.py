"""The reading list: stars kept in the browser, a Starred page, BibTeX export."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import bibtexparser
import pytest

from tests.browser.conftest import screenshot, star_papers

pytestmark = [pytest.mark.browser, pytest.mark.slow]
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


def test_stars_survive_a_reload_and_export_as_bibtex(page, site_server, default_site) -> None:
    records = json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))
    chosen = [r for r in records if r["title"].startswith(("GRACE", "VisionReasoner"))]
    for record in chosen:
        page.goto(site_server.url + record["url"])
        star = page.locator(f"button[data-pd-star='{record['id']}']")
        assert star.get_attribute("aria-pressed") == "false"
        star.click()
        assert star.get_attribute("aria-pressed") == "true"
        page.reload()
        assert page.locator(f"button[data-pd-star='{record['id']}']").get_attribute("aria-pressed") == "true"

    page.goto(site_server.url + "starred/")
    page.locator(".pd-starred__summary", has_text="2 starred papers").wait_for()
    titles = page.locator(".pd-starred ol li a").all_inner_texts()
    assert sorted(titles) == sorted(r["title"] for r in chosen)
    screenshot(page, "starred")

    with page.expect_download() as download_info:
        page.get_by_role("button", name="Export BibTeX").click()
    text = Path(download_info.value.path()).read_text(encoding="utf-8")
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    assert sorted(e.fields_dict["title"].value.strip("{}") for e in library.entries) == sorted(r["title"] for r in chosen)

    page.locator(".pd-starred__remove").first.click()
    page.locator(".pd-starred__summary", has_text="1 starred paper").wait_for()
    assert page.watch.errors == [] and page.watch.outside == []


def test_a_shared_list_link_opens_the_same_papers_in_a_fresh_browser(page, browser, site_server, default_site) -> None:
    records = json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))
    chosen = records[3:6]
    star_papers(page, site_server.url, chosen)
    page.get_by_role("button", name="Share this list").click()
    link = page.locator("input.pd-starred__link").input_value()
    assert link.startswith(site_server.url + "starred/#list=")
    assert link.split("#list=")[1].split(",") == [r["id"] for r in chosen]
    assert page.watch.errors == [] and page.watch.outside == []

    # Another browser: no stars of its own, nothing shared but the link.
    other = browser.new_context()
    try:
        fresh = other.new_page()
        outside: list[str] = []
        fresh.on("request", lambda r: outside.append(r.url) if not r.url.startswith(site_server.url) else None)
        fresh.goto(link)
        fresh.locator(".pd-starred__summary", has_text="A shared reading list: 3 papers").wait_for()
        assert fresh.locator(".pd-starred ol li a").all_inner_texts() == [r["title"] for r in chosen]
        screenshot(fresh, "starred-shared")
        assert fresh.evaluate("localStorage.getItem('paper-digest.stars')") is None
        fresh.get_by_role("button", name="Add these to my stars").click()
        fresh.get_by_role("button", name="All of these are in my stars").wait_for()
        assert json.loads(fresh.evaluate("localStorage.getItem('paper-digest.stars')")) == [r["id"] for r in chosen]
        fresh.get_by_role("link", name="Show my own stars").click()
        fresh.locator(".pd-starred__summary", has_text="3 starred papers").wait_for()
        assert outside == []
    finally:
        other.close()


def test_a_shared_link_with_foreign_or_hostile_ids_shows_only_real_papers(page, site_server, default_site) -> None:
    records = json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))
    real = records[0]["id"]
    page.goto(site_server.url + f"starred/#list={real},ffffffffffff,{real}")
    page.locator(".pd-starred__summary", has_text="1 paper (1 not in this digest)").wait_for()
    page.goto(site_server.url + "starred/#list=<img src=x onerror=alert(1)>")
    page.locator(".pd-starred__summary").wait_for()
    assert page.locator(".pd-starred img").count() == 0
    assert page.watch.dialogs == [] and page.watch.errors == []
