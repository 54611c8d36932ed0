"""What a search result must look like on either engine: short snippet, no raw LaTeX, tags, a count, a few lines."""

from __future__ import annotations

import re

#: A result's snippet: "under about 200 characters".
SNIPPET_CHARS = 200
#: Raw LaTeX as a reader would see it: a command, a math delimiter.
RAW_LATEX = re.compile(r"\\[A-Za-z]+|\\[()\[\]]|\$")


def check_results(page, expect_title: str | None = None) -> list[dict]:
    """Check the results shown in the header search; return each one's title, snippet, tags and height."""
    meta = page.locator(".md-search-result__meta").inner_text()
    assert re.match(r"^\d[\d,]* matching (papers?|documents?)$", meta), meta
    results = page.evaluate(
        """() => Array.from(document.querySelectorAll('.md-search-result__item')).slice(0, 10).map(item => {
            const article = item.querySelector('.md-search-result__article');
            const title = article.querySelector('h1, h2');
            const text = Array.from(article.querySelectorAll('p')).map(p => p.innerText).join(' ');
            return {title: title ? title.innerText : '', snippet: text,
                    tags: Array.from(article.querySelectorAll('.md-tag')).map(t => t.innerText),
                    height: item.getBoundingClientRect().height, marks: article.querySelectorAll('p mark').length};
        })"""
    )
    assert results
    for result in results:
        assert len(result["snippet"]) <= SNIPPET_CHARS, result
        assert not RAW_LATEX.search(result["snippet"] + result["title"]), result
    if expect_title is not None:
        hit = next(r for r in results if r["title"] == expect_title)
        assert hit["tags"], hit  # a paper's result shows its tags
        assert hit["marks"] >= 1, hit  # and the matched word in its snippet
    return results


def pagefind_search(page, url: str, query: str, phone: bool = False, timeout: float = 10_000) -> None:
    """Type `query` in the Pagefind search box of the site at `url` and wait for its results and count."""
    page.goto(url)
    if phone:
        page.locator("label.md-header__button[for=__search]").click()
    box = page.locator("input[data-pd-query]")
    box.click()
    box.press_sequentially(query)
    page.locator(".md-search-result__item").first.wait_for(timeout=timeout)
    page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.includes('matching')")
