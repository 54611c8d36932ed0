"""Undo the word splits that PDF extraction leaves in abstracts.

"generaliza- tion" becomes "generalization", "multi- modal" becomes
"multi-modal", and "pre- and post-training" stays as written.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

# A hyphen followed by spaces or a line break, between two runs of letters.
_SPLIT = re.compile(r"\b([^\W\d_]+)-[ \t]*(?:\n[ \t]*)?(?<=[ \t\n])([^\W\d_]+)")

# Words that follow a suspended hyphen ("pre- and post-training"): keep as written.
_SUSPENDERS = frozenset({"and", "or", "to", "as", "nor", "vs", "versus", "but", "than"})

# Left halves that make compounds: "multi- modal" keeps its hyphen.
_PREFIXES = frozenset(
    [
        "anti", "auto", "bi", "co", "counter", "cross", "de", "fine", "full", "high", "inter", "intra", "large",
        "long", "low", "meta", "mid", "multi", "non", "off", "on", "one", "out", "over", "post", "pre", "pseudo",
        "quasi", "re", "self", "semi", "short", "single", "small", "sub", "super", "task", "three", "two", "under",
        "well", "zero", "few", "open", "real", "end", "state", "data", "model", "human", "world", "time", "vision",
        "text", "image"
    ]
)


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    text = resources.files("generator").joinpath("data/words.txt").read_text(encoding="utf-8")
    return frozenset(text.split())


def _mend(match: re.Match[str]) -> str:
    left, right = match.group(1), match.group(2)
    if right.lower() in _SUSPENDERS:
        return f"{left}- {right}"
    if right[0].isupper():
        return f"{left}-{right}"
    words = _vocabulary()
    joined = (left + right).lower()
    hyphened = f"{left}-{right}".lower()
    if hyphened in words and joined not in words:
        return f"{left}-{right}"
    if joined in words and hyphened not in words:
        return left + right
    if left.lower() in _PREFIXES:
        return f"{left}-{right}"
    if joined in words:
        return left + right
    if left.lower() in words and right.lower() in words:
        return f"{left}-{right}"
    return left + right


def dehyphenate(text: str) -> str:
    """Join words split by a hyphen and a space or line break."""
    # A split needs a hyphen followed by a space, tab or line break: most texts have none.
    if "- " not in text and "-\t" not in text and "-\n" not in text:
        return text
    return _SPLIT.sub(_mend, text)
