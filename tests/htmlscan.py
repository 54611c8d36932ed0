"""Read built HTML pages the way a security review would: elements, attributes, text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Page:
    """What a page holds: every element, and the elements and text of its <article>."""

    elements: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    article_elements: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    article_text: str = ""


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.depth = 0  # >0 while inside <article>
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        entry = (tag, dict(attrs))
        self.page.elements.append(entry)
        if self.depth:
            self.page.article_elements.append(entry)
            if tag not in VOID:
                self.depth += 1
        elif tag == "article":
            self.depth = 1

    def handle_endtag(self, tag):
        if self.depth and tag not in VOID:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)


def scan(path: Path) -> Page:
    """Parse one HTML file."""
    scanner = _Scanner()
    scanner.feed(path.read_text(encoding="utf-8"))
    scanner.close()
    scanner.page.article_text = "".join(scanner.text)
    return scanner.page
