"""`python -m generator.build.lean_mkdocs build ...`: MkDocs' own command, holding less of the site in memory.

MkDocs reads and renders every page's Markdown before it writes the first
HTML file, and keeps each page's Markdown and HTML until the end: at 20,000
papers about a gigabyte, at 100,000 about five. Material's search plugin also
copies every page's text into its index, which a Pagefind site throws away
(build/search.py empties it). This runs the `mkdocs` command line unchanged
with one plugin more (`LeanPages`), which

- drops a page's Markdown once it is rendered, and keeps its HTML compressed
  until the page is written (a paper page's article compresses to about a third);
- with Pagefind search, leaves Material's index empty instead of filling it, and
  shares the second pass (each page through the theme, about 45% of MkDocs' time
  at 100,000 papers) among forked processes, one per core (`ForkedPages`).

The pages written are the same bytes: the plugin changes what is kept between
MkDocs' two passes, not what they produce. The project's mkdocs.yml stays
engine-neutral (Zensical reads it too): the plugin is added here, not there.
"""

from __future__ import annotations

import logging
import os
import sys
import zlib
from typing import Any

from mkdocs.commands import build as mkdocs_build
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.utils import CountHandler

#: The environment variable that names the site's search engine (engines.ENGINE_VARIABLE; not imported
#: from there so that this process imports no more than MkDocs).
_SEARCH = "PAPER_DIGEST_SEARCH"
#: Material's search plugin, by the names MkDocs may register it under.
_MATERIAL_SEARCH = ("material/search", "search")


class LeanPages(BasePlugin):
    """Keep a rendered page's HTML compressed until MkDocs writes it; drop its Markdown; skip Material's index."""

    def __init__(self) -> None:
        self._packed: dict[str, bytes] = {}
        self._last: Any = None
        #: Set when the pages are built in forked processes (`ForkedPages`).
        self.forked: ForkedPages | None = None

    def on_config(self, config: Any) -> None:
        self._packed = {}
        self._last = None

    # Last: Material's own plugins see the page's HTML as MkDocs rendered it.
    @event_priority(-100)
    def on_page_content(self, html: str, *, page: Any, config: Any, files: Any) -> str:
        # The event returns the HTML MkDocs keeps: the page before this one is emptied instead.
        self._empty_last()
        self._packed[page.file.src_uri] = zlib.compress(html.encode("utf-8"), 1)
        # Not None: MkDocs reads a page's title as None while its Markdown is None (the title comes
        # from the metadata or the rendered heading, as before).
        page.markdown = ""
        self._last = page
        return html

    def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
        self._empty_last()
        if os.environ.get(_SEARCH) == "pagefind":
            for name in _MATERIAL_SEARCH:
                plugin = config.plugins.get(name)
                index = getattr(plugin, "search_index", None)
                if index is not None:
                    # The index is written with no page in it, as search.py would leave it.
                    index.add_entry_from_context = lambda page: None
        return env

    # First: the theme and the other plugins see the page's HTML.
    @event_priority(100)
    def on_page_context(self, context: Any, *, page: Any, config: Any, nav: Any) -> Any:
        packed = self._packed.pop(page.file.src_uri, None)
        if packed is not None:
            page.content = zlib.decompress(packed).decode("utf-8")
        return context

    @event_priority(-100)
    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        page.content = None
        return output

    # First: every page is written before any other plugin's last word.
    @event_priority(100)
    def on_post_build(self, *, config: Any) -> None:
        if self.forked is not None:
            self.forked.build_all()

    def _empty_last(self) -> None:
        if self._last is not None:
            self._last.content = None
            self._last = None


#: The plugins whose pages may be built in forked processes: none of them keeps what a page's build
#: tells it (Material's search does, unless the site searches with Pagefind: see `on_env`).
_FORKABLE = {"paper-digest/lean-pages", *_MATERIAL_SEARCH}


class ForkedPages:
    """MkDocs' second pass (each page through the theme, written) shared among forked processes.

    Each page is written by its own template render, from what the first pass left: on two
    cores the second pass takes half the time. Only with Pagefind search and no plugin but
    Material's search and `LeanPages` (another plugin may keep what each page's build tells it);
    otherwise MkDocs builds the pages itself, in order.
    """

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.pages: list[tuple[Any, ...]] = []

    def collect(self, *args: Any, **kwargs: Any) -> None:
        """Stand in for MkDocs' `_build_page`: keep the page's arguments for `build_all`."""
        self.pages.append((args, kwargs))

    def build_all(self) -> None:
        """Build the collected pages, `processes` at once; a forked build's error or warning fails the build."""
        pages, self.pages = self.pages, []
        children = []
        for share in range(1, self.processes):
            pid = os.fork()
            if pid == 0:
                os._exit(_build_share(pages[share :: self.processes]))
            children.append(pid)
        failed = 0
        try:
            for args, kwargs in pages[:: self.processes]:
                _mkdocs_build_page(*args, **kwargs)
        finally:
            for pid in children:
                _, status = os.waitpid(pid, 0)
                failed = failed or os.waitstatus_to_exitcode(status)
        if failed == _WARNED:
            logging.getLogger("mkdocs.plugins.paper-digest").warning("pages built in a forked process warned (above)")
        elif failed:
            raise PluginError("a page built in a forked process failed (its error is above)")


#: A forked build's exit code when it logged a warning (strict mode fails on any).
_WARNED = 3


def _build_share(pages: list[tuple[Any, ...]]) -> int:
    """Build `pages` in this forked process; return its exit code (0, 1 on an error, `_WARNED`)."""
    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    logging.getLogger("mkdocs").addHandler(counter)
    try:
        for args, kwargs in pages:
            _mkdocs_build_page(*args, **kwargs)
    except BaseException:  # MkDocs has logged it; the parent fails the build
        return 1
    finally:
        sys.stderr.flush()
    return _WARNED if counter.get_counts() else 0


def _build_with_lean_pages(config: Any, **options: Any) -> None:
    lean = LeanPages()
    config.plugins["paper-digest/lean-pages"] = lean
    processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    if (os.environ.get(_SEARCH) == "pagefind" and set(config.plugins) <= _FORKABLE and processes > 1
            and hasattr(os, "fork")):
        lean.forked = ForkedPages(min(processes, 4))
        mkdocs_build._build_page = lean.forked.collect
    _mkdocs_build(config, **options)


# MkDocs' own functions, replaced while `main` runs. `_build_page` is internal to MkDocs: this relies on
# MkDocs being pinned (1.6.1, the last 1.x, pyproject.toml), and tests/test_lean_mkdocs.py compares every
# page with plain MkDocs' so that a change of it fails there first.
_mkdocs_build = mkdocs_build.build
_mkdocs_build_page = mkdocs_build._build_page


def main() -> None:
    """Run MkDocs' command line (`mkdocs build ...`) with `LeanPages` added to the site's plugins."""
    from mkdocs.__main__ import cli

    mkdocs_build.build = _build_with_lean_pages
    sys.argv[0] = "mkdocs"
    cli(prog_name="mkdocs")


if __name__ == "__main__":
    main()
