"""The hostile corpus in a real browser: no script runs, no request leaves the site."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def hostile_server(hostile_site):
    settings, _, records = hostile_site
    server = serve(settings.site_path)
    yield server, records
    server.stop()


def test_no_hostile_page_runs_script_or_leaves_the_site(page, hostile_server) -> None:
    server, records = hostile_server
    injected = "document.querySelectorAll('.injected, base, article iframe, article object, article embed, " \
        "article form, article img, article svg, article style').length"
    for record in records:
        page.goto(server.url + record["url"])
        page.wait_for_load_state("load")
        page.wait_for_timeout(50)  # let handlers that would fire on load run
        assert page.evaluate(injected) == 0, record["title"]
    assert page.watch.dialogs == []
    assert page.watch.outside == []
    assert page.watch.errors == []


def test_malformed_math_shows_its_source_and_good_math_is_typeset(page, hostile_server) -> None:
    server, records = hostile_server
    case = next(r for r in records if r["abstract"].startswith("Case 30"))
    page.goto(server.url + case["url"])
    errors = page.locator("article .arithmatex-error")
    errors.first.wait_for()
    assert errors.first.inner_text() == r"\frac{1}{"
    screenshot(page, "hostile-malformed-math")
    breakout = next(r for r in records if r["abstract"].startswith("Case 28"))
    page.goto(server.url + breakout["url"])
    page.locator("article .arithmatex").first.wait_for()
    assert page.watch.dialogs == [] and page.evaluate("typeof window.alertCalled") == "undefined"
