"""A conference-sized site in the browser: search, the map and the filter at 20,000 papers.

Building it takes minutes, so it runs only on request:

    PAPER_DIGEST_SCALE_PAPERS=20000 python -m pytest tests/browser/test_scale.py

The abstracts come from ../shared/corpora (as plain text, so the whole
pipeline runs), as in bench/scale.py. To run the checks again on a site built
that way, name its folder: PAPER_DIGEST_SCALE_SITE=/path/to/site.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench.scale import abstracts
from generator.build import build_site
from generator.pipeline import generate
from generator.settings import load_settings
from tests.browser.conftest import fetched_bytes, screenshot, serve
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
    built = os.environ.get("PAPER_DIGEST_SCALE_SITE")
    if built:
        site = Path(built)
        server = serve(site)
        yield SimpleNamespace(site_path=site), server, json.loads((site / "papers.json").read_text(encoding="utf-8"))
        server.stop()
        return
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
    fetched = fetched_bytes(page)
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
    assert page.locator(".pd-map__tip .pd-map__title").inner_text() == records[0]["title"]
    screenshot(page, f"map-{SIZE}")
    assert page.watch.errors == []


def test_the_map_fills_the_canvas_is_labelled_and_pans_smoothly(page, large_site) -> None:
    from tests.browser.test_map import central_box_share

    _, server, records = large_site
    page.goto(server.url + "map/")
    page.wait_for_function(f"window.pdMap !== undefined && window.pdMap.visibleCount() === {len(records)}",
                           timeout=60_000)
    canvas = page.locator(".pd-map canvas")
    canvas.scroll_into_view_if_needed()
    share = central_box_share(page, len(records))
    labels = page.evaluate("window.pdMap.labels()")
    assert share >= 0.5 and len(labels) >= 10
    # Frame time while a drag pans the zoomed map.
    page.get_by_role("button", name="Zoom in").click()
    before = len(page.evaluate("window.pdMap.frameTimes()"))
    box = canvas.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(60):
        page.mouse.move(x + 150 * ((step % 20) / 20 - 0.5), y + step % 5)
    page.mouse.up()
    frames = sorted(page.evaluate("window.pdMap.frameTimes()")[before:])
    print(f"\nmap at {len(records):,} papers: central 98% covers {share:.0%} of the canvas, {len(labels)} labels; "
          f"panning: {len(frames)} frames, draw median {frames[len(frames) // 2]:.1f} ms, "
          f"p95 {frames[int(len(frames) * 0.95)]:.1f} ms")
    assert frames and frames[len(frames) // 2] < 16.7  # drawing one frame fits in a 60 Hz frame
    # Find: a topic's word lights up its papers; Enter centres on the first.
    page.locator(".pd-map__find").fill("diffusion")
    page.wait_for_function("window.pdMap.matches() > 100")
    page.locator(".pd-map__find").press("Enter")
    page.wait_for_function("window.pdMap.focused() >= 0")
    screenshot(page, f"map-find-{SIZE}")
    assert page.watch.errors == []


def test_all_papers_pages_every_paper_in_each_order(page, large_site) -> None:
    _, server, records = large_site
    size = 150
    pages = -(-len(records) // size)
    page.goto(server.url + f"all/title/page/{pages}/")
    last = page.locator(".pd-listing .pd-paper-link")
    assert last.count() == len(records) - (pages - 1) * size
    titles = sorted((r["title"] for r in records), key=lambda t: t.casefold())
    assert last.last.inner_text() == titles[-1]
    page.goto(server.url + "all/")
    assert page.locator(".pd-listing .pd-paper-link").count() == size
    assert f"page 1 of {pages}" in page.locator(".pd-pager").first.inner_text()
    screenshot(page, f"all-papers-{SIZE}")
    assert page.watch.errors == []


def test_search_results_are_short_and_show_tags_at_scale(page, large_site) -> None:
    from tests.browser.search_checks import check_results, pagefind_search

    _, server, _records = large_site
    pagefind_search(page, server.url, "graph neural network", timeout=30_000)
    results = check_results(page)
    assert all(r["tags"] for r in results)


def test_papers_like_this_loads_under_1_5_mb_only_when_used_and_finds_the_paper(page, large_site) -> None:
    import random

    _, server, records = large_site
    fetched = fetched_bytes(page)
    page.goto(server.url)
    page.goto(server.url + records[0]["url"])
    page.wait_for_load_state("networkidle")
    assert not [url for url in fetched if "/similar/" in url]  # nothing before the page is used
    sample = random.Random(5).sample(records, 30)
    found = first = 0
    largest = 0
    for record in sample:
        fetched.clear()
        page.goto(server.url + "similar/")
        page.wait_for_function("window.pdSimilar !== undefined")
        page.wait_for_load_state("networkidle")
        fetched.clear()  # what the page itself costs is the page's; a query's own cost from here
        words = record["abstract"].split()
        for text in (" ".join(words[len(words) // 2 :]), record["abstract"]):
            page.evaluate("document.querySelector('[data-pd-similar]').dataset.seconds = ''")
            page.evaluate("(t) => window.pdSimilar.rank(t)", text)
            page.wait_for_function("document.querySelector('[data-pd-similar]').dataset.seconds !== ''",
                                   timeout=60_000)
            titles = page.eval_on_selector_all(".pd-similar__item .pd-paper-link", "a => a.map(x => x.textContent)")
            if text is record["abstract"]:
                first += bool(titles) and titles[0] == record["title"]
            else:
                found += record["title"] in titles[:3]
        largest = max(largest, sum(fetched.values()))
    print(f"\npapers like this at {len(records):,} papers: second half in the top 3 {found}/30, "
          f"own abstract first {first}/30; at most {largest / 1e3:.0f} KB fetched for two queries")
    assert largest <= 1_500_000
    assert found >= 27 and first >= 27
    screenshot(page, f"similar-{SIZE}")
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
