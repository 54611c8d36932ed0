"""Which sentences of an abstract state what the paper does (its contribution), and which are background.

Each of the first `READ_SENTENCES` sentences gets plain features (where it is,
the cue verbs it holds: "we propose", "we study", "we show", "in this paper";
background words: "recent", "existing", "however"; results words; citations)
and a learned score (`model.py`, fitted by scripts/train_title_model.py): how
likely the real title was taken from it. Titles weigh the score of the sentence
a candidate comes from; the one-line summary is the best-scored sentence that
states a contribution in the first person ("we ...", "this paper ..."), the
opening sentence only when none does. Pure functions of text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple, Protocol

#: Sentences read for a contribution: titles and summaries come from the opening and what the paper does.
READ_SENTENCES = 10

_SUBJECT = (
    r"(?:we|this (?:paper|work|study|article)|our (?:work|paper|study)|here,? we)\s+(?:\w+ly\s+)?"
    r"(?:also\s+|further\s+|first\s+|then\s+|instead\s+)?"
)
_CUES = {
    "propose": (
        rf"\b{_SUBJECT}(?:introduc|propos|present|develop|design|buil[dt]|construct|releas|curat|offer|formulat|"
        r"devis|creat|contribut|put forward)"
    ),
    "study": (
        rf"\b{_SUBJECT}(?:stud(?:y|ies)|investigat|analy[sz]|explor|examin|revisit|characteri[sz]|consider|focus|"
        r"address|tackl|aim|seek|ask)"
    ),
    "show": (
        rf"\b{_SUBJECT}(?:show|demonstrat|prov(?:e|ide)|find|found|reveal|establish|argu|identif|deriv|report|observ|"
        r"uncover|discover)"
    ),
    "this_paper": r"\b(?:in this (?:paper|work|study)|this (?:paper|work|study)|our (?:work|paper)|here,? we)\b",
    "results": (
        r"\b(?:experiments?|results|empirical(?:ly)?|evaluations?|outperform\w*|state-of-the-art|benchmarks?|"
        r"extensive|significantly|improves?|achiev\w+)\b"
    ),
    "background": (
        r"\b(?:recent(?:ly)?|existing|prior|previous(?:ly)?|traditional|conventional|current(?:ly)?|widely|popular|"
        r"has (?:been|shown|become|emerged)|have (?:been|shown|become|emerged)|remains?|struggle\w*|suffer\w*|"
        r"challeng\w+|limitations?)\b"
    ),
    "citation": r"et al\.|\(\d{4}\)|\[\d+(?:,\s*\d+)*\]",
    "number": r"\d",
    "name": r"\b[A-Za-z]*[A-Z][a-z]*[A-Z]\w*",
    "to_address": (
        r"^(?:to (?:address|tackle|overcome|solve|fill|bridge|close|mitigate|this end|that end)|motivated by|"
        r"inspired by|building on|based on|instead|in contrast)"
    ),
    "however": r"^(?:however|but|yet|unfortunately|nevertheless|despite|although|while|whereas)\b",
    "we": r"\bwe\b",
    "novel": r"\b(?:novel|new|first|simple|unified|general)\b",
    "method": (
        r"\b(?:method|framework|approach|model|algorithm|technique|architecture|benchmark|dataset|system|paradigm|"
        r"strategy|loss|objective)s?\b"
    ),
}
_PATTERNS = tuple(re.compile(pattern, re.I) for pattern in _CUES.values())
# "A novel method is proposed (in this paper)": the passive states a contribution too, when nothing says "we".
# (Not "is shown", "is studied": others' results are said that way.)
_PASSIVE_CUE = r"\b(?:is|are) (?:\w+ly )?(?:proposed|introduced|presented|developed|designed)\b"
_PASSIVE = re.compile(_PASSIVE_CUE, re.I)
_LONG = 60

# Finding the cues is most of what scoring a sentence costs, so each sentence's cues are found once
# (`_cues`), and an ASCII sentence's cheaply: its lowercase words are looked up first, and a pattern
# runs (on the lowercase text, without re.I: for ASCII text the same matches) only where they leave
# its answer open. A sentence with other characters runs the patterns as written (re.I matches "K"
# (Kelvin) and "ſ" to ASCII letters). tests/test_title_speed.py checks that both ways find the same cues.


class _Quick(NamedTuple):
    """What every match of a cue holds, so most sentences are decided without running its pattern."""

    #: Words any one of which, as a whole word (a maximal run of \w), makes the pattern match.
    sure: frozenset[str]
    #: Every match holds one of these whole words, or a match of `parts`...
    needs: frozenset[str]
    parts: re.Pattern[str] | None
    #: ... and, where given, a match of `also` (the verb that may follow "we", the noun after "this").
    also: re.Pattern[str] | None


def _quick(sure: str = "", needs: str = "", parts: str = "", also: str = "") -> _Quick:
    # (Substrings as literal alternatives without a flag: their search skips to the letters they start with.)
    def literal(text: str) -> re.Pattern[str] | None:
        return re.compile("|".join(re.escape(part) for part in text.split("|"))) if text else None

    return _Quick(frozenset(sure.split()), frozenset(needs.split()), literal(parts), literal(also))


# "we", "this paper", "our work", "here, we": the subject of a first-person cue.
_SUBJECTS = "we this our"
_QUICK = {
    "propose": _quick(needs=_SUBJECTS, also="introduc|propos|present|develop|design|buil|construct|releas|curat|"
                      "offer|formulat|devis|creat|contribut|put forward"),
    "study": _quick(needs=_SUBJECTS, also="stud|investigat|analy|explor|examin|revisit|characteri|consider|focus|"
                    "address|tackl|aim|seek|ask"),
    "show": _quick(needs=_SUBJECTS, also="show|demonstrat|prov|find|found|reveal|establish|argu|identif|deriv|report|"
                   "observ|uncover|discover"),
    "this_paper": _quick(needs=_SUBJECTS, also="paper|work|study|here"),
    "results": _quick(
        sure="experiment experiments results empirical empirically evaluation evaluations benchmark benchmarks "
        "extensive significantly improve improves", parts="outperform|achiev|state-of-the-art",
    ),
    "background": _quick(
        sure="recent recently existing prior previous previously traditional conventional current currently widely "
        "popular remain remains limitation limitations", needs="has have", parts="struggle|suffer|challeng",
    ),
    "citation": _quick(parts="et al.|(|["),
    "we": _quick(sure="we"),
    "novel": _quick(sure="novel new first simple unified general"),
    "method": _quick(sure="method methods framework frameworks approach approachs model models algorithm algorithms "
                     "technique techniques architecture architectures benchmark benchmarks dataset datasets system "
                     "systems paradigm paradigms strategy strategys loss losss objective objectives"),
    "passive": _quick(needs="is are", also="proposed|introduced|presented|developed|designed"),
}
#: Each cue's pattern without re.I, for lowercase ASCII text, and its shortcut (none: the pattern decides).
#: ("name" looks for capitals: it reads the sentence as written.)
_LOWER = (
    *((None if kind == "name" else re.compile(source), _QUICK.get(kind)) for kind, source in _CUES.items()),
    (re.compile(_PASSIVE_CUE), _QUICK["passive"]),
)
_NAME_AT = list(_CUES).index("name")
#: Every ASCII character that is not a letter, digit or "_" (not \w), as a space.
_NOT_WORD = {c: " " for c in range(128) if not (chr(c).isalnum() or chr(c) == "_")}


@lru_cache(maxsize=512)
def _cues(sentence: str) -> tuple[bool, ...]:
    """Return whether the sentence holds each pattern of `_CUES`, in order, and the passive "is proposed" last."""
    if not sentence.isascii():
        return (*(pattern.search(sentence) is not None for pattern in _PATTERNS), _PASSIVE.search(sentence) is not None)
    lower = sentence.lower()
    words = set(lower.translate(_NOT_WORD).split())  # its maximal runs of \w (faster than re.findall)
    found = []
    for pattern, quick in _LOWER:
        if pattern is None:
            found.append(_PATTERNS[_NAME_AT].search(sentence) is not None)
        elif quick is None:
            found.append(pattern.search(lower) is not None)
        elif not words.isdisjoint(quick.sure):
            found.append(True)
        elif words.isdisjoint(quick.needs) and (quick.parts is None or not quick.parts.search(lower)):
            found.append(False)
        else:
            found.append((quick.also is None or quick.also.search(lower) is not None)
                         and pattern.search(lower) is not None)
    return tuple(found)


#: Where the first-person cues ("we propose", "we study", "we show") sit in `_cues`.
_FIRST_PERSON = tuple(list(_CUES).index(kind) for kind in ("propose", "study", "show"))


def _first_person(cues: tuple[bool, ...]) -> bool:
    return any(cues[i] for i in _FIRST_PERSON)


#: The features of a sentence, in the order of `sentence_features`.
SENTENCE_FEATURES = (
    *(f"position_{i}" for i in range(6)), "position_later", "relative_position", "last",
    *(f"has_{kind}" for kind in _CUES), "length",
)


class Scorer(Protocol):
    """Anything that scores a feature vector (model.Linear)."""

    def score(self, features: tuple[float, ...]) -> float: ...


@lru_cache(maxsize=256)
def sentence_features(sentence: str, index: int, count: int) -> tuple[float, ...]:
    """Return the features of the sentence at `index` of `count` sentences (kept: titles and summaries both ask)."""
    return (
        *(float(index == i) for i in range(6)),
        float(index >= 6),
        round(index / max(count - 1, 1), 3),
        float(index == count - 1),
        *(float(found) for found in _cues(sentence)[: len(_CUES)]),
        min(len(sentence.split()), _LONG) / _LONG,
    )


def sentence_scores(parts: list[str], scorer: Scorer) -> list[float]:
    """Return how likely each sentence is the one the title is taken from (a score, higher is likelier)."""
    count = len(parts)
    return [scorer.score(sentence_features(s, i, count)) for i, s in enumerate(parts[:READ_SENTENCES])]


def states_contribution(sentence: str) -> bool:
    """Return True when the sentence says what the paper does: "we propose", "this paper shows", "X is proposed"."""
    cues = _cues(sentence)
    return _first_person(cues) or cues[-1] or _OUR_FINDING.search(sentence) is not None


def contribution_index(parts: list[str], scores: list[float]) -> int | None:
    """Return the index of the best-scored sentence that states a contribution, or None when none does.

    A sentence in the first person ("we propose") comes before one in the passive ("is proposed").
    """
    count = min(len(parts), len(scores))
    stating = [i for i in range(count) if _first_person(_cues(parts[i]))]
    # "(I) when ..., we find that ...": one item of the paper's own list of findings is not what it does;
    # "our studies find that ..." says it better.
    whole = [i for i in stating if not listed_item(parts[i])]
    stating = whole or [i for i in range(count) if _OUR_FINDING.search(parts[i])] or stating
    stating = stating or [i for i in range(count) if _cues(parts[i])[-1]]
    return max(stating, key=lambda i: (scores[i], -i)) if stating else None


# "our studies find that ...": a finding of the paper's own without a "we".
_OUR_FINDING = re.compile(
    r"\bour (?:studies|study|results|experiments|analys[ie]s|findings) (?:\w+ly )?(?:find|show|reveal|demonstrate)s?\b",
    re.I,
)


# An item marker of the abstract's own list: "(I)", "(ii)", "(2)", "(b)", before a first-person cue.
_ITEM = re.compile(r"\((?:[ivx]{1,4}|[IVX]{1,4}|\d|[a-d])\)\s")
_ITEM_CUE = re.compile(r"\bwe\s+(?:\w+ly\s+)?(?:find|found|show|observe|demonstrate|propose|introduce)", re.I)


def listed_item(sentence: str) -> bool:
    """Return True when the sentence's cue follows an item marker of the abstract's own list ("(I) ..., we find")."""
    if "(" not in sentence:
        return False
    cue = _ITEM_CUE.search(sentence)
    return cue is not None and _ITEM.search(sentence, 0, cue.start()) is not None


_ASIDE = re.compile(r"\([^()]*\)")
_OPENING_WORDS = 12


def opening_words(parts: list[str]) -> list[str]:
    """Return the first words of the opening sentence, lowercase, without asides in brackets: the abstract's topic."""
    if not parts:
        return []
    return [w.strip(".,;:!?\"'“”").lower() for w in _ASIDE.sub(" ", parts[0]).split()[:_OPENING_WORDS]]


def names_the_opening(core: list[str], opening: list[str]) -> bool:
    """Return True when a headline's core words (`cleaning.field_core`) are a phrase of the opening: its topic."""
    n = len(core)
    return 1 <= n <= 4 and any(opening[i : i + n] == core for i in range(len(opening) - n + 1))
