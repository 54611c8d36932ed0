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
None, and the parse runs as before. tests/test_lean_markdown.py compares the two on
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
#: A start or end tag, its quotes paired and no `<` or `>` inside it (the templates escape an attribute's
#: value): where it ends is where Python's HTMLParser ends it. A quote left open (HTMLParser's tag would run
#: on past the `>`, into the next block) or any `<` or `>` in a value does not match, and the page is parsed.
_TAG = re.compile(r"""</?([a-z][a-z0-9]*)(?=[\s/>])(?:[^<>"']|"[^"<>]*"|'[^'<>]*')*>""")
#: An `id` (or `<a name>`) attribute, where MkDocs' anchor collector finds one, in a start tag's text.
_ANCHOR_ATTRIBUTE = re.compile(r"""['"\s/](?:id|name)(?:[\s/=>]|$)""", re.IGNORECASE)
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
#: Void tags a block may hold inside its element (a listing's `<br>`): the parse keeps them open until
#: the element that holds them closes, which is where the scan leaves them.
_VOID = frozenset({"br", "wbr"})


#: A page's blocks (its text, the separator after it, its element's name or "" for text) and its start
#: tags' texts.
Shape = tuple[list[tuple[str, str, str]], list[str]]


def whole_blocks(md: Any, lines: list[str]) -> list[str] | None:
    """Return the HTML block pass's lines for a page of the plain shape (its blocks stashed in `md`), else None.

    `md` is the page's Markdown instance: nothing is stored in its stash unless
    the whole page has the shape, so None leaves it as it was.
    """
    shape = plain_shape("\n".join(lines))
    # (an element that is not block-level starting a line is inline text to the parse)
    if shape is None or not all(md.is_block_level(name) for _, _, name in shape[0] if name):
        return None
    out = []
    for block, after, name in shape[0]:
        if name:
            # The parse keeps a blank line's newline with the block when one follows its end tag.
            raw = block + "\n" if _BLANK_LINE.match(after) else block
            out.append("\n" + md.htmlStash.store(raw) + "\n\n")
        else:
            out.append(block)
        out.append(after)
    return "".join(out).split("\n")


def anchor_free(text: str) -> bool | None:
    """Whether a page of the plain shape has no `id` or `name` attribute in its tags (None: not that shape).

    MkDocs collects a page's anchors from those attributes with an HTML parse of
    the whole page; in a page of the plain shape every tag is one `_TAG` found,
    so the tags' own text is all there is to look at.
    """
    shape = plain_shape(text)
    if shape is None:
        return None
    # (one search over the tags joined by a newline: no tag's text starts with a name an attribute could have)
    return _ANCHOR_ATTRIBUTE.search("\n".join(shape[1])) is None


#: The last page's shape: MkDocs' anchor pass and the block pass ask in turn about the same text.
_last: list[tuple[str, Shape | None]] = []


def plain_shape(text: str) -> Shape | None:
    """Return the blocks and start tags of a page of the plain shape, or None for any other page."""
    if _last and _last[0][0] == text:
        return _last[0][1]
    shape = _shape(text)
    _last[:] = [(text, shape)]
    return shape


def _shape(text: str) -> Shape | None:
    parts = _SEPARATOR.split(text)
    blocks: list[tuple[str, str, str]] = []
    starts: list[str] = []
    for at in range(0, len(parts), 2):
        block = parts[at]
        after = parts[at + 1] if at + 1 < len(parts) else ""
        if block.startswith("<"):
            name = _whole_element(block, starts)
            if not name:
                return None
            blocks.append((block, after, name))
        elif "<" in block:
            return None
        else:
            blocks.append((block, after, ""))
        if "&" in block and len(_AMPERSAND.findall(block)) != block.count("&"):
            return None
    return blocks, starts


def _whole_element(block: str, starts: list[str]) -> str:
    """Return the name of the one element `block` is, its tags listed and nested properly, ending the block.

    "" when it is not. Its start tags' texts are added to `starts`.
    """
    open_tags: list[str] = []
    first = ""
    end = 0
    for tag in _TAG.finditer(block):
        if tag.start() != end and "<" in block[end : tag.start()]:
            return ""
        text, name = tag.group(0), tag.group(1)
        if name in _VOID and open_tags and not text.startswith("</") and not text.endswith("/>"):
            starts.append(text)
        elif name not in _TAGS or "markdown" in text or text.endswith("/>"):
            return ""
        elif text.startswith("</"):
            if not open_tags or open_tags.pop() != name:
                return ""
            if not open_tags and tag.end() != len(block):
                return ""
        elif not open_tags and tag.start() != 0:
            return ""
        else:
            first = first or name
            open_tags.append(name)
            starts.append(text)
        end = tag.end()
    return first if not open_tags and end == len(block) else ""
