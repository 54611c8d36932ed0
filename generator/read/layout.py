"""How a plain-text digest lays out its abstracts, and what no single abstract ever looks like.

Three layouts are read: abstracts separated by blank lines, each on one line
or hard-wrapped over several; and one abstract a line with no blank line
between them. The lines of a block (lines with no blank line between them)
are joined into one paragraph, as hard wraps and the line breaks some
abstracts hold, unless the block is one abstract a line: mostly lines wider
than any hard wrap, and the whole file (no blank-line structure), or more lines
than any real abstract holds, or too long to be one abstract.

The bounds are measured on the 104,015 abstracts of ../shared/corpora (the
four files, run `python bench/abstract_bounds.py`): the median abstract has
1,110 characters and 7 sentences, the 99.99th percentile 3,290 and 22; real
abstracts have at most 4,650 characters and at most 35 sentences (one record of
16,262 characters and 179 sentences is a whole paper extracted by mistake);
99.9% are longer than 269 characters, none shorter than 200.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: A line at least this long is not a hard-wrapped line (wraps are 60-130 characters; 99.9% of the
#: corpora's abstracts are longer than 269 characters, so one abstract a line gives such lines).
LONG_LINE = 200
#: A block of mostly long lines with at least this many lines is one abstract a line: real abstracts
#: break a block over at most 8 such lines (711 of the corpora's abstracts have 2 to 8).
MANY_LINES = 10
#: A block of lines longer than this, or with more sentences, is too long to be one abstract (over twice
#: the longest real abstract, 4,650 characters; 1.7 times the most sentences of one, 35). A paragraph is
#: held to the settings max_abstract_chars and max_abstract_sentences.
MAX_CHARS = 10_000
MAX_SENTENCES = 60
#: What the corpora's longest abstract measures, for the error that names the bound.
LONGEST = "the 104,015 real abstracts measured have at most 4,650 characters and 35 sentences"

_END_MARKS = ".!?\u3002\uff01\uff1f"
_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f]+(?=[\s\"')\]\u201d\u2019]|$)")
_FIRST_CASED = re.compile(r"[^\W\d_]")


def sentence_count(text: str) -> int:
    """Return the sentences of `text`, counted by their ends (as bench/abstract_bounds.py counts them)."""
    return len(_SENTENCE_END.findall(text))


def many_abstracts(text: str, max_chars: int = MAX_CHARS, max_sentences: int = MAX_SENTENCES) -> str | None:
    """Return why a text holds many abstracts (more than `max_chars` characters or `max_sentences`
    sentences), or None."""
    if len(text) > max_chars:
        return f"{len(text):,} characters long"
    # Counting the end marks first is a hundred times quicker, and almost no abstract has 60 of them.
    if sum(text.count(mark) for mark in _END_MARKS) > max_sentences and (count := sentence_count(text)) > max_sentences:
        return f"{count:,} sentences long"
    return None


def _mostly_long(lines: Sequence[str]) -> bool:
    return len(lines) > 1 and sum(len(line.strip()) >= LONG_LINE for line in lines) * 2 > len(lines)


def one_abstract_a_line(blocks: Sequence[Sequence[str]]) -> list[bool]:
    """Return, for each block of a file's lines (lines with no blank line between them), whether it is
    written one abstract a line; else its lines are one paragraph.

    A block of mostly long lines is, when it is the file's only block of more than one short line (no
    blank-line structure), or has MANY_LINES lines or more, or is too long for one abstract together.
    """
    body = [block for block in blocks if len(block) > 1 or len(block[0].strip()) >= LONG_LINE]
    return [
        _mostly_long(block)
        and (len(body) == 1 or len(block) >= MANY_LINES or many_abstracts(" ".join(block)) is not None)
        for block in blocks
    ]


def has_case(paragraphs: Sequence[str]) -> bool:
    """Return False when a digest's paragraphs start in lower case as often as not (a source with no case).

    Then a lowercase start says nothing about a paragraph going on from the one before.
    """
    upper = lower = 0
    for text in paragraphs:
        match = _FIRST_CASED.search(text[:20])
        if match is None:
            continue
        letter = match.group(0)
        upper += letter.isupper()
        lower += letter.islower()
    return upper >= lower
