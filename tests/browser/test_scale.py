"""A conference-sized site in the browser: search, the map and the filter at 20,000 papers.

Building it takes minutes, so it runs only on request:

    PAPER_DIGEST_SCALE_PAPERS=20000 python -m pytest tests/browser/test_scale.py

The abstracts come from ../shared/corpora (as plain text, so the whole
pipeline runs), as in bench/scale.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import time

import pytest

from bench.scale import abstracts
from generator.build import build_site
from generator.pipeline import generate
from generator.settings import load_settings
from tests.browser.conftest import screenshot, serve
from tests.conftest import ROOT, copy_project

SIZE = int(os.environ.get("PAPER_DIGEST_SCALE_PAPERS", "0"))
CORPORA = ROOT.parent / "shared" / "corpora"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.scale,
    pytest.mark.timeout(3600),  # the first test pays for building the site
    pytest.mark.skipif(not SIZE, reason="set PAPER_DIGEST_SCALE_PAPERS=20000 to build a conference-sized site"),
]


@pytest.fixture(scope="module")
def large_site(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("scale") / "project")
    source = project / "in" / "digest.txt"
    source.parent.mkdir()
    source.write_text(f"Scale {SIZE} Papers\n\n" + "\n\n".join(abstracts(CORPORA, SIZE)) + "\n", encoding="utf-8")
    settings = load_settings(project)
    report = generate([source], settings)
    # Nothing is lost: every abstract has a page or was merged into an identical one, and said so.
    merged = [p for p in report.problems if p.level == "info"]
    assert report.paper_count + len(merged) == SIZE
    build_site(settings, report.engine)
    server = serve(settings.site_path)
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    assert len(records) == report.paper_count
    yield settings, server, records
    server.stop()


def test_a_first_search_costs_under_1_mb_in_all_and_the_keyboard_opens_a_result(page, large_site) -> None:
    settings, server, _records = large_site
    assert (settings.site_path / "pagefind" / "pagefind.js").exists()
    fetched: dict[str, int] = {}

    def on_response(response) -> None:
        with contextlib.suppress(Exception):  # a redirect has no body
            fetched[response.url] = len(response.body()) if response.ok else 0

    page.on("response", on_response)
    page.goto(server.url)
    box = page.locator("input[data-pd-query]")
    box.click()
    started = time.perf_counter()
    box.press_sequentially("offline reinforcement learning")
    first = page.locator(".md-search-result__item").first
    first.wait_for(timeout=30_000)
    # Every part of the index (pagefind/, pagefind-2/, ...) counts, and so does the page itself.
    search = sum(n for url, n in fetched.items() if "/pagefind" in url)
    print(f"\nfirst result {time.perf_counter() - started:.2f} s after typing; {search / 1e3:.0f} KB of search data, "
          f"{sum(fetched.values()) / 1e3:.0f} KB in all")
    assert sum(fetched.values()) < 1_000_000, sorted(fetched.items(), key=lambda kv: -kv[1])[:10]
    assert not [url for url in fetched if "pagefind-worker" in url]
    assert "reinforcement" in first.inner_text().lower()
    screenshot(page, f"search-{SIZE}")
    title = first.locator("h1").first.inner_text()
    box.press("ArrowDown")
    page.keyboard.press("Enter")
    page.locator("h1", has_text=title[:40]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []


def test_the_map_draws_every_paper_and_hover_names_one(page, large_site) -> None:
    _, server, records = large_site
    page.goto(server.url + "map/")
    page.wait_for_function("window.pdMap !== undefined", timeout=30_000)
    assert page.evaluate("window.pdMap.visibleCount()") == len(records)
    # The canvas sits below the legend of a large digest: bring it into the viewport, or the mouse misses it.
    canvas = page.locator(".pd-map canvas")
    canvas.scroll_into_view_if_needed()
    x, y = page.evaluate("window.pdMap.screenPoint(0)")
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)
    page.locator(".pd-map__tip").wait_for(state="visible")
    screenshot(page, f"map-{SIZE}")
    assert page.watch.errors == []


def test_the_filter_counts_match_the_data(page, large_site) -> None:
    _settings, server, records = large_site
    area = next(t for t in records[0]["tags"] if t["kind"] == "area")
    expected = sum(any(t["slug"] == area["slug"] for t in r["tags"]) for r in records)
    page.goto(server.url + f"filter/#all={area['slug']}")
    summary = page.locator(".pd-filter__summary")
    summary.wait_for(timeout=30_000)
    assert summary.inner_text().startswith(f"{expected} paper")
    assert page.locator(".pd-filter__results li a").count() == min(expected, 300)
    assert page.watch.errors == []
