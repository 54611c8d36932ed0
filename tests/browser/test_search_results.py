"""Material's search (small digests): results show a title, tags and a short snippet with math as text, on a phone too."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot
from tests.browser.search_checks import check_results

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The default corpus's paper with $\textbf{Rubrics as Rewards (\textit{RaR})}$ just after "underexplored".
LATEX_QUERY, LATEX_TITLE = "underexplored", "RaR: Rubrics as Rewards for Reinforcement Learning"


def search(page, url: str, query: str, phone: bool = False) -> None:
    page.goto(url)
    if phone:
        page.locator("label.md-header__button[for=__search]").click()
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query, delay=20)
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    page.wait_for_function("document.querySelectorAll('.md-search-result__article:not([data-pd-tidy])').length === 0")


def test_results_show_title_tags_and_a_short_snippet_without_raw_latex(page, site_server, default_site) -> None:
    abstract = next(
        p.read_text(encoding="utf-8") for p in (default_site.docs_path / "papers").glob("rar-*.md")
    )
    assert "$\\textbf{Rubrics as Rewards" in abstract  # the page itself holds the LaTeX
    search(page, site_server.url, LATEX_QUERY)
    results = check_results(page, LATEX_TITLE)
    hit = next(r for r in results if r["title"] == LATEX_TITLE)
    assert "Rubrics as Rewards (RaR)" in hit["snippet"]  # the math, as text
    assert page.watch.errors == []


def test_a_snippet_is_cut_around_the_matched_word_far_into_an_abstract(page, site_server) -> None:
    search(page, site_server.url, "reinforcement")
    results = check_results(page)
    # Results of papers whose abstract is long: a window, never the whole abstract.
    assert any(r["snippet"].startswith("…") or r["snippet"].endswith("…") for r in results)
    assert page.watch.errors == []


def test_on_a_phone_one_result_takes_a_few_lines(phone_page, site_server) -> None:
    search(phone_page, site_server.url, "reinforcement", phone=True)
    results = check_results(phone_page)
    # Title (2 lines at most), snippet (3 lines), tags (1 line): about 200 px, never a whole screen.
    assert max(r["height"] for r in results) <= 230, [r["height"] for r in results]
    screenshot(phone_page, "search-phone")
    assert phone_page.watch.errors == []
