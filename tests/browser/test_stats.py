"""The stats page: bar charts drawn at build time, readable in both colour schemes."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_stats_page_charts_every_area_with_its_count_in_both_schemes(page, site_server, default_site) -> None:
    records = json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))
    counts: dict[str, int] = {}
    for record in records:
        for tag in record["tags"]:
            if tag["kind"] == "area":
                counts[tag["name"]] = counts.get(tag["name"], 0) + 1
    page.goto(site_server.url + "stats/")
    chart = page.locator("article svg.pd-chart").first
    labels = chart.locator("text.pd-chart__label").all_text_contents()
    values = [int(v) for v in chart.locator("text.pd-chart__value").all_text_contents()]
    assert dict(zip(labels, values, strict=False)) == counts
    screenshot(page, "stats-light")

    def contrast() -> tuple[str, str]:
        return page.evaluate(
            """() => [getComputedStyle(document.querySelector('.pd-chart__label')).fill,
                      getComputedStyle(document.body).backgroundColor]"""
        )

    light_text, light_background = contrast()
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    dark_text, dark_background = contrast()
    screenshot(page, "stats-dark")
    assert light_text != dark_text and light_background != dark_background
    assert light_text != light_background and dark_text != dark_background
    chart.locator("a").first.click()
    page.wait_for_url(lambda url: "/tags/" in url, wait_until="commit")
    page.wait_for_load_state("load")
