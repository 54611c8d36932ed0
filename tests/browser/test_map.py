"""The topic map: drawn on a canvas, legend toggles areas, hover shows a title, click opens the paper."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_map_draws_every_paper_and_a_click_opens_one(page, site_server, default_site) -> None:
    data = json.loads((default_site.site_path / "map.json").read_text(encoding="utf-8"))
    assert len(data["points"]) == 57
    page.goto(site_server.url + "map/")
    page.wait_for_function("window.pdMap !== undefined")
    assert page.evaluate("window.pdMap.visibleCount()") == 57
    painted = page.evaluate(
        """() => { const c = document.querySelector('.pd-map canvas');
                   const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; }"""
    )
    assert painted > 57 * 20
    screenshot(page, "map")

    # Hide the largest area from the legend: its points leave the map.
    first_area = data["areas"][0]
    page.locator(".pd-map__area").first.click()
    assert page.evaluate("window.pdMap.visibleCount()") == 57 - first_area["count"]
    page.locator(".pd-map__area").first.click()

    target = next(i for i, p in enumerate(data["points"]) if p["area"] == 1)
    canvas = page.locator(".pd-map canvas")
    canvas.scroll_into_view_if_needed()  # the mouse reaches only what the viewport shows
    x, y = page.evaluate(f"window.pdMap.screenPoint({target})")
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)
    tip = page.locator(".pd-map__tip")
    tip.wait_for(state="visible")
    title = tip.inner_text()
    assert title in {p["title"] for p in data["points"]}
    page.mouse.click(box["x"] + x, box["y"] + y)
    url = next(p["url"] for p in data["points"] if p["title"] == title)
    page.wait_for_url(lambda u: f"/{url}" in u, wait_until="commit")
    # Wait for the paper page itself: closing a context mid-navigation can hang Chromium.
    page.locator("h1", has_text=title[:40]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []


def test_the_map_script_is_fetched_only_by_the_map_page_also_after_instant_navigation(page, site_server) -> None:
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(site_server.url)
    page.wait_for_load_state("networkidle")
    assert not [url for url in fetched if url.endswith(("assets/map.js", "assets/filter.js"))]
    # Material's instant navigation swaps the page in without reloading scripts: the map still draws.
    page.locator("a[href$='map/']").first.click()
    page.wait_for_function("window.pdMap !== undefined && window.pdMap.visibleCount() === 57")
    assert len([url for url in fetched if url.endswith("assets/map.js")]) == 1
    assert not [url for url in fetched if url.endswith("assets/filter.js")]
    assert page.watch.errors == [] and page.watch.outside == []
