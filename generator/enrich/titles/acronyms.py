"""Acronyms and what they spell: "Path of Least Resistance (PoLR)".

`acronyms(plain)` finds each capitalised phrase followed by "(NAME)";
`expansion_matches` tells whether the phrase spells the name and
`trim_expansion` keeps the words that do. Names (`names.py`) and descriptions
(`describe.py`) read them. Pure functions of text.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .cleaning import SMALL_WORDS

_ACRONYM_WORD = r"(?:[A-Z][\w'-]*|of|for|and|in|on|via|with|to|the|a|from|by)"
# ("Large 4D Gaussian ...": a word may start with a digit.)
_ACRONYM_NEXT = r"(?:[A-Z0-9][\w'-]*|of|for|and|in|on|via|with|to|the|a|from|by|[a-z][\w-]*)"
# "Path of Least Resistance (PoLR)": the "(NAME)" is found first, then the
# phrase that ends right before it; trying the phrase at every word is slow.
_PAREN_ACRONYM = re.compile(r"\s+\(([A-Z][A-Za-z0-9-]{1,15})\)")
# The phrase starts at a word's start: "Large 4D Gaussian ..." never gives "D Gaussian ...".
_PHRASE_BEFORE = re.compile(rf"(?<![\w'-]){_ACRONYM_WORD}(?:\s+{_ACRONYM_NEXT}){{1,12}}\Z")
#: How far before "(NAME)" its phrase may start.
_PHRASE_REACH = 400
ARTICLE = re.compile(r"^(?:a|an|the)\s+(?:(?:new|novel|simple|general|first|unified|principled)\s+)*", re.I)


def capitalised(phrase: str, acronym: str) -> bool:
    """Return True when the words spelling the acronym are mostly capitalised."""
    words = [w for w in phrase.split() if w.lower() not in SMALL_WORDS]
    tail = words[-max(2, sum(c.isupper() for c in acronym)):]
    return bool(tail) and sum(w[0].isupper() for w in tail) / len(tail) >= 0.5


def words_before_paren(text: str) -> str:
    # Up to three lowercase words between a spelled-out acronym and its "(NAME)".
    match = re.match(r"((?:\s*[a-z][\w-]*){0,3})\s*\(", text)
    return match.group(1) if match else ""


def acronym_with_suffix(letters: str, raw: str) -> str:
    # "**L**ength-b**A**sed ... (LASER)": prefer the acronym as the text spells it.
    spelled = re.search(rf"\b({letters}(?:-[A-Z0-9]+)?)\b", raw)
    return spelled.group(1) if spelled else letters


def expansion_matches(phrase: str, acronym: str) -> bool:
    """Return True when the phrase spells the acronym: its capitals, in order, end the phrase."""
    letters = "".join(c for c in acronym if c.isupper())
    if len(letters) < 2:
        return False
    initials = "".join(w[0] for w in re.split(r"[\s-]+", phrase) if w and w[0].isupper())
    capitals = "".join(c for c in phrase if c.isupper())
    return letters[:2] in initials or _subsequence(letters, capitals[-2 * len(letters):])


@lru_cache(maxsize=16)
def acronyms(plain: str) -> tuple[tuple[str, str], ...]:
    """Return each (phrase, "NAME") where a phrase of capitalised words is followed by "(NAME)"."""
    found = []
    floor = 0  # matches do not overlap: a phrase starts after the previous "(NAME)"
    for paren in _PAREN_ACRONYM.finditer(plain):
        phrase = _PHRASE_BEFORE.search(plain, max(floor, paren.start() - _PHRASE_REACH), paren.start())
        if phrase:
            found.append((phrase.group(0), paren.group(1)))
            floor = paren.end()
    return tuple(found)


def _subsequence(needle: str, haystack: str) -> bool:
    it = iter(haystack)
    return all(c in it for c in needle)


LEADING_VERB = re.compile(
    r"^(?:(?:we|this (?:paper|work))\s+)?(?:\w+ly\s+)?(?:introduce|propose|present|develop|design|call|term|"
    r"name|dub)[sd]?\s+",
    re.I,
)


def trim_expansion(phrase: str, acronym: str) -> str:
    """Keep the tail of a phrase that spells the acronym ("... via Contrastive Policy Optimization").

    The acronym's capitals are matched from the end against each word's capitals
    (or its first letter); up to three words that match nothing may sit between.
    """
    words = phrase.split()
    letters = [c.lower() for c in acronym if c.isupper()]
    j, start, misses = len(letters) - 1, len(words), 0
    for i in range(len(words) - 1, -1, -1):
        if j < 0:
            break
        word = words[i]
        capitals = [c.lower() for c in word if c.isupper()] or [word[0].lower()]
        k = len(capitals)
        if letters[max(0, j - k + 1): j + 1] == capitals[-(j + 1):] or capitals[0] == letters[j]:
            j -= min(k, j + 1) if letters[max(0, j - k + 1): j + 1] == capitals[-(j + 1):] else 1
            start, misses = i, 0
        elif word.lower() in SMALL_WORDS or word[0].islower():
            misses += 1
            if misses > 3:
                break
        else:
            break
    if j >= 0 or start == len(words):
        # Letters that do not follow word initials ("SCORER"): take the run of
        # capitalised words (and small words between them) that ends the phrase.
        start = len(words)
        while start > 0 and (words[start - 1][:1].isupper() or words[start - 1][:1].isdigit() or (
            words[start - 1].lower() in SMALL_WORDS and start < len(words)
        )):
            start -= 1
        while start < len(words) and words[start].lower() in SMALL_WORDS:
            start += 1
        if len(words) - start < 2:
            return ""
    return ARTICLE.sub("", LEADING_VERB.sub("", " ".join(words[start:])))
