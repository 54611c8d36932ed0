"""Browser fixtures: a static server on 127.0.0.1 and a Chromium (see chromium.py) through playwright."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.browser.chromium import find_chromium, launch, missing_message

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep test output readable
        pass


@dataclass
class Server:
    """A static file server for one built site."""

    root: Path
    url: str
    httpd: http.server.ThreadingHTTPServer

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def serve(root: Path) -> Server:
    """Serve `root` on a free port of 127.0.0.1 in a background thread."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return Server(root, f"http://127.0.0.1:{httpd.server_address[1]}/", httpd)


@pytest.fixture(scope="session")
def site_server(default_site) -> Iterator[Server]:
    server = serve(default_site.site_path)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(pytestconfig: pytest.Config):
    from playwright.sync_api import sync_playwright

    named = pytestconfig.getoption("chromium")
    if find_chromium(named) is None:
        pytest.fail(missing_message(named), pytrace=False)
    with sync_playwright() as playwright:
        browser = launch(playwright, named)
        yield browser
        browser.close()


@dataclass
class Watch:
    """What a page did that a reader would not want: console errors, outside requests, dialogs."""

    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


@pytest.fixture
def page(browser):
    """A fresh page at desktop size that records errors, outside requests and dialogs."""
    yield from _watched(browser.new_context(viewport={"width": 1280, "height": 900}))


@pytest.fixture
def phone_page(browser):
    """A fresh page on a 390 px wide touch phone that records errors, outside requests and dialogs."""
    yield from _watched(browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True))


def _watched(context):
    page = context.new_page()
    watch = Watch()
    page.on("console", lambda m: watch.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: watch.errors.append(str(e)))
    def on_dialog(dialog) -> None:
        watch.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)

    def on_request(request) -> None:
        host = urlparse(request.url).hostname
        if request.url.startswith(("http:", "https:", "ws:", "wss:")) and host != "127.0.0.1":
            watch.outside.append(request.url)

    page.on("request", on_request)
    page.watch = watch
    yield page
    context.close()


def fetched_bytes(page) -> dict[str, int]:
    """Return a dict that fills, as `page` loads, with each URL fetched and its body's size (0 when it failed)."""
    import contextlib

    fetched: dict[str, int] = {}

    def on_response(response) -> None:
        with contextlib.suppress(Exception):  # a redirect has no body
            fetched[response.url] = len(response.body()) if response.ok else 0

    page.on("response", on_response)
    return fetched


def star_papers(page, site_url: str, records: list[dict]) -> None:
    """Star each paper (papers.json records) on its page, then open the Starred page listing them all."""
    for record in records:
        page.goto(site_url + record["url"])
        page.locator(f"button[data-pd-star='{record['id']}']").click()
    page.goto(site_url + "starred/")
    page.locator(".pd-starred__summary", has_text=f"{len(records)} starred papers").wait_for()


def screenshot(page, name: str) -> Path:
    """Save a screenshot of the page as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path
