"""Python-Markdown's raw-HTML block pass, without its HTML parse, for pages of whole HTML blocks and text.

Python-Markdown (with `md_in_html`, as the site's mkdocs.yml has it) runs every
page through Python's HTMLParser to find the raw HTML blocks it must keep as
they are: about 20% of MkDocs' time for a paper page, whose chips, tag
reasons, related papers, citation and source are HTML blocks (its 37 or so
tags cost more than its Markdown). A page the generator writes has a plain
shape: blocks separated by blank lines, each either text with no `<` at all,
or one HTML element from the start of its first line to the end of its last,
its tags (a short list of ordinary ones, no `markdown` attribute) nested
properly, its entities whole. For such a page `whole_blocks` returns what the
parse returns: each HTML block stored in the page's stash as it is written and
its place taken by the stash's placeholder, the text left alone. Any other page
(a comment, a script, an autolink's `<https://...>`, a bare `&name` that the
parse would turn into `&name;`, a block with text after its last tag) returns
None, and the parse runs as before. tests/test_raw_html.py compares the two on
every kind of page the generator writes and on the edge cases above.
"""

from __future__ import annotations

import re
from typing import Any

#: A blank-line separator: what ends a block (whitespace-only lines are empty after Python-Markdown's
#: NormalizeWhitespace, which runs first).
_SEPARATOR = re.compile(r"(\n(?:[ ]*\n)+)")
#: What the parse takes for a blank line after a block's end tag (markdown.htmlparser.blank_line_re).
_BLANK_LINE = re.compile(r"^([ ]*\n){2}")
#: A start or end tag with no `<` or `>` inside it (an attribute's value is escaped by the templates).
_TAG = re.compile(r"</?([a-z][a-z0-9]*)(?=[\s/>])[^<>]*>")
#: What the parse leaves as written: a whole entity or character reference, or an `&` no name follows.
_AMPERSAND = re.compile(r"&(?:[a-zA-Z][a-zA-Z0-9]*;|#[0-9]+;|#[xX][0-9a-fA-F]+;|(?![a-zA-Z#])|\Z)")
#: The tags a block may hold: paired, not void, not raw text (script, style), none of them special to the
#: parse. A page with any other tag is parsed.
_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "button", "cite", "code", "dd", "details", "div", "dl", "dt", "em",
    "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "i", "kbd", "li", "mark", "nav", "ol", "p",
    "pre", "q", "s", "section", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td",
    "th", "thead", "time", "tr", "u", "ul"
})


def whole_blocks(md: Any, lines: list[str]) -> list[str] | None:
    """Return the HTML block pass's lines for a page of the plain shape (its blocks stashed in `md`), else None.

    `md` is the page's Markdown instance: nothing is stored in its stash unless
    the whole page has the shape, so None leaves it as it was.
    """
    parts = _SEPARATOR.split("\n".join(lines))
    blocks: list[tuple[str, str, bool]] = []
    for at in range(0, len(parts), 2):
        block = parts[at]
        after = parts[at + 1] if at + 1 < len(parts) else ""
        if block.startswith("<"):
            if not _whole_element(md, block):
                return None
            blocks.append((block, after, True))
        elif "<" in block:
            return None
        else:
            blocks.append((block, after, False))
        if "&" in block and len(_AMPERSAND.findall(block)) != block.count("&"):
            return None
    out = []
    for block, after, html in blocks:
        if html:
            # The parse keeps a blank line's newline with the block when one follows its end tag.
            raw = block + "\n" if _BLANK_LINE.match(after) else block
            out.append("\n" + md.htmlStash.store(raw) + "\n\n")
        else:
            out.append(block)
        out.append(after)
    return "".join(out).split("\n")


def _whole_element(md: Any, block: str) -> bool:
    """Whether `block` is one block-level element, its tags listed and nested properly, ending the block."""
    open_tags: list[str] = []
    end = 0
    for tag in _TAG.finditer(block):
        if tag.start() != end and "<" in block[end : tag.start()]:
            return False
        text, name = tag.group(0), tag.group(1)
        if name not in _TAGS or "markdown" in text or text.endswith("/>"):
            return False
        if text.startswith("</"):
            if not open_tags or open_tags.pop() != name:
                return False
            if not open_tags and tag.end() != len(block):
                return False
        elif not open_tags and tag.start() != 0:
            return False
        else:
            open_tags.append(name)
        end = tag.end()
    return (
        not open_tags and end == len(block) and block.startswith("<")
        and md.is_block_level(_TAG.match(block).group(1))  # type: ignore[union-attr]
    )
