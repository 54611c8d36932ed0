"""A site published below a sub-path (a pull request's preview at /pr-preview/pr-1/) works there.

The site is served by a local server at /pr-preview/pr-1/ (what is not found there gets the
site's 404 page, as a host serving the folder would), with `site_url` naming that address, as
the preview workflow builds it. Both search engines: Material's on the default digest, Pagefind
on a digest of 570 papers (the default one ten times, each copy a little different).
"""

from __future__ import annotations

import dataclasses
import functools
import http.server
import json
import threading
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from generator.build import build_site
from generator.pipeline import generate
from generator.settings import load_settings
from tests.browser.conftest import screenshot
from tests.conftest import DEFAULT_CORPUS, copy_project
from tests.htmlscan import scan
from tests.test_links import broken_links

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PREFIX = "/pr-preview/pr-1/"
SITE_URL = f"https://previews.example.org{PREFIX}"


class _SubPathHandler(http.server.SimpleHTTPRequestHandler):
    """Serve the site only below PREFIX; anything not found there gets the site's 404.html, status 404."""

    site: Path

    def translate_path(self, path: str) -> str:
        path = urlparse(path).path
        if not path.startswith(PREFIX):
            return str(self.site / "no-such-file")
        return super().translate_path("/" + path[len(PREFIX):])

    def send_error(self, code, message=None, explain=None) -> None:
        if code != 404:
            return super().send_error(code, message, explain)
        body = (self.site / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def serve_below(site: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    handler = type("Handler", (_SubPathHandler,), {"site": site})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}{PREFIX}", httpd


def varied_default_digest(copies: int) -> str:
    """Return the default corpus `copies` times as one text digest, each copy's abstracts a little different."""
    abstracts = [p for f in sorted(DEFAULT_CORPUS.glob("*.txt")) for p in f.read_text(encoding="utf-8").split("\n\n")[1:]
                 if p.strip()]
    texts = [" ".join(a.split()) + (f" We also evaluate on held-out split {n}." if n else "")
             for n in range(copies) for a in abstracts]
    return "Preview 2026 Papers\n\n" + "\n\n".join(texts) + "\n"


@pytest.fixture(scope="module", params=["material", "pagefind"])
def preview(request, tmp_path_factory):
    """A site built with site_url below PREFIX and served there: (settings, base URL, papers.json records)."""
    project = copy_project(tmp_path_factory.mktemp(f"subpath-{request.param}") / "project")
    settings = dataclasses.replace(load_settings(project), site_url=SITE_URL)
    if request.param == "pagefind":
        (project / "in").mkdir()
        (project / "in" / "digest.txt").write_text(varied_default_digest(10), encoding="utf-8")
        sources = [project / "in"]
    else:
        sources = [DEFAULT_CORPUS]
    report = generate(sources, settings)
    assert report.engine == request.param  # "auto": Pagefind from 500 papers
    build_site(settings, report.engine)
    url, httpd = serve_below(settings.site_path)
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    yield settings, url, records
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def failures(page) -> list[str]:
    """Every response of the page that failed (404 and the like)."""
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return failed


def test_every_link_resolves_and_every_absolute_path_stays_below_the_sub_path(preview) -> None:
    settings, _, _ = preview
    checked, broken = broken_links(settings.site_path, PREFIX)
    assert checked > 500 and broken == []
    outside = sorted({
        f"{page.relative_to(settings.site_path)}: {value}"
        for page in [settings.site_path / "404.html", settings.site_path / "index.html"]
        for _, attrs in scan(page).elements
        for name in ("href", "src")
        if (value := attrs.get(name) or "").startswith("/") and not value.startswith(PREFIX)
    })
    assert outside == []


def test_pages_and_search_work_below_the_sub_path(page, preview, failures) -> None:
    settings, url, records = preview
    target = next(r for r in records if r["title"].startswith("VisionReasoner"))
    page.goto(url)
    page.locator("a.md-tabs__link", has_text="Topics").click()
    page.wait_for_url(url + "tags/")
    page.goto(url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    # Key by key: Material's search reads the box on keyup (see test_reader.py).
    page.locator("input.md-search__input").press_sequentially("VisionReasoner")
    result = page.locator(".md-search-result__item a", has_text="VisionReasoner").first
    result.wait_for(timeout=15_000)
    screenshot(page, f"subpath-search-{settings.search_engine(len(records))}")
    result.click()
    page.wait_for_url(lambda u: PREFIX + "papers/visionreasoner" in u, wait_until="commit")
    page.locator("h1", has_text=target["title"][:30]).wait_for()
    # The paper page's own links (tags, related papers, collection) stay below the sub-path.
    page.locator("article a.pd-tag").first.click()
    page.wait_for_url(lambda u: PREFIX + "tags/" in u, wait_until="commit")
    assert page.watch.errors == [] and page.watch.outside == [] and failures == []


def test_the_map_the_filter_and_stars_work_below_the_sub_path(page, preview, failures) -> None:
    _, url, records = preview
    page.goto(url + "map/")
    page.wait_for_function("window.pdMap !== undefined")
    assert page.evaluate("window.pdMap.visibleCount()") == len(records)
    tag = records[0]["tags"][0]
    page.goto(url + f"filter/#all={tag['slug']}")
    page.locator(".pd-filter__results li a").first.wait_for()
    link = page.locator(".pd-filter__results li a").first.get_attribute("href") or ""
    assert link.startswith(PREFIX) or not link.startswith("/")
    chosen = records[:2]
    for record in chosen:
        page.goto(url + record["url"])
        page.locator(f"button[data-pd-star='{record['id']}']").click()
    page.goto(url + "starred/")
    page.locator(".pd-starred__summary", has_text="2 starred papers").wait_for()
    page.locator(".pd-starred ol li a").first.click()
    page.wait_for_url(lambda u: PREFIX + "papers/" in u, wait_until="commit")
    assert page.watch.errors == [] and page.watch.outside == [] and failures == []


def test_feeds_are_found_below_the_sub_path_and_link_its_pages(page, preview, failures) -> None:
    _, url, _ = preview
    page.goto(url)
    feed = page.locator("link[rel=alternate][type='application/atom+xml']").first.get_attribute("href")
    response = page.request.get(urljoin(page.url, feed))
    assert response.ok and b"<feed" in response.body()
    import feedparser

    parsed = feedparser.parse(response.body())
    assert parsed.entries
    for entry in parsed.entries[:5]:
        # Absolute links at the published address; the same path below the local server has the page.
        assert entry.link.startswith(SITE_URL)
        assert page.request.get(url + entry.link[len(SITE_URL):]).ok
    assert failures == []


def test_the_404_page_below_the_sub_path_has_its_styles_and_leads_home(page, preview, failures) -> None:
    _, url, _ = preview
    response = page.goto(url + "papers/no-such-paper/")
    assert response is not None and response.status == 404
    page.locator("h1", has_text="404").wait_for()
    screenshot(page, "subpath-404")
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in ("sticky", "fixed")
    page.locator("a.md-tabs__link", has_text="Home").click()
    page.wait_for_url(url)
    # Only the missing page itself failed (Chromium logs its 404 to the console too).
    assert failures == [f"404 {url}papers/no-such-paper/"]
    assert page.watch.errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]
