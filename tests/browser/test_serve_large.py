"""`paper-digest serve` on a large digest (Pagefind): an edit shows in the open page and in search, built in place."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from generator.read import read_sources
from generator.read.paragraphs import PARAGRAPH_BREAK
from generator.settings import Settings
from tests.conftest import DEFAULT_CORPUS, copy_project

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAPERS = 1000
MARKER = "Zorblaxium"


def digest(edited: int | None = None) -> str:
    """Return a 1,000-abstract text digest made from the seed abstracts (varied copies), one of them edited."""
    seeds = [p.abstract.split(PARAGRAPH_BREAK)[0] for p in read_sources([DEFAULT_CORPUS], Settings()).papers]
    abstracts = []
    for n in range(PAPERS):
        text = f"{seeds[n % len(seeds)]} We also evaluate on held-out split {n // len(seeds) + 1}."
        if n == edited:
            text += f" {MARKER} closes the remaining gap."
        abstracts.append(text)
    return "Serve 2026 Papers\n\n" + "\n\n".join(abstracts) + "\n"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, predicate, seconds: float, parse=json.loads):
    """Poll `url` (a short timeout each time: the server answers nothing while it rebuilds) until
    `predicate` holds for its parsed body; return that."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                data = parse(response.read().decode("utf-8"))
            if predicate(data):
                return data
        except (OSError, ValueError):
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} did not show the change within {seconds} s")


def test_an_edited_abstract_shows_in_the_open_page_and_in_search(page, tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    source = project / "in" / "digest.txt"
    source.parent.mkdir()
    source.write_text(digest(), encoding="utf-8")
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", str(source), "--project", str(project),
         "--dev-addr", f"127.0.0.1:{port}"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        papers = wait_for(url + "papers.json", lambda data: len(data) == PAPERS, 600)
        assert (project / "site" / "pagefind" / "pagefind.js").exists()  # the site folder is what is served
        target = next(i for i, p in enumerate(papers) if p["abstract"].startswith("Large vision-language models"))
        title = papers[target]["title"]
        # The paper's own page is open while its abstract is edited.
        page.goto(url + papers[target]["url"])
        page.locator("h1", has_text=title).wait_for()

        source.write_text(digest(edited=target), encoding="utf-8")
        edited = wait_for(url + "papers.json", lambda data: MARKER in data[target]["abstract"], 300)[target]
        # The edited paper keeps its id and address (paper-digest.lock): live reload shows the edit in the
        # open page, without a click.
        assert edited["url"] == papers[target]["url"] and edited["title"] == title
        page.locator("article", has_text=MARKER).wait_for(timeout=60_000)
        assert page.url == url + papers[target]["url"]
        assert page.locator("h1").first.inner_text() == title

        # The page reloads as soon as MkDocs rewrote it; the search part with the edit moves in once Pagefind
        # has indexed it, a few seconds later: the reader searches again until it is there.
        first = page.locator(".md-search-result__item").first
        deadline = time.monotonic() + 120
        while True:
            box = page.locator("input[data-pd-query]")
            box.click()
            box.fill(MARKER)
            try:
                first.wait_for(timeout=10_000)
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                page.reload()
        assert title in first.inner_text()
        assert page.locator(".md-search-result__item").count() == 1

        # A hand-written page of the docs dir is watched too, as `mkdocs serve` would.
        (project / "site_src" / "notes.md").write_text(f"# Notes\n\nEdited during the preview: {MARKER}.\n",
                                                       encoding="utf-8")
        # A new page is served once the rebuild is done (a 404 page has no live reload to wait on). The
        # server answers no request while it rebuilds: ask over HTTP with a short timeout until the page is
        # there, then open it (a browser navigation started mid-rebuild would hang on its 30 s timeout).
        wait_for(url + "notes/", lambda html: "Edited during the preview" in html, 300, parse=str)
        # In a tab of its own: the open paper page's live reload fires after the same rebuild, and a
        # navigation in that tab can be aborted by it.
        page = page.context.new_page()
        page.goto(url + "notes/", timeout=120_000)
        page.locator("article", has_text=f"Edited during the preview: {MARKER}").wait_for(timeout=10_000)
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()
    output = (tmp_path / "serve.log").read_text(encoding="utf-8")
    assert "site rebuilt in place" in output, output[-2000:]
