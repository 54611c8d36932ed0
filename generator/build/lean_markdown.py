"""MkDocs' conversion of a page's Markdown with less work, the same HTML (run by lean_mkdocs.py).

At 20,000 papers MkDocs spends about half its time converting pages, and a
paper page costs more in passes around its Markdown than in the Markdown:

- MkDocs' anchor collector parses the whole page with Python's HTMLParser only
  to find `id` and `<a name>` attributes, which a paper page has none of;
- `md_in_html`'s raw-HTML block pass parses it again to find the HTML blocks
  (raw_html.py finds them in a page of whole blocks and plain text by a scan);
- a `Markdown` instance, with every extension, is built for each page (about 7%
  of MkDocs' time): one instance is kept and reset between pages instead, when
  every extension of the site is one whose reset is known to clear its state.

`install()` puts them in place of MkDocs' and Python-Markdown's own functions
(internal to both: MkDocs is pinned, 1.6.1, the last 1.x, and Python-Markdown
with it). tests/test_lean_markdown.py compares each pass with the original on every
page the generator writes, and a whole site with plain MkDocs' bytes.
"""

from __future__ import annotations

import re
from typing import Any

import markdown
from markdown.extensions import md_in_html
from mkdocs.structure import pages as mkdocs_pages
from mkdocs.structure.toc import get_toc

from .raw_html import anchor_free, whole_blocks

#: An `id` or `name` attribute as Python's HTMLParser finds one (after a quote, space or slash, before a
#: space, slash, `=` or `>`): a page without one anywhere has no anchor of its own in its HTML.
_ANCHOR_ATTRIBUTE = re.compile(r"""(?:^|['"\s/])(?:id|name)(?:[\s/=>]|$)""", re.IGNORECASE)

#: Extensions whose state a `Markdown.reset()` clears (or that keep none between pages): a site with
#: only these converts every page with one instance. MkDocs adds the first three to any site's.
REUSABLE_EXTENSIONS = frozenset({
    "toc", "tables", "fenced_code", "admonition", "attr_list", "md_in_html",
    "pymdownx.details", "pymdownx.escapeall", "pymdownx.arithmatex",
})

_mkdocs_raw_html_run = mkdocs_pages._RawHTMLPreprocessor.run
_markdown_html_blocks_run = md_in_html.HtmlBlockPreprocessor.run
_mkdocs_render = mkdocs_pages.Page.render


def install() -> None:
    """Put this module's passes in place of MkDocs' and Python-Markdown's, for the rest of the process."""
    mkdocs_pages._RawHTMLPreprocessor.run = raw_html_anchors  # type: ignore[method-assign]
    md_in_html.HtmlBlockPreprocessor.run = html_blocks
    mkdocs_pages.Page.render = render  # type: ignore[method-assign]


def raw_html_anchors(self: Any, lines: list[str]) -> list[str]:
    """MkDocs' collector of the anchors a page's raw HTML defines, without its HTML parse when there are none.

    A page of whole HTML blocks and plain text (raw_html.py) has none when its
    tags have none; any other page has none when its text has nothing an
    attribute so named could be. Else MkDocs' own parse runs.
    """
    text = "\n".join(lines)
    free = anchor_free(text)
    if free or (free is None and _ANCHOR_ATTRIBUTE.search(text) is None):
        self.present_anchor_ids = set()
        return lines
    return _mkdocs_raw_html_run(self, lines)


def html_blocks(self: Any, lines: list[str]) -> list[str]:
    """`md_in_html`'s raw-HTML block pass, without its HTML parse for a page of whole blocks (raw_html.py)."""
    done = whole_blocks(self.md, lines)
    return _markdown_html_blocks_run(self, lines) if done is None else done


#: The instance kept for the site's settings: (the settings' extensions and their configs, the instance).
_kept: list[tuple[Any, markdown.Markdown]] = []


def render(self: Any, config: Any, files: Any) -> None:
    """MkDocs' `Page.render` (1.6.1), with one `Markdown` instance for every page when the extensions allow.

    The page's own processors (its anchors, links and title) replace the last
    page's under the same names, and the instance is reset before each page.
    """
    extensions = config["markdown_extensions"]
    if not all(isinstance(name, str) and name in REUSABLE_EXTENSIONS for name in extensions):
        _mkdocs_render(self, config, files)
        return
    if self.markdown is None:
        raise RuntimeError("`markdown` field hasn't been set (via `read_source`)")
    settings = (list(extensions), repr(config["mdx_configs"] or {}))
    if not _kept or _kept[0][0] != settings:
        _kept[:] = [(settings, markdown.Markdown(extensions=extensions, extension_configs=config["mdx_configs"] or {}))]
    md = _kept[0][1].reset()

    raw_html_ext = mkdocs_pages._RawHTMLPreprocessor()
    raw_html_ext._register(md)
    extract_anchors_ext = mkdocs_pages._ExtractAnchorsTreeprocessor(self.file, files, config)
    extract_anchors_ext._register(md)
    relative_path_ext = mkdocs_pages._RelativePathTreeprocessor(self.file, files, config)
    relative_path_ext._register(md)
    extract_title_ext = mkdocs_pages._ExtractTitleTreeprocessor()
    extract_title_ext._register(md)

    self.content = md.convert(self.markdown)
    self.toc = get_toc(getattr(md, "toc_tokens", []))
    self._title_from_render = extract_title_ext.title
    self.present_anchor_ids = extract_anchors_ext.present_anchor_ids | raw_html_ext.present_anchor_ids
    if mkdocs_pages.log.getEffectiveLevel() > mkdocs_pages.logging.DEBUG:
        self.links_to_anchors = relative_path_ext.links_to_anchors
