"""Notes after an abstract: "Code is available at ...", "Project page: ...", "REVISED: ...", notes to reviewers.

A note is part of the abstract as the digest gives it (it stays on the page and
is searched), but it says nothing about the paper's subject: it is never the
title or the summary.
"""

from __future__ import annotations

import re

_NOTE_START = re.compile(
    # Where the code or data is: "Code is available at ...", "Our code and data will be released".
    r"^\W{0,3}(?:(?:(?:our|the|all|source|project|supplementary|additional)\s+)?(?:code|codes|dataset|datasets|data|"
    r"implementation|models?|source code|demo|website|repository|benchmark|videos?|checkpoints?|"
    r"supplementary material|appendix)\b[^.]{0,80}?\b(?:available|released?|publicly|open[- ]?sourced?|"
    r"can be found|found at|accessible|downloaded|provided at|upon (?:acceptance|publication)|github|https?://)|"
    r"(?:code|data|dataset|project page|project|website|demo|github|homepage)\s*:|project page\b|"
    # Revision notes and notes to reviewers.
    r"revised\b|revision\b|updated?s?:|note:|notes? to (?:the )?reviewers|to (?:the )?reviewers|"
    r"(?:the |all |our )?changes? (?:are|is|have been) (?:marked|highlighted|colou?r)|"
    r"we (?:have )?(?:colou?r|highlight|mark)(?:ed)?(?:[- ]coded)? (?:the |all |our )?"
    r"(?:changes|revisions|modifications)|"
    r"keywords?:|index terms|this (?:paper|work) (?:has been|was|is) accepted|accepted (?:at|to|by) |"
    r"\*?\s*equal contribution|an? (?:extended|earlier|preliminary|short) version of this|"
    r"(?:see|visit) (?:our|the) (?:project|website|page)|https?://|www\.)",
    re.IGNORECASE,
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
#: A note is short; a paragraph this long is prose, whatever it starts with.
_NOTE_MAX_CHARS = 400


def is_tail_note(paragraph: str) -> bool:
    """Return True for a note after an abstract ("Code is available at ...", "REVISED: ...")."""
    text = paragraph.strip()
    return len(text) < _NOTE_MAX_CHARS and bool(_NOTE_START.match(text))


def without_tail_notes(abstract: str) -> str:
    """Return the abstract without its trailing notes, for the title and summary (all of it if nothing is left)."""
    if "\n" not in abstract:
        return abstract
    parts = [part for part in _PARAGRAPH_BREAK.split(abstract) if part.strip()]
    if len(parts) < 2 or not is_tail_note(parts[-1]):
        return abstract
    while len(parts) > 1 and is_tail_note(parts[-1]):
        parts.pop()
    return "\n\n".join(parts)
