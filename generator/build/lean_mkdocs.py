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
  at 100,000 papers) among forked processes, one per core (`ForkedPages`), with
  the first pass (each page's Markdown read and converted, the other 55%) of the
  pages outside the navigation: those are read by the process that writes them.

Each page's Markdown is converted with less work (lean_markdown.py). The pages
written are the same bytes: the plugin changes what is kept between MkDocs' two
passes and lean_markdown.py how a page is converted, not what they produce. The project's mkdocs.yml stays
engine-neutral (Zensical reads it too): the plugin is added here, not there.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
import tempfile
import zlib
from typing import IO, Any

from mkdocs.commands import build as mkdocs_build
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.utils import CountHandler

from . import lean_markdown

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
        self.kept = KeptFragments()

    def on_config(self, config: Any) -> None:
        self._packed = {}
        self.kept = KeptFragments()
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

    def on_nav(self, nav: Any, *, config: Any, files: Any) -> Any:
        extra = config.extra or {}
        self.kept.targets = {
            str(url).lstrip("/") for url in (
                *(getattr(item, "url", "") for item in nav.items), extra.get("homepage") or "",
                config.theme.get("logo") or "", config.theme.get("favicon") or "",
                *(entry.get("link", "") for entry in extra.get("alternate") or [] if isinstance(entry, dict)),
            )
        }
        if self.forked is not None:
            self.forked.in_nav = {id(page) for page in nav.pages}
        return nav

    def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
        self._empty_last()
        # The fragments of overrides/lean-layout.html that are the same on every page of one folder.
        env.globals["pd_kept"] = self.kept
        if os.environ.get(_SEARCH) == "pagefind":
            for name in _MATERIAL_SEARCH:
                plugin = config.plugins.get(name)
                index = getattr(plugin, "search_index", None)
                if plugin is not None and index is not None:
                    # The index is written with no page in it, as search.py would leave it.
                    index.add_entry_from_context = lambda page: None
                    _lighter_page_context(config.plugins, plugin)
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


#: What Material's search strips from each page's HTML (`data-search-*` attributes with a value), as it
#: writes it, and a part of every match of it: a page without the part has nothing to strip.
_MATERIAL_SEARCH_ATTRIBUTE = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")
_SEARCH_ATTRIBUTE_PART = re.compile(r'data-search-\w+="[^"]+"')


def _lighter_page_context(plugins: Any, search: Any) -> None:
    """Material's search `on_page_context` with its index idle: strip its attributes only from a page that has one.

    Its pattern, tried at every character of every page (about 4% of MkDocs' time at 100,000 papers),
    finds nothing in a page without `data-search-...="..."`; the page's HTML is the same.
    """
    events = plugins.events["page_context"]
    for at, method in enumerate(events):
        if getattr(method, "__self__", None) is search:

            def on_page_context(context: Any, *, page: Any, config: Any, nav: Any, plugin: Any = search) -> None:
                if plugin.config.enabled and _SEARCH_ATTRIBUTE_PART.search(page.content):
                    page.content = _MATERIAL_SEARCH_ATTRIBUTE.sub("", page.content)

            plugins._event_origins[on_page_context] = plugins._event_origins.get(method, "material/search")
            events[at] = on_page_context


class KeptFragments:
    """Theme fragments rendered once per folder and kept (`pd_kept(name, caller, url)`: overrides/lean-layout.html).

    The header, tabs and drawer of a flat nav link to the same pages from every page of one folder
    ("papers/"), relative to it: the same text, which costs about 8% of MkDocs' time rendered again on
    each of 100,000 pages. A page of another folder, or one a link of the nav or header lies inside
    (its relative link would differ from its neighbours'), has its own.
    """

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], Any] = {}
        #: The site's own addresses the fragments link to (nav, home page, logo, alternate languages).
        self.targets: set[str] = set()

    def __call__(self, name: str, caller: Any, url: str) -> Any:
        folder = url.rstrip("/").rpartition("/")[0]
        folder = folder + "/" if folder else ""
        shared = folder and not any(target.startswith(folder) and target != folder for target in self.targets)
        key = (name, folder if shared else "=" + url)
        if key not in self._kept:
            self._kept[key] = caller()
        return self._kept[key]


#: The plugins whose pages may be built in forked processes: none of them keeps what a page's build
#: tells it (Material's search does, unless the site searches with Pagefind: see `on_env`).
_FORKABLE = {"paper-digest/lean-pages", *_MATERIAL_SEARCH}


class ForkedPages:
    """MkDocs' two passes shared among forked processes, for the pages outside the navigation.

    Each page is written by its own template render, from what the first pass left: on two
    cores the second pass takes half the time. A page outside the navigation (a paper, a tag)
    is not read in the first pass either: no other page shows its title, metadata or HTML, so
    the process that writes it reads and converts its Markdown just before (`_build_pages`).
    Each process sends back the anchors of the pages it read, and the links to anchors MkDocs
    could not check (those of these pages, and those into them) are checked once all are back.
    Only with Pagefind search and no plugin but Material's search and `LeanPages` (another
    plugin may keep what each page's build tells it); otherwise MkDocs builds the pages itself,
    in order.
    """

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.pages: list[tuple[Any, ...]] = []
        #: The pages whose first pass waits for the process that writes them (their ids).
        self.unread: set[int] = set()
        #: MkDocs' settings and files, as the first pass was given them.
        self.config: Any = None
        self.files: Any = None
        self.dirty = False
        #: The pages in the navigation (`on_nav`): read in the first pass as MkDocs reads them.
        self.in_nav: set[int] = set()

    def read(self, page: Any, config: Any, files: Any, dirty: bool = False) -> None:
        """Stand in for MkDocs' `_populate_page`: a page outside the navigation is read later."""
        if id(page) in self.in_nav:
            _mkdocs_populate_page(page, config, files, dirty)
        else:
            self.unread.add(id(page))
            self.config, self.files, self.dirty = config, files, dirty

    def collect(self, *args: Any, **kwargs: Any) -> None:
        """Stand in for MkDocs' `_build_page`: keep the page's arguments for `build_all`."""
        self.pages.append((args, kwargs))

    def build_all(self) -> None:
        """Build the collected pages, `processes` at once; a forked build's error or warning fails the build."""
        pages, self.pages = self.pages, []
        children = []
        failed = 0
        anchors: dict[str, Any] = {}
        with contextlib.ExitStack() as files:
            for share in range(1, self.processes):
                found = files.enter_context(tempfile.TemporaryFile())
                pid = os.fork()
                if pid == 0:
                    os._exit(self._build_share(pages[share :: self.processes], found))
                children.append((pid, found))
            try:
                anchors.update(self._build_pages(pages[:: self.processes]))
            finally:
                for pid, found in children:
                    _, status = os.waitpid(pid, 0)
                    failed = failed or os.waitstatus_to_exitcode(status)
                    found.seek(0)
                    anchors.update(json.loads(found.read() or b"{}"))
        if failed == _WARNED:
            logging.getLogger("mkdocs.plugins.paper-digest").warning("pages built in a forked process warned (above)")
        elif failed:
            raise PluginError("a page built in a forked process failed (its error is above)")
        self._check_anchors([args[0] for args, _ in pages], anchors)

    def _build_pages(self, pages: list[tuple[Any, ...]]) -> dict[str, Any]:
        """Build `pages` (`_build_page`'s arguments), reading first those the first pass left unread.

        Return, for each page read here, its anchors and its links to anchors (`_check_anchors`).
        """
        anchors = {}
        for args, kwargs in pages:
            page = args[0]
            if id(page) in self.unread:
                _mkdocs_populate_page(page, self.config, self.files, self.dirty)
                # None: not read (a dirty build's unchanged page), so not checked, as MkDocs leaves it.
                anchors[page.file.src_uri] = (
                    None if page.present_anchor_ids is None else sorted(page.present_anchor_ids),
                    {file.src_uri: to for file, to in (page.links_to_anchors or {}).items()},
                )
            _mkdocs_build_page(*args, **kwargs)
        return anchors

    def _build_share(self, pages: list[tuple[Any, ...]], found: IO[bytes]) -> int:
        """Build `pages` in this forked process, writing their anchors to `found`; return its exit code.

        The code is 0, 1 on an error, `_WARNED` on a warning.
        """
        counter = CountHandler()
        counter.setLevel(logging.WARNING)
        logging.getLogger("mkdocs").addHandler(counter)
        try:
            found.write(json.dumps(self._build_pages(pages)).encode("utf-8"))
            found.flush()
        except BaseException:  # MkDocs has logged it; the parent fails the build
            return 1
        finally:
            sys.stderr.flush()
        return _WARNED if counter.get_counts() else 0

    def _check_anchors(self, pages: list[Any], anchors: dict[str, Any]) -> None:
        """Check the anchor links MkDocs could not check: those of the pages read late, and those into them."""
        late = [page for page in pages if id(page) in self.unread]
        for page in late:
            ids = anchors[page.file.src_uri][0]
            page.present_anchor_ids = None if ids is None else set(ids)
        for page in pages:
            if id(page) in self.unread:
                links = {self.files.get_file_from_path(uri): to for uri, to in anchors[page.file.src_uri][1].items()}
            else:  # read by MkDocs, which checked its links to the pages it had read
                links = {file: to for file, to in (page.links_to_anchors or {}).items() if id(file.page) in self.unread}
            if links:
                page.links_to_anchors = links
                page.validate_anchor_links(files=self.files, log_level=self.config.validation.links.anchors)


#: A forked build's exit code when it logged a warning (strict mode fails on any).
_WARNED = 3


def _build_with_lean_pages(config: Any, **options: Any) -> None:
    lean = LeanPages()
    config.plugins["paper-digest/lean-pages"] = lean
    processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    if (os.environ.get(_SEARCH) == "pagefind" and set(config.plugins) <= _FORKABLE and processes > 1
            and hasattr(os, "fork")):
        lean.forked = ForkedPages(min(processes, 4))
        mkdocs_build._build_page = lean.forked.collect
        mkdocs_build._populate_page = lean.forked.read
    _mkdocs_build(config, **options)


# MkDocs' own functions, replaced while `main` runs. `_build_page` and `_populate_page` are internal to
# MkDocs: this relies on MkDocs being pinned (1.6.1, the last 1.x, pyproject.toml), and
# tests/test_lean_mkdocs.py compares every page with plain MkDocs' so that a change of them fails there first.
_mkdocs_build = mkdocs_build.build
_mkdocs_build_page = mkdocs_build._build_page
_mkdocs_populate_page = mkdocs_build._populate_page


def main() -> None:
    """Run MkDocs' command line (`mkdocs build ...`) with `LeanPages` added to the site's plugins."""
    from mkdocs.__main__ import cli

    mkdocs_build.build = _build_with_lean_pages
    lean_markdown.install()
    sys.argv[0] = "mkdocs"
    cli(prog_name="mkdocs")


if __name__ == "__main__":
    main()
