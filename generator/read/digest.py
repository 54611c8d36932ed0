"""The plain-text digest: its paragraphs, header line and layout, and the bounds a paragraph is held to.

An optional header line names the collection ("ICLR 2026 Papers", "ICLR 2026
论文列表"); abstracts follow, separated by blank lines (each on one line or
hard-wrapped) or one abstract a line (layout.py). Pure functions of the text:
read_sources (read/__init__.py) reads the files and groups the paragraphs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..model import Problem
from .hyphenation import dehyphenate
from .layout import LONGEST, many_abstracts, one_abstract_a_line
from .metadata import name_from_stem
from .paragraphs import PARAGRAPH_BREAK

# Words after a collection name in a header line: "ICLR 2026 Papers", "... 论文列表".
_HEADER_SUFFIX = re.compile(
    r"\s*[-:–—]?\s*(?:accepted\s+)?(?:papers?|paper\s+list|abstracts?|submissions?|"
    r"digest|论文列表|论文|摘要|文章列表)\s*[:：]?\s*$",
    re.IGNORECASE,
)
_SPACE_CHARS = " \t\f\v\u00a0\u3000"
_SPACES = re.compile(f"[{_SPACE_CHARS}]+")
_HEADER_MAX_CHARS = 80


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of a digest file (a blank-line-separated block, or one line of a block written one
    abstract a line), already joined into one line."""

    text: str
    number: int
    line: int
    line_count: int = 1
    #: A line of a block written one abstract a line: an abstract as the layout says, never joined to the one before.
    alone: bool = False


def split_paragraphs(text: str, layouts: bool = True) -> list[Paragraph]:
    """Split digest text into paragraphs, joining hard-wrapped lines, or a line each where the text is
    written one abstract a line (layout.one_abstract_a_line).

    `layouts` False: the text is one abstract among many (a record of a corpus), split at blank lines only.
    """
    blocks: list[tuple[int, list[str]]] = []
    block: list[str] = []
    for number, line in enumerate([*text.split("\n"), ""], start=1):
        if line.strip(_SPACE_CHARS):  # not blank
            if not block:
                blocks.append((number, block))
            block.append(line)
        elif block:
            block = []
    paragraphs: list[Paragraph] = []
    each_line = one_abstract_a_line([b for _, b in blocks]) if layouts else [False] * len(blocks)
    for (first_line, lines), alone in zip(blocks, each_line, strict=True):
        parts = [[line] for line in lines] if alone else [lines]
        for n, part in enumerate(parts):
            paragraphs.append(Paragraph(join_lines(part), len(paragraphs) + 1, first_line + n, len(part), alone))
    return paragraphs


def join_lines(lines: list[str]) -> str:
    """Join the lines of one paragraph into a single line of text."""
    text = dehyphenate("\n".join(line.strip() for line in lines)).replace("\n", " ")
    if "  " in text or any(char in text for char in _SPACE_CHARS[1:]):
        text = _SPACES.sub(" ", text)
    return text.strip()



def collection_from_stem(stem: str) -> str:
    """Return the collection a file's name gives: "nips2016" -> "NIPS 2016" (read/metadata.py: name_from_stem)."""
    return name_from_stem(stem)


def collection_from_header(line: str) -> str | None:
    """Return the collection named by a header line, or None if it is an abstract."""
    if len(line) > _HEADER_MAX_CHARS or line.endswith((".", "。", "!", "?")):
        return None
    name = _HEADER_SUFFIX.sub("", line).strip(" -:：")
    if name != line or len(line.split()) <= 8:
        return name or None
    return None


def parse_digest(text: str, default_collection: str) -> tuple[str, list[Paragraph]]:
    """Parse digest text into its collection name and abstract paragraphs."""
    paragraphs = split_paragraphs(text)
    if paragraphs and paragraphs[0].line_count == 1:
        # A header is a lone short line; an abstract is a sentence or more.
        header = collection_from_header(paragraphs[0].text)
        if header is not None:
            return header, [replace(p, number=p.number - 1) for p in paragraphs[1:]]
    return default_collection, paragraphs


#: The median abstract's length in the corpora (layout.py): what a runaway paragraph is counted in.
_MEDIAN_CHARS = 1110


def runaway(paragraph: Paragraph, name: str, max_chars: int, max_sentences: int) -> Problem | None:
    """Return the problem of a paragraph that holds many abstracts (more than `max_chars` characters or
    `max_sentences` sentences: the settings max_abstract_chars and max_abstract_sentences); else None."""
    many = many_abstracts(paragraph.text, max_chars, max_sentences)
    if many is None:
        return None
    guess = max(2, round(len(paragraph.text) / _MEDIAN_CHARS))
    return Problem("error", name, paragraph.line, f"paragraph {paragraph.number} is {many}, about {guess:,} "
                   f"abstracts ({LONGEST}): abstracts need a blank line, or a line each, between them (or raise "
                   "max_abstract_chars, max_abstract_sentences)", kind="too-long", lost=guess)


def within_bounds(
    groups: list[list[int]], joins: list, texts: list[str], max_chars: int, max_sentences: int, alone: set[int],
) -> tuple[list[list[int]], list]:
    """Undo the joins of a group whose abstract would be past the bounds (its paragraphs stand alone), and
    the joins of the paragraphs in `alone` (one abstract a line: each starts its own group)."""
    undone: set[int] = set()
    bounded: list[list[int]] = []
    for whole in groups:
        cuts = [n for n, index in enumerate(whole) if n and index in alone]
        undone.update(whole[n] for n in cuts)
        for indexes in (whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)):
            joined = PARAGRAPH_BREAK.join(texts[i] for i in indexes)
            if len(indexes) > 1 and many_abstracts(joined, max_chars, max_sentences):
                bounded.extend([i] for i in indexes)
                undone.update(indexes[1:])
            else:
                bounded.append(indexes)
    return bounded, [joined for joined in joins if joined.index not in undone]
