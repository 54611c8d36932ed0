"""The topic map: drawn on a canvas; zoom, pan, find, topic labels, hover card, legend counts, click to open."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def open_map(page, url: str, count: int) -> None:
    page.goto(url + "map/")
    page.wait_for_function(f"window.pdMap !== undefined && window.pdMap.visibleCount() === {count}", timeout=60_000)
    page.locator(".pd-map canvas").scroll_into_view_if_needed()  # the mouse reaches only what the viewport shows


def canvas_box(page) -> dict:
    return page.locator(".pd-map canvas").bounding_box()


def central_box_share(page, count: int) -> float:
    """Return the share of the canvas covered by the box holding the central 98% of the drawn points."""
    return page.evaluate(
        """(count) => {
            const v = window.pdMap.view();
            const xs = [], ys = [];
            for (let i = 0; i < count; i++) { const p = window.pdMap.screenPoint(i); xs.push(p[0]); ys.push(p[1]); }
            const cut = Math.floor(count * 0.005);
            const span = (a) => { a.sort((p, q) => p - q); return a[a.length - 1 - cut] - a[cut]; };
            return span(xs) * span(ys) / (v.width * v.height);
        }""",
        count,
    )


def matching(data: dict, query: str) -> list[int]:
    """Papers the find box should light up: every word starts a word of the title or of a topic's name."""
    words = query.lower().split()
    found = []
    for i, point in enumerate(data["points"]):
        text = " \x01 ".join([point["title"], *(data["topics"][t]["name"] for t in point["topics"])]).lower()
        if all(re.search(r"(^|[^a-z0-9])" + re.escape(word), text) for word in words):
            found.append(i)
    return found


@pytest.fixture(scope="module")
def map_data(default_site) -> dict:
    return json.loads((default_site.site_path / "map.json").read_text(encoding="utf-8"))


def test_the_map_draws_every_paper_and_a_click_opens_one(page, site_server, map_data) -> None:
    data = map_data
    assert len(data["points"]) == 57
    open_map(page, site_server.url, 57)
    painted = page.evaluate(
        """() => { const c = document.querySelector('.pd-map canvas');
                   const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; }"""
    )
    assert painted > 57 * 20
    screenshot(page, "map")

    # Hide the largest area from the legend: its papers (any of whose areas it is) leave the map.
    first_area = data["areas"][0]
    page.locator(".pd-map__area").first.click()
    assert page.evaluate("window.pdMap.visibleCount()") == 57 - first_area["count"]
    page.locator(".pd-map__area").first.click()

    target = next(i for i, p in enumerate(data["points"]) if p["areas"][:1] == [1])
    x, y = page.evaluate(f"window.pdMap.screenPoint({target})")
    box = canvas_box(page)
    page.mouse.move(box["x"] + x, box["y"] + y)
    tip = page.locator(".pd-map__tip")
    tip.wait_for(state="visible")
    title = tip.locator(".pd-map__title").inner_text()
    point = next(p for p in data["points"] if p["title"] == title)
    # The hover card names the paper's areas and topics.
    assert data["areas"][point["areas"][0]]["name"] in tip.inner_text()
    for topic in point["topics"]:
        assert data["topics"][topic]["name"] in tip.inner_text()
    page.mouse.click(box["x"] + x, box["y"] + y)
    page.wait_for_url(lambda u: f"/{point['url']}" in u, wait_until="commit")
    # Wait for the paper page itself: closing a context mid-navigation can hang Chromium.
    page.locator("h1", has_text=title[:40]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []


def test_the_legend_counts_are_the_home_pages_and_say_what_they_count(page, site_server, default_site, map_data) -> None:
    home = (default_site.docs_path / "index.md").read_text(encoding="utf-8")
    listed = {
        name.replace("&amp;", "&"): int(count)
        for name, count in re.findall(r"^- \[(.+?)\]\(tags/[^)]+\): (\d+) papers?$", home, re.M)
    }
    open_map(page, site_server.url, 57)
    shown = {}
    for button in page.locator(".pd-map__area").all():
        count = button.locator(".pd-map__count").inner_text()
        shown[button.inner_text().removesuffix(count).strip()] = int(count.replace(",", ""))
    areas = {name: count for name, count in shown.items() if name in listed}
    assert areas and areas == {name: listed[name] for name in areas}
    # The legend says what its numbers count, and each button says how many are drawn in its colour.
    assert "as on the home page" in page.locator(".pd-map__caption").inner_text()
    assert "drawn in its colour" in page.locator(".pd-map__area").first.get_attribute("title")
    assert page.watch.errors == []


def test_zoom_with_buttons_wheel_and_pinch_changes_the_scale(page, site_server) -> None:
    open_map(page, site_server.url, 57)
    distance = "(() => { const a = window.pdMap.screenPoint(0), b = window.pdMap.screenPoint(1); " \
               "return Math.hypot(a[0] - b[0], a[1] - b[1]); })()"
    before = page.evaluate(distance)
    page.get_by_role("button", name="Zoom in").click()
    page.wait_for_function("window.pdMap.view().zoom > 1.4")
    assert page.evaluate(distance) == pytest.approx(before * 1.5, rel=1e-6)
    page.get_by_role("button", name="Show the whole map").click()
    page.wait_for_function("window.pdMap.view().zoom === 1")

    box = canvas_box(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_function("window.pdMap.view().zoom > 1.5")
    page.get_by_role("button", name="Show the whole map").click()

    # Two fingers moving apart zoom in around their midpoint.
    page.evaluate(
        """() => {
            const c = document.querySelector('.pd-map canvas'), r = c.getBoundingClientRect();
            const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
            const send = (type, id, dx) => c.dispatchEvent(new PointerEvent(type, {
                pointerId: id, pointerType: 'touch', clientX: cx + dx, clientY: cy, bubbles: true, isPrimary: id === 1}));
            send('pointerdown', 1, -20); send('pointerdown', 2, 20);
            for (let s = 1; s <= 10; s++) send('pointermove', 2, 20 + 6 * s);
            send('pointerup', 1, -20); send('pointerup', 2, 80);
        }"""
    )
    zoom = page.evaluate("window.pdMap.view().zoom")
    assert zoom == pytest.approx(100 / 40, rel=0.01)
    assert page.watch.errors == []


def test_a_drag_pans_the_map_without_opening_a_paper(page, site_server) -> None:
    open_map(page, site_server.url, 57)
    page.get_by_role("button", name="Zoom in").click()
    page.wait_for_function("window.pdMap.view().zoom > 1.4")
    before = page.evaluate("window.pdMap.screenPoint(3)")
    box = canvas_box(page)
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 80, start[1] + 50, steps=8)
    page.mouse.up()
    after = page.evaluate("window.pdMap.screenPoint(3)")
    assert after[0] - before[0] == pytest.approx(80, abs=0.5)
    assert after[1] - before[1] == pytest.approx(50, abs=0.5)
    assert page.url.endswith("/map/")
    assert page.watch.errors == []


def test_find_highlights_the_matching_papers_and_enter_centres_on_one(page, site_server, map_data) -> None:
    data = map_data
    # A topic's name lights up every paper with that topic.
    topic = data["topics"][0]["name"]
    query = topic.split()[0].lower()
    expected = matching(data, query)
    open_map(page, site_server.url, 57)
    page.locator(".pd-map__find").fill(query)
    page.wait_for_function(f"window.pdMap.matches() === {len(expected)}")
    assert page.locator(".pd-map__status").inner_text().startswith(f"{len(expected)} paper")
    assert len(expected) >= data["topics"][0]["count"]
    # A title's words find that paper; Enter centres the map on it and shows its card.
    title = data["points"][40]["title"]
    page.locator(".pd-map__find").fill(" ".join(title.split()[:4]))
    page.locator(".pd-map__find").press("Enter")
    page.wait_for_function("window.pdMap.focused() >= 0")
    focused = page.evaluate("window.pdMap.focused()")
    assert focused in matching(data, " ".join(title.split()[:4]))
    x, y = page.evaluate(f"window.pdMap.screenPoint({focused})")
    view = page.evaluate("window.pdMap.view()")
    assert view["zoom"] > 1
    assert abs(x - view["width"] / 2) < 2 and abs(y - view["height"] / 2) < 2
    card = page.locator(".pd-map__tip")
    assert card.is_visible() and card.locator("a.pd-map__title").inner_text() == data["points"][focused]["title"]
    # A title in the drop-down under the box centres on that paper (Enter closed it; the box opens it again).
    assert not page.locator(".pd-map__found").is_visible()
    page.locator(".pd-map__find").click()
    page.locator(".pd-map__hit").first.click()
    assert page.evaluate("window.pdMap.focused()") == matching(data, " ".join(title.split()[:4]))[0]
    screenshot(page, "map-find")
    assert page.watch.errors == []


def test_the_largest_topics_are_labelled_where_their_papers_are_and_stay_readable_when_zoomed(
    page, site_server, map_data
) -> None:
    data = map_data
    open_map(page, site_server.url, 57)
    labels = page.evaluate("window.pdMap.labels()")
    assert labels, "no topic label drawn"
    names = {data["topics"][label["topic"]]["name"] for label in labels}
    assert data["topics"][data["labels"][0]["topic"]]["name"] in names  # the largest labelled topic is shown
    # Labels never overlap, and keep their size (12 px text) at any zoom.
    for zoom in (1, 3):
        if zoom > 1:
            page.get_by_role("button", name="Zoom in").click()
            page.get_by_role("button", name="Zoom in").click()
            page.get_by_role("button", name="Zoom in").click()
            page.wait_for_function("window.pdMap.view().zoom > 3")
        boxes = [label["box"] for label in page.evaluate("window.pdMap.labels()")]
        # (Positions are floats: 328.116 - 310.116 is 18.000000000000057.)
        assert all(abs(b[3] - b[1] - 18) < 1e-6 for b in boxes), boxes
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    assert page.watch.errors == []


def test_the_central_98_percent_of_papers_cover_at_least_half_the_canvas(page, site_server) -> None:
    open_map(page, site_server.url, 57)
    assert central_box_share(page, 57) >= 0.5


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


def test_on_a_phone_a_tap_shows_the_card_with_a_link(phone_page, site_server, map_data) -> None:
    page = phone_page
    open_map(page, site_server.url, 57)
    x, y = page.evaluate("window.pdMap.screenPoint(5)")
    box = canvas_box(page)
    page.touchscreen.tap(box["x"] + x, box["y"] + y)
    link = page.locator(".pd-map__tip a.pd-map__title")
    link.wait_for()
    assert link.get_attribute("href").endswith(map_data["points"][page.evaluate("window.pdMap.focused()")]["url"])
    screenshot(page, "map-phone")
    assert page.watch.errors == []
