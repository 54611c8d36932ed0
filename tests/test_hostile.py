"""The hostile corpus builds into an inert site: nothing in an abstract becomes markup."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from generator.text import to_plain
from tests.hostile_cases import FIELD_ATTACKS, cases, hostile_records
from tests.htmlscan import scan

pytestmark = pytest.mark.slow

# What content may produce inside <article>: paragraphs, links, emphasis, math spans,
# and the page's own structure (headings, tag chips, admonitions, details, lists, the BibTeX block).
ALLOWED_IN_ARTICLE = {
    "h1", "h2", "p", "a", "strong", "em", "span", "div", "ul", "li", "details", "summary", "pre", "code", "button",
}
UNSAFE_URL = re.compile(r"^\s*(?:javascript|data|vbscript):", re.I)


@pytest.fixture(scope="module")
def site(hostile_site):
    return hostile_site


def page_of(settings, record) -> Path:
    return settings.site_path / record["url"] / "index.html"


def test_every_case_gets_a_page(site) -> None:
    _, report, records = site
    assert len(records) == len(cases()) + len(hostile_records()) >= 40
    assert not [p for p in report.problems if p.level != "info"]


def test_pages_carry_only_the_themes_own_scripts(site) -> None:
    settings, _, records = site
    baseline = scan(settings.site_path / "about" / "index.html")
    theme_scripts = scripts_of(baseline)
    # A paper page (overrides/lean-layout.html) loads the storage helpers and the palette script from
    # files instead of inline, and has no content tabs to open (the theme's third inline script).
    assert theme_scripts.count(("", "", "")) == 3
    theme_scripts = [script for script in theme_scripts if script != ("", "", "")]
    theme_scripts = sorted([*theme_scripts, ("assets/palette.js", "", ""), ("assets/scope.js", "", "")])
    for record in records:
        assert scripts_of(scan(page_of(settings, record))) == theme_scripts, record["title"]


def scripts_of(page) -> list[tuple[str, str, str]]:
    """Return a page's script elements as (src without ../ prefixes, type, id)."""
    return sorted(
        (re.sub(r"^(?:\.\./)+", "", a.get("src") or ""), a.get("type") or "", a.get("id") or "")
        for tag, a in page.elements
        if tag == "script"
    )


def test_no_event_handlers_or_unsafe_urls_anywhere(site) -> None:
    settings, _, records = site
    for record in records:
        for tag, attrs in scan(page_of(settings, record)).elements:
            for name, value in attrs.items():
                assert not name.lower().startswith("on"), (record["title"], tag, name)
                if name in ("href", "src", "action", "formaction", "data", "xlink:href"):
                    assert not UNSAFE_URL.match(value or ""), (record["title"], tag, value)


def test_content_injects_no_element(site) -> None:
    settings, _, records = site
    for record in records:
        tags = {tag for tag, _ in scan(page_of(settings, record)).article_elements}
        assert tags <= ALLOWED_IN_ARTICLE, (record["title"], tags - ALLOWED_IN_ARTICLE)


def test_template_syntax_is_shown_literally_and_never_evaluated(site) -> None:
    settings, _, records = site
    by_case = {r["abstract"][:7]: r for r in records}
    text = scan(page_of(settings, by_case["Case 14"])).article_text
    assert "{{ 7*7 }}" in text and "49" not in text
    text = scan(page_of(settings, by_case["Case 15"])).article_text
    assert "{% raw %}{{ config }}{% endraw %}" in text


def test_markup_in_text_is_visible_as_text(site) -> None:
    settings, _, records = site
    by_case = {r["abstract"][:7]: r for r in records}
    assert '<script>alert("xss")</script>' in scan(page_of(settings, by_case["Case 01"])).article_text
    assert "<EOS>" in scan(page_of(settings, by_case["Case 06"])).article_text
    # Entities are decoded once: "&amp;lt;b&amp;gt;" shows as "&lt;b&gt;".
    assert "&lt;b&gt;" in scan(page_of(settings, by_case["Case 08"])).article_text
    assert "# Heading attempt" in scan(page_of(settings, by_case["Case 17"])).article_text


def test_every_cases_visible_words_are_on_its_page(site) -> None:
    settings, _, records = site
    for record in records:
        page = unicodedata.normalize("NFC", scan(page_of(settings, record)).article_text)
        words = set(re.findall(r"[A-Za-z0-9]{2,}", to_plain(record["abstract"])))
        missing = sorted(w for w in words if w not in page)
        assert not missing, (record["title"], missing[:10])


def test_titles_and_slugs_stay_short_and_safe(site) -> None:
    _, _, records = site
    for record in records:
        assert len(record["title"]) <= 111
        assert re.fullmatch(r"[a-z0-9-]{1,70}", record["slug"]), record["slug"]
        assert not any(ch in record["title"] for ch in "\x00\u202e\u2066\u200b")


def test_bidi_and_control_characters_are_removed(site) -> None:
    settings, _, records = site
    for record in records:
        text = scan(page_of(settings, record)).article_text
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]", text), record["title"]


def listing_pages(settings) -> list[Path]:
    """Return every built tag and collection listing page (their entries are written as escaped HTML)."""
    site = settings.site_path
    return sorted(
        p for p in [*(site / "tags").rglob("index.html"), *(site / "collections").rglob("index.html")]
        if p.parent not in (site / "tags", site / "collections")
    )


def test_listing_pages_show_hostile_titles_and_summaries_as_text_only(site) -> None:
    settings, _, records = site
    pages = listing_pages(settings)
    assert pages
    shown = ""
    for path in pages:
        page = scan(path)
        # Listings also break an entry's lines (title, summary, tags).
        assert {tag for tag, _ in page.article_elements} <= ALLOWED_IN_ARTICLE | {"br"}, path
        for tag, attrs in page.elements:
            assert not [name for name in attrs if name.lower().startswith("on")], (path, tag)
            assert not UNSAFE_URL.match(attrs.get("href") or ""), (path, tag)
        shown += page.article_text
    shown = " ".join(shown.split())
    for record in records:
        assert " ".join(record["title"].split()) in shown, record["title"]
    assert "{{ 7*7 }}" in shown and "<script>" in shown  # template syntax and markup stay literal text


def field_pages(settings, records) -> list[tuple[int, dict, Path]]:
    """Return (number, papers.json record, built page) of each record whose given fields attack."""
    pages = []
    for record in records:
        match = re.match(r"Field (\d\d) ", record["abstract"])
        if match:
            pages.append((int(match.group(1)), record, page_of(settings, record)))
    return sorted(pages, key=lambda page: page[0])


def test_given_fields_show_as_text_in_the_html_a_paper_page_writes(site) -> None:
    # Authors, tag chips, the "Why these tags?" note, the citation block and the source list are
    # HTML the generator escapes itself: each attack shows there as the text it is, and adds no element.
    settings, _, records = site
    pages = field_pages(settings, records)
    assert len(pages) == len(FIELD_ATTACKS)
    for number, record, path in pages:
        attack = FIELD_ATTACKS[number - 1]
        page = scan(path)
        assert {tag for tag, _ in page.article_elements} <= ALLOWED_IN_ARTICLE, (number, attack)
        text = page.article_text
        # The fields as the reader kept them (it drops Markdown emphasis from authors' names).
        for shown in (
            ", ".join(record["authors"]),  # the authors line
            f"Keywords: {', '.join(record['keywords'])}",  # the source list
            f"Area given by the source: area {attack}",
            f"Source id: {attack} id{number}",
            "author = {",  # the citation block
        ):
            assert shown in text, (number, shown)
        assert record["title"] in text
        assert f"Link: {record['source_url']}" in text
        links = [a["href"] for tag, a in page.article_elements if tag == "a" and (a.get("href") or "").startswith("http")]
        # The link is percent-encoded: a quote in it cannot end the attribute.
        assert links == [f"https://example.com/{number}?q=%22onmouseover='alert({number})'&x=1"], links


def test_a_topic_named_by_a_hostile_keyword_is_text_in_chips_notes_and_related_lists(site) -> None:
    settings, _, records = site
    pages = field_pages(settings, records)
    name = f"Shared {FIELD_ATTACKS[0]} keyword"
    carrying = 0
    for number, record, path in pages:
        page = scan(path)
        chips = [a for tag, a in page.article_elements if tag == "a" and "pd-tag" in (a.get("class") or "")]
        carrying += any(tag["name"] == name for tag in record["tags"])
        assert chips, number
        assert all((a.get("title") or "").count('"') == 0 for a in chips)
        # Every topic, the shared hostile one and those cut from each record's own keyword, is text.
        for tag in record["tags"]:
            if tag["kind"] == "topic":
                assert f"{tag['name']} (topic, confidence" in page.article_text, (number, tag["name"])
    # The shared keyword names a topic of three papers or more.
    assert carrying >= 3, carrying
    # The records resemble each other: their pages list one another's hostile titles as text.
    by_id = {record["id"]: record for record in records}
    listed = 0
    for number, record, path in pages:
        text = scan(path).article_text
        for other in record["related"]:
            assert by_id[other]["title"] in text, (number, by_id[other]["title"])
            listed += by_id[other]["abstract"].startswith("Field ")
    assert listed
