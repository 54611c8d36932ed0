"""The reading list: stars kept in the browser, a Starred page, BibTeX export."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import bibtexparser
import pytest

from tests.browser.conftest import screenshot

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
