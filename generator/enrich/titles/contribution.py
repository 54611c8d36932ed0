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
from typing import Protocol

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
_FIRST_PERSON = tuple(re.compile(_CUES[kind], re.I) for kind in ("propose", "study", "show"))
# "A novel method is proposed (in this paper)": the passive states a contribution too, when nothing says "we".
# (Not "is shown", "is studied": others' results are said that way.)
_PASSIVE = re.compile(r"\b(?:is|are) (?:\w+ly )?(?:proposed|introduced|presented|developed|designed)\b", re.I)
_LONG = 60

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
        *(float(pattern.search(sentence) is not None) for pattern in _PATTERNS),
        min(len(sentence.split()), _LONG) / _LONG,
    )


def sentence_scores(parts: list[str], scorer: Scorer) -> list[float]:
    """Return how likely each sentence is the one the title is taken from (a score, higher is likelier)."""
    count = len(parts)
    return [scorer.score(sentence_features(s, i, count)) for i, s in enumerate(parts[:READ_SENTENCES])]


def states_contribution(sentence: str) -> bool:
    """Return True when the sentence says what the paper does: "we propose", "this paper shows", "X is proposed"."""
    return any(pattern.search(sentence) for pattern in _FIRST_PERSON) or bool(_PASSIVE.search(sentence))


def contribution_index(parts: list[str], scores: list[float]) -> int | None:
    """Return the index of the best-scored sentence that states a contribution, or None when none does.

    A sentence in the first person ("we propose") comes before one in the passive ("is proposed").
    """
    count = min(len(parts), len(scores))
    stating = [i for i in range(count) if any(pattern.search(parts[i]) for pattern in _FIRST_PERSON)]
    stating = stating or [i for i in range(count) if _PASSIVE.search(parts[i])]
    return max(stating, key=lambda i: (scores[i], -i)) if stating else None


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
