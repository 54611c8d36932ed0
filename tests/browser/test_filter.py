"""The tag filter page: all of these tags, none of those, counts as computed in Python, state in the URL."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def expected(records, all_of: list[str], none_of: list[str]) -> list[str]:
    def slugs(record) -> set[str]:
        return {t["slug"] for t in record["tags"]}

    return [r["title"] for r in records if set(all_of) <= slugs(r) and not set(none_of) & slugs(r)]


@pytest.fixture(scope="module")
def records(default_site) -> list[dict]:
    return json.loads((default_site.site_path / "papers.json").read_text(encoding="utf-8"))


def shown(page) -> list[str]:
    return page.locator(".pd-filter__results li a").all_inner_texts()


def test_filter_from_a_shared_url_matches_python(page, site_server, records) -> None:
    area = records[0]["tags"][0]["slug"]
    topic = next(t["slug"] for r in records for t in r["tags"] if t["kind"] == "topic")
    page.goto(site_server.url + f"filter/#all={area}&none={topic}")
    page.locator(".pd-filter__summary").wait_for()
    want = expected(records, [area], [topic])
    assert shown(page) == want
    assert page.locator(".pd-filter__summary").inner_text().startswith(f"{len(want)} paper")
    screenshot(page, "filter")
    assert page.watch.errors == [] and page.watch.outside == []


def test_clicking_tags_updates_results_and_url_and_survives_reload(page, site_server, records) -> None:
    page.goto(site_server.url + "filter/")
    page.locator(".pd-filter__summary").wait_for()
    assert len(shown(page)) == len(records)
    first = records[0]["tags"][0]
    chip = page.locator(f".pd-filter__tag[data-slug='{first['slug']}']")
    chip.click()
    assert shown(page) == expected(records, [first["slug"]], [])
    assert f"all={first['slug']}" in page.url
    chip.click()
    assert shown(page) == expected(records, [], [first["slug"]])
    assert f"none={first['slug']}" in page.url
    page.reload()
    page.locator(".pd-filter__summary").wait_for()
    assert shown(page) == expected(records, [], [first["slug"]])
    chip = page.locator(f".pd-filter__tag[data-slug='{first['slug']}']")
    chip.click()
    assert len(shown(page)) == len(records)
