"""Search with Pagefind (the engine for large digests): Material's search box, chunked index."""

from __future__ import annotations

import dataclasses
import json
import types

import pytest

from generator.build import build_site
from generator.build.fragments import unbundle
from generator.pipeline import generate
from generator.settings import load_settings
from tests.browser.conftest import screenshot, serve
from tests.conftest import DEFAULT_CORPUS, copy_project

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def search(page, url: str, query: str):
    """Type `query` in the header search box of the site at `url`; return the box and the first result."""
    page.goto(url)
    box = page.locator("input[data-pd-query]")
    box.click()
    box.fill(query)
    first = page.locator(".md-search-result__item").first
    first.wait_for(timeout=10_000)
    return box, first


def open_result(page, result, paper) -> None:
    """Click a search result and check it lands on `paper`'s page, with no script error or outside request."""
    result.locator("a").first.click()
    page.wait_for_url(lambda url: f"/{paper.url}" in url, wait_until="commit")
    page.locator("h1", has_text=paper.title[:40]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []


@pytest.fixture(scope="module")
def pagefind_site(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("pagefind") / "project")
    settings = dataclasses.replace(load_settings(project), search="pagefind")
    report = generate([DEFAULT_CORPUS], settings)
    build_site(settings, report.engine)
    server = serve(settings.site_path)
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    yield settings, server, records
    server.stop()


def test_the_site_ships_a_pagefind_index_and_a_tiny_material_index(pagefind_site) -> None:
    settings, _, records = pagefind_site
    assert (settings.site_path / "pagefind" / "pagefind.js").exists()
    entry = json.loads((settings.site_path / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert sum(language["page_count"] for language in entry["languages"].values()) == len(records)
    assert not list(settings.site_path.rglob(".paper-digest*"))  # the search records are not published
    material_index = json.loads((settings.site_path / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not any(doc["location"].startswith("papers/") for doc in material_index["docs"])


def test_results_come_from_fragment_bundles_not_a_file_per_paper(page, pagefind_site) -> None:
    # Issue 43: a fragment file per paper would be 100,000 files in a 100,000-paper site.
    settings, server, records = pagefind_site
    site = settings.site_path
    assert not list(site.rglob("*.pf_fragment"))
    bundles = list((site / "pagefind" / "fragment").glob("*.pf_bundle"))
    assert 0 < len(bundles) < len(records)
    assert sum(len(unbundle(path.read_bytes())) for path in bundles) == len(records)
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    _, first = search(page, server.url, "VisionReasoner")
    target = next(r for r in records if r["title"].startswith("VisionReasoner"))
    assert target["title"] in first.inner_text()
    assert first.locator("mark").count() >= 1  # the excerpt, made from the fragment
    assert [url for url in fetched if url.endswith(".pf_bundle")]
    assert not [url for url in fetched if url.endswith(".pf_fragment")]
    open_result(page, first, types.SimpleNamespace(url=target["url"], title=target["title"]))


def test_pagefind_reads_its_filter_rewritten_in_value_order(page, pagefind_site) -> None:
    # filters.py rewrites Pagefind's filter file (sorted, renamed, the meta and entry with it): Pagefind's own
    # runtime must still count every topic's papers and search by a topic.
    _, server, records = pagefind_site
    counts: dict[str, int] = {}
    for record in records:
        for tag in record["tags"]:
            counts[tag["name"]] = counts.get(tag["name"], 0) + 1
    page.goto(server.url)
    filters, found = page.evaluate(
        """async (name) => {
            const pagefind = await import(new URL("pagefind/pagefind.js", document.baseURI).href);
            await pagefind.options({ baseUrl: new URL(".", document.baseURI).pathname, noWorker: true });
            const filters = await pagefind.filters();
            const search = await pagefind.search(null, { filters: { tag: name } });
            return [filters.tag, search.results.length];
        }""",
        max(counts, key=lambda name: (counts[name], name)),
    )
    assert filters == counts
    assert found == max(counts.values())
    assert page.watch.errors == []


def test_a_pagefind_site_never_fetches_materials_own_index(page, pagefind_site) -> None:
    _, server, _ = pagefind_site
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    search(page, server.url, "VisionReasoner")
    page.wait_for_load_state("networkidle")
    assert any("/pagefind/" in url for url in fetched)
    assert not [url for url in fetched if "/search/search_index" in url or "/workers/search" in url]
    # Pagefind searches on the page: its worker script is not downloaded.
    assert not [url for url in fetched if "pagefind-worker" in url]


def test_typing_a_method_name_shows_it_and_the_keyboard_opens_it(page, pagefind_site) -> None:
    _, server, records = pagefind_site
    target = next(r for r in records if r["title"].startswith("VisionReasoner"))
    fetched: dict[str, int] = {}

    def on_response(response) -> None:
        if "/pagefind/" in response.url:
            body = response.body() if response.ok else b""
            fetched[response.url] = len(body)

    page.on("response", on_response)
    box, first = search(page, server.url, "VisionReasoner")
    assert target["title"] in first.inner_text()
    # Only pages whose own text names it: related-paper lists and BibTeX blocks are not indexed.
    page.locator(".md-search-result__meta", has_text="matching").wait_for()
    naming = [r for r in records if "visionreasoner" in (r["title"] + " " + r["abstract"]).lower()]
    assert page.locator(".md-search-result__item").count() == len(naming)
    assert page.locator(".md-search-result__item mark").count() >= 1
    assert page.locator(".md-search-result__item h1 mark", has_text="VisionReasoner").count() >= 1
    assert page.locator(".md-search-result__item .md-tag").count() >= 1
    payload = sum(fetched.values())
    assert 0 < payload < 500_000, payload
    screenshot(page, "pagefind-search")
    box.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: f"/{target['url']}" in url, wait_until="commit")
    page.locator("h1", has_text=target["title"]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []


def test_a_query_with_no_match_says_so(page, pagefind_site) -> None:
    _, server, _ = pagefind_site
    page.goto(server.url)
    page.locator("input[data-pd-query]").click()
    page.locator("input[data-pd-query]").fill("zzxqvbnonsenseword")
    page.locator(".md-search-result__meta", has_text="No matching papers").wait_for(timeout=10_000)
    assert page.locator(".md-search-result__item").count() == 0


def test_hostile_text_in_search_results_stays_text(page, tmp_path) -> None:
    from tests.hostile_cases import hostile_digest

    project = copy_project(tmp_path / "project")
    (project / "in").mkdir()
    (project / "in" / "hostile.txt").write_text(hostile_digest(), encoding="utf-8")
    # The hostile digest holds a 1 MB abstract: past the bounds that stop a runaway paragraph.
    settings = dataclasses.replace(load_settings(project), search="pagefind", max_abstract_chars=2_000_000,
                                   max_abstract_sentences=100_000)
    report = generate([project / "in"], settings)
    build_site(settings, report.engine)
    server = serve(settings.site_path)
    try:
        page.goto(server.url)
        page.locator("input[data-pd-query]").click()
        page.locator("input[data-pd-query]").fill("alert")
        page.locator(".md-search-result__item").first.wait_for(timeout=10_000)
        page.wait_for_timeout(300)
        results = page.locator(".md-search-result__list")
        assert results.locator("script, img, iframe, svg, style, form").count() == 0
        assert "alert" in results.inner_text()
        assert page.watch.dialogs == [] and page.watch.errors == [] and page.watch.outside == []
    finally:
        server.stop()


INCREMENTAL = [
    "We introduce GRACE, a framework for contrastive policy optimization with reinforcement learning agents.",
    "We propose ReaPER, a prioritized experience replay for offline reinforcement learning agents.",
    "We study diffusion models for image generation and show that diffusion models memorize images.",
    "We present FastDiff, a distillation method for diffusion models that samples images in four steps.",
    "We introduce GraphMix, a graph neural network that mixes node features across message passing layers.",
    "We propose TabLLM, a benchmark of tabular reasoning tasks for large language models.",
]


def incremental_project(tmp_path):
    """Return a project's digest file (the INCREMENTAL abstracts) and its Pagefind settings."""
    project = copy_project(tmp_path / "project")
    source = project / "in" / "digest.txt"
    source.parent.mkdir()
    source.write_text("Incremental 2026 Papers\n\n" + "\n\n".join(INCREMENTAL), encoding="utf-8")
    return source, dataclasses.replace(load_settings(project), search="pagefind")


def test_an_edit_rebuilds_only_its_pages_and_search_finds_the_new_text(page, tmp_path) -> None:
    source, settings = incremental_project(tmp_path)
    first = generate([source], settings)
    assert not build_site(settings, first.engine).incremental
    site = settings.site_path
    built = {p: p.stat().st_mtime_ns for p in site.rglob("*.html")}

    edited_text = INCREMENTAL[2].replace("memorize images", "memorize zorblaxian training images")
    source.write_text("Incremental 2026 Papers\n\n" + "\n\n".join([*INCREMENTAL[:2], edited_text, *INCREMENTAL[3:]]),
                      encoding="utf-8")
    second = generate([source], settings)
    result = build_site(settings, second.engine)
    assert result.incremental and not result.skipped
    # The edited paper keeps its id; its old address, if the title moved it, is a redirect.
    new = next(p for p in second.papers if "zorblaxian" in p.abstract)
    old = next(p for p in first.papers if p.id == new.id)
    assert (site / new.url / "index.html").exists()
    if old.url != new.url:
        assert "http-equiv=\"refresh\"" in (site / old.url / "index.html").read_text(encoding="utf-8")
    rewritten = {site / p.removesuffix(".md") / "index.html" for p in second.render.written if p.endswith(".md")}
    untouched = [p for p in built if p.exists() and p not in rewritten and "/papers/" in p.as_posix()]
    assert untouched, "every paper page was rewritten; the test digest is too small to tell"
    assert all(p.stat().st_mtime_ns == built[p] for p in untouched), "an unchanged page was rendered again"

    server = serve(site)
    try:
        _, first_result = search(page, server.url, "zorblaxian")
        assert new.title in first_result.inner_text()
        assert page.locator(".md-search-result__item").count() == 1
        open_result(page, first_result, new)
    finally:
        server.stop()

    # A change of mkdocs.yml renders every page again.
    config = settings.resolve(settings.config_file)
    config.write_text(config.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert not build_site(settings, second.engine).incremental


def test_a_broken_link_fails_an_incremental_build_and_the_next_build_is_full(tmp_path) -> None:
    from generator.errors import DigestError

    source, settings = incremental_project(tmp_path)
    report = generate([source], settings)
    build_site(settings, report.engine)
    about = settings.docs_path / "about.md"
    text = about.read_text(encoding="utf-8")
    about.write_text(text + "\nSee [the missing page](missing.md).\n", encoding="utf-8")
    with pytest.raises(DigestError, match=r"(?s)--force.*missing\.md"):
        build_site(settings, report.engine)
    about.write_text(text, encoding="utf-8")
    assert not build_site(settings, report.engine).incremental


def test_an_incremental_build_keeps_the_index_when_no_searchable_text_changed(tmp_path) -> None:
    source, settings = incremental_project(tmp_path)
    first = build_site(settings, generate([source], settings).engine)
    assert "search" in first.timings and "mkdocs" in first.timings
    index = settings.site_path / "pagefind" / "pagefind-entry.json"
    stamp = index.stat().st_mtime_ns
    # No related papers on the pages: pages change, the search records do not.
    fewer = dataclasses.replace(settings, related_count=0)
    kept = build_site(fewer, generate([source], fewer).engine)
    assert kept.incremental and "search" not in kept.timings
    assert index.stat().st_mtime_ns == stamp
    # An edited abstract is searchable text: the index is made again.
    source.write_text(source.read_text(encoding="utf-8").replace("replay", "replay buffers"), encoding="utf-8")
    again = build_site(fewer, generate([source], fewer).engine)
    assert again.incremental and "search" in again.timings


def part_files(site) -> dict[str, dict[str, int]]:
    """Return every index part's files with their modification times, by part folder."""
    return {
        folder.name: {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}
        for folder in sorted(site.glob("pagefind*"))
    }


def test_an_index_in_parts_finds_every_part_and_an_edit_reindexes_only_its_part(page, tmp_path) -> None:
    project = copy_project(tmp_path / "project")
    source = project / "in" / "digest.txt"
    source.parent.mkdir()
    # The default corpus (57 papers) in parts of 20: pagefind/, pagefind-2/, pagefind-3/.
    settings = dataclasses.replace(load_settings(project), search="pagefind", search_part_size=20)
    report = generate([DEFAULT_CORPUS], settings)
    build_site(settings, report.engine)
    site = settings.site_path
    assert sorted(part_files(site)) == ["pagefind", "pagefind-2", "pagefind-3"]
    listing = json.loads((site / "pagefind" / "parts.json").read_text(encoding="utf-8"))
    assert listing == {"parts": ["pagefind-2/", "pagefind-3/"]}
    last = report.papers[-1]  # indexed in the third part
    server = serve(site)
    try:
        _, first = search(page, server.url, last.title)
        assert last.title in first.inner_text()
        open_result(page, first, last)
    finally:
        server.stop()

    # Edit the last paper's abstract (a text digest, so its page and search record change).
    texts = [p.abstract for p in report.papers]
    texts[-1] = texts[-1] + " We also report zorblaxian ablations."
    source.write_text("Parts 2026 Papers\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    build_site(settings, generate([source], settings).engine)
    before = part_files(site)
    texts[-1] = texts[-1].replace("zorblaxian", "quexotic")
    source.write_text("Parts 2026 Papers\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    edited = build_site(settings, generate([source], settings).engine)
    assert edited.incremental and "search" in edited.timings
    after = part_files(site)
    assert after["pagefind"] == before["pagefind"] and after["pagefind-2"] == before["pagefind-2"]
    assert after["pagefind-3"] != before["pagefind-3"]
    server = serve(site)
    try:
        _, first = search(page, server.url, "quexotic")
        assert page.locator(".md-search-result__item").count() == 1
    finally:
        server.stop()

    # Fewer papers: the third part is gone from the site and from the list.
    source.write_text("Parts 2026 Papers\n\n" + "\n\n".join(texts[:35]) + "\n", encoding="utf-8")
    shrunk = build_site(settings, generate([source], settings).engine)
    assert shrunk.incremental
    assert sorted(part_files(site)) == ["pagefind", "pagefind-2"]
    assert json.loads((site / "pagefind" / "parts.json").read_text(encoding="utf-8")) == {"parts": ["pagefind-2/"]}


def test_pagefind_results_show_title_tags_and_a_short_snippet_without_raw_latex(page, pagefind_site) -> None:
    from tests.browser.search_checks import check_results

    _settings, server, records = pagefind_site
    rar = next(r for r in records if r["title"] == "RaR: Rubrics as Rewards for Reinforcement Learning")
    assert "\\textbf" in rar["abstract"]  # its abstract holds LaTeX
    search(page, server.url, "underexplored")
    page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.includes('matching')")
    results = check_results(page, rar["title"])
    hit = next(r for r in results if r["title"] == rar["title"])
    assert "Rubrics as Rewards" in hit["snippet"]
    assert not hit["snippet"].startswith(rar["title"])  # the title is not repeated in the snippet


def test_on_a_phone_one_pagefind_result_takes_a_few_lines(phone_page, pagefind_site) -> None:
    from tests.browser.search_checks import check_results, pagefind_search

    _settings, server, records = pagefind_site
    pagefind_search(phone_page, server.url, "reinforcement learning", phone=True)
    results = check_results(phone_page)
    assert max(r["height"] for r in results) <= 230, [r["height"] for r in results]
    screenshot(phone_page, "pagefind-phone")
    # The same from a paper page's header button (a CSS icon there: overrides/lean-layout.html).
    pagefind_search(phone_page, server.url + records[0]["url"], "reinforcement learning", phone=True)
    assert check_results(phone_page) == results
    assert phone_page.watch.errors == []


#: Every frame's layout width while the search opens on a phone, for about a second.
OPENING_WIDTHS = """() => new Promise(resolve => {
    const widths = new Set(), start = performance.now();
    (function frame() {
        widths.add(Math.max(window.innerWidth, document.documentElement.scrollWidth));
        if (performance.now() - start < 900) requestAnimationFrame(frame); else resolve(Array.from(widths));
    })();
})"""


def test_on_a_phone_the_page_stays_the_phone_s_width_while_the_search_opens(phone_page, pagefind_site) -> None:
    # Material's phone search opens as a circle scaled to ~1,800 px; before the page is
    # locked it widened the layout to ~1,260 px, and results drawn then were that wide
    # (digest.css clips the body's width).
    _settings, server, records = pagefind_site
    for url in (server.url, server.url + records[0]["url"]):
        phone_page.goto(url)
        phone_page.locator("label.md-header__button[for=__search]").click()
        widths = phone_page.evaluate(OPENING_WIDTHS)
        assert widths == [390], (url, widths)
        # and the search still covers the screen, the box in reach
        assert phone_page.locator("input[data-pd-query]").is_visible()
        cover = phone_page.evaluate("document.querySelector('.md-search__inner').getBoundingClientRect().width")
        assert cover == 390, cover


def test_the_search_box_of_a_paper_page_finds_papers_and_opens_one(page, pagefind_site) -> None:
    # A paper page (overrides/lean-layout.html) has the same box; its results' frame is made by
    # assets/pagefind-search.js rather than written in each page (issue 43).
    _, server, records = pagefind_site
    start = records[0]
    target = next(r for r in records if r["title"].startswith("VisionReasoner"))
    _, first = search(page, server.url + start["url"], "VisionReasoner")
    assert target["title"] in first.inner_text()
    assert page.locator(".md-search-result__meta", has_text="matching").count() == 1
    first.locator("a").first.click()
    page.wait_for_url(lambda url: f"/{target['url']}" in url, wait_until="commit")
    page.locator("h1", has_text=target["title"]).wait_for()
    assert page.watch.errors == [] and page.watch.outside == []
