"""The one-line summary shown under a title in listings, feeds, search results and the meta description.

A source's own `tldr` is used as given. Otherwise the summary is the sentence
that states what the paper does (`titles.contribution`: "We propose ...",
"This paper shows ..."), the opening sentence only when no sentence states a
contribution; a lead-in that points back at the sentence before ("To address
this issue, ", "In this paper, ") is dropped, and a sentence longer than the
limit is cut at a clause or word boundary. Pure functions of text.
"""

from __future__ import annotations

import re

from ..read.hyphenation import dehyphenate
from .titles import contribution_index, sentence_scores, sentences
from .titles.contribution import READ_SENTENCES
from .titles.model import load_model

# "To address this issue, we ...", "In this paper, we ...": the lead-in only makes sense after the sentence before.
_LEAD_IN = re.compile(
    r"^(?:[^,.;:]{0,60}?\b(?:this|these|that|those|such|end|paper|work|study|here|therefore|thus|hence|instead|"
    r"however|finally|specifically|concretely|consequently|accordingly|moreover|furthermore|additionally)\b"
    r"[^,.;:]{0,30}?),\s+(?=(?:we|this|our|here)\b)",
    re.I,
)
#: A cut at a clause boundary is taken when it keeps at least this share of the limit.
_CLAUSE_SHARE = 0.6
_CLAUSE_END = re.compile(r"[,;:]\s|\s[\u2013\u2014-]\s")


def summarize(plain: str, max_chars: int, tldr: str = "") -> str:
    """Return the one-line summary of a plain-text abstract: the source's `tldr`, else its contribution sentence."""
    if tldr.strip():
        return " ".join(tldr.split())
    # Only the opening sentences are read: a contribution comes early, and a 1 MB abstract must stay cheap.
    parts = sentences(dehyphenate(plain[: READ_SENTENCES * 400]))
    if not parts:
        return shorten(" ".join(plain.split()), max_chars)
    index = contribution_index(parts, sentence_scores(parts, load_model().sentence))
    sentence = parts[0] if index is None else _LEAD_IN.sub("", parts[index], count=1)
    first = sentence[:1].upper() if sentence[:1].isascii() else sentence[:1]  # "π³ is ..." keeps its case
    return shorten(first + sentence[1:], max_chars)


def shorten(sentence: str, max_chars: int) -> str:
    """Cut a sentence to `max_chars` at a clause boundary when one keeps most of it, else at a word boundary."""
    if len(sentence) <= max_chars:
        return sentence
    head = sentence[: max_chars - 1]
    clauses = [m.start() for m in _CLAUSE_END.finditer(head)]
    if clauses and clauses[-1] >= _CLAUSE_SHARE * max_chars:
        return head[: clauses[-1]].rstrip(" ,;:") + "…"
    return head.rsplit(" ", 1)[0].rstrip(" ,;:") + "…"
