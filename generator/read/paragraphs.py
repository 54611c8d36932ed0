"""Tell a new abstract from the next paragraph of the same abstract in a plain-text digest.

A digest separates abstracts by blank lines, but real abstracts hold blank lines
of their own: numbered findings, "Code is available at ..." lines, a second
paragraph that goes on about the method the first one introduced. Each
paragraph is scored against the abstract before it by a small logistic model
over signals a reader sees (a list marker or a lowercase start, the previous
paragraph ending on ":" or mid-sentence, a tail note, the names it carries
over, its length); `scripts/train_paragraph_model.py` fits the weights on the
corpora and `bench/paragraphs.py` measures them on a part never used for it.

The decision is a pure function of the texts: the same paragraphs always give
the same groups, on any machine (scores are rounded before they are compared).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .notes import is_tail_note
from .paragraph_model import Model, closing_tokens, first_sentence, last_sentence, load_model, opening_tokens

#: Paragraphs separated inside one abstract: a blank line, as in the digest itself.
PARAGRAPH_BREAK = "\n\n"

_LIST_MARKER = re.compile(
    r"^(?:\(?\d{1,2}[.)](?![\d.])|\(\d{1,2}\)|\(?(?:i{1,3}|iv|vi{0,3}|ix|x)[.)]\s|\(?[a-h]\)\s|"
    "[-\u2022*\u2013\u2014\u00b7\u25aa\u25ba\u25e6\u2023]\\s|[\u2022\u25aa\u25ba\u25e6\u2023]|-\\s?\\[)"
)
_URL = re.compile(r"https?://|www\.|github\.com|\.io\b", re.IGNORECASE)
_CONNECTIVE = re.compile(
    r"^(?:furthermore|moreover|additionally|in addition|finally|lastly|last|next|then|second(?:ly)?|third(?:ly)?|"
    r"fourth|also|besides|however|nevertheless|nonetheless|yet|still|therefore|thus|hence|consequently|"
    r"accordingly|as a result|as such|in particular|particularly|specifically|more specifically|more precisely|"
    r"more concretely|concretely|importantly|crucially|notably|interestingly|surprisingly|together|overall|"
    r"in summary|to summarize|in short|in sum|in conclusion|to conclude|altogether|taken together|"
    r"on the other hand|in contrast|by contrast|conversely|similarly|likewise|instead|meanwhile|"
    r"beyond|building on|based on|along|alongside|apart from|first|firstly|to (?:this|that) end|"
    r"for (?:example|instance)|e\.g\.|i\.e\.|namely|here|again|even|further|unlike)\b",
    re.IGNORECASE,
)
_TO_ADDRESS = re.compile(
    r"^(?:to|in order to|in response to|in light of|motivated by|inspired by|driven by|given|with|despite|"
    r"for|against|toward|towards|addressing|tackling)\b[^.]{0,40}?\b(?:this|these|those|such|the above|"
    r"above|both|the (?:aforementioned|identified|observed|above|mentioned|gap|challenges?|issues?|problems?|"
    r"limitations?|shortcomings?|drawbacks?)|our (?:findings|results|observations|analysis|theory|study))\b",
    re.IGNORECASE,
)
_PRONOUN_START = re.compile(
    r"^(?:it|its|they|their|them|these|those|such|both|each of|all of|this|that|the former|the latter|"
    r"the resulting|the proposed|the same|our|we also|we further|we then|we finally|we additionally|"
    r"we next|we additionally)\b",
    re.IGNORECASE,
)
_INTRO_START = re.compile(
    r"^(?:in this (?:paper|work|study|article|note|thesis)|this (?:paper|work|study|article)|here,? we|"
    r"we (?:propose|present|introduce|study|consider|develop|address|tackle|investigate|show|prove|"
    r"design|focus|explore|provide|give|aim|revisit|examine|analy[sz]e|demonstrate|derive|describe|"
    r"establish|report|argue|offer|seek|take|conduct|build|construct|formulate|identify|find|first))\b",
    re.IGNORECASE,
)
_CONTRIBUTION = re.compile(
    r"\b(?:we|our|us|i|in this (?:paper|work|study|article|note|thesis)|this (?:paper|work|study|article|"
    r"thesis|note)|the (?:present|current) (?:paper|work|study)|the paper|the authors?)\b",
    re.IGNORECASE,
)
_ACRONYM = re.compile(r"\b[A-Za-z]*[A-Z][a-z]*[A-Z0-9][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\b|\b[A-Z][a-z]+[A-Z]\w*\b")
_DEFINED = re.compile(r"\(\s*([A-Za-z]*[A-Z][A-Za-z0-9-]*)s?\s*\)")
_WORD = re.compile(r"[a-z][a-z-]{3,}")
# "the mediator", "the sketch-and-project methods", "their weight": a definite noun phrase of the first
# sentence whose rare word the paragraph before used, so it names a thing already introduced.
_DEFINITE = re.compile(r"\b(?:the|this|these|those|such|our|its|their)\s+((?:[a-z][a-z-]+\s+){0,2}[a-z][a-z-]{3,})",
                       re.IGNORECASE)
# "these problems", "such a bound", "this improves": the first sentence refers to something said before.
_REFERS_BACK = re.compile(
    r"\b(?:this|these|those|such)\s+(?!paper\b|work\b|study\b|article\b|thesis\b|note\b|as\b|that\b)[a-z]",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Decision:
    """Whether a paragraph continues the abstract before it, with the reason a reader is told."""

    joins: bool
    #: The model's log-odds (rules decide with infinity).
    score: float
    reason: str = ""


#: The reason told for each signal, when it is the strongest one behind a join.
REASONS: dict[str, str] = {
    "list_marker": "starts with a list marker",
    "lowercase": "starts with a lowercase letter",
    "prev_colon": "the paragraph before ends with a colon",
    "prev_open": "the paragraph before ends mid-sentence",
    "prev_comma": "the paragraph before ends mid-sentence",
    "tail": "a short note after the abstract (code, data, revision)",
    "url_short": "a short paragraph with a link",
    "connective": "starts by going on from the paragraph before",
    "to_address": "starts by going on from the paragraph before",
    "pronoun": "starts by referring back to the paragraph before",
    "refers_back": "starts by referring back to the paragraph before",
    "intro_after_background": "introduces the work the paragraph before motivates",
    "prev_no_contribution": "the paragraph before states no contribution of its own",
    "no_contribution": "states no contribution of its own",
    "names_carried": "goes on about the names the paragraph before introduced",
    "names_first": "goes on about the names the paragraph before introduced",
    "overlap": "shares its rare words with the paragraph before",
    "overlap_root": "shares its rare words with the paragraph before",
    "short": "far shorter than an abstract",
    "shorter": "far shorter than the paragraph before",
    "prev_short": "the paragraph before is too short to be an abstract",
    "opening": "does not open like an abstract",
    "closing": "the paragraph before does not close like an abstract",
}

FEATURES: tuple[str, ...] = (
    "list_marker", "lowercase", "prev_colon", "prev_open", "tail", "url_short", "connective", "to_address",
    "pronoun", "intro", "intro_after_background", "prev_no_contribution", "no_contribution", "names_carried",
    "names_first", "names_defined", "overlap", "short", "shorter", "prev_short", "log_length",
    "opening", "closing", "under_150", "under_300", "under_500", "under_800", "overlap_root", "overlap_opening",
    "overlap_closing", "opening_closing", "names_first_opening", "refers_back",
    "definite_back", "own_names",
)

def _squash(logit: float) -> float:
    # The sentence scorers' log-odds, bounded: one odd sentence cannot decide alone.
    return round(max(-8.0, min(8.0, logit)) / 8, 6)


_SHORT_WORDS = frozenset(
    "a an and as at but by for from if in into is it its of on or our so such than that the their then these "  # noqa: SIM905
    "they this those thus to via we when where which while who with yet also both each all only not".split()
)


def _starts_lowercase(text: str, common: frozenset[str]) -> bool:
    # A known word, not a name spelled in lowercase ("k-means", "iPhone", "word2vec") or a first letter lost
    # in the export ("lthough", "esigning").
    match = re.match("[\"'\u201c\u2018(]?([a-z]+)(\\S*)", text)
    if not match or re.match(r"[-A-Z0-9$_]", match.group(2)):
        return False
    word = match.group(1)
    return word in _SHORT_WORDS or word in common


def _ends_open(text: str) -> bool:
    # Mid-sentence: a comma, a semicolon or a plain word at the end; a link or a formula may end an abstract.
    if text.endswith((",", ";", "\uff0c", "\uff1b")):
        return True
    return bool(re.search(r"(?<![/.:\w])[a-z]{2,}$", text)) and not _URL.search(text[-120:])


def _names(found: list[str]) -> frozenset[str]:
    return frozenset(name.rstrip("s") if name.endswith("s") and name[:-1].isupper() else name for name in found)


def _repeated(found: list[str]) -> frozenset[str]:
    counts: dict[str, int] = {}
    for name in found:
        if len(name) > 2:
            counts[name] = counts.get(name, 0) + 1
    return frozenset(name for name, n in counts.items() if n > 1)


@dataclass(frozen=True)
class Profile:
    """What the decision reads of one paragraph, worked out once whichever side of a break it is on."""

    text: str
    names: frozenset[str]
    #: Names it uses more than once, as written.
    repeated: frozenset[str]
    defined: frozenset[str]
    words: frozenset[str]
    contribution: bool
    #: The sentence scorers' log-odds: its first sentence opens an abstract, its last one closes one.
    opening: float
    closing: float


def profile(text: str, model: Model | None = None, opening: float | None = None,
            closing: float | None = None) -> Profile:
    """Return the profile of one paragraph (`opening`/`closing` log-odds worked out with `model` unless given)."""
    model = model or load_model()
    text = text.strip()
    if opening is None:
        opening = model.start.logit(opening_tokens(first_sentence(text)))
    if closing is None:
        closing = model.end.logit(closing_tokens(last_sentence(text)))
    found = _ACRONYM.findall(text)
    return Profile(
        text=text,
        names=_names(found),
        repeated=_repeated(found),
        defined=frozenset(name.rstrip("s") for name in _DEFINED.findall(text)),
        words=frozenset(word for word in _WORD.findall(text.lower()) if word not in model.common),
        contribution=_states_contribution(text),
        opening=opening,
        closing=closing,
    )


_FIRST_PERSON = re.compile(r"\b(?:we|our|us|i)\b")


# "PyXAI (Python eXplainable AI) is a Python library ...": a paragraph that opens by saying what a named
# thing is presents it, in the third person.
_NAMED_OPENING = re.compile(r"^[A-Z][\w-]*[A-Z0-9][\w-]*(?:\s+\([^)]{1,80}\))?\s+(?:is|are)\s+(?:an?|the)\s")


def _states_contribution(text: str) -> bool:
    # Most abstracts say "we" early: the cheap test first, the whole pattern only when it fails.
    return bool(_FIRST_PERSON.search(text.lower()) or _CONTRIBUTION.search(text) or _NAMED_OPENING.match(text))


def features(before: Sequence[Profile], current: Profile, common: frozenset[str], cased: bool = True,
             ) -> dict[str, float]:
    """Return the signals that paragraph `current` goes on from the abstract whose paragraphs are `before`.

    With `cased` False (a source with no case: layout.has_case), a lowercase start is no signal.
    """
    text = current.text
    prev = before[-1].text
    before_names = frozenset().union(*(p.names for p in before))
    before_words = frozenset().union(*(p.words for p in before))
    prev_contribution = any(p.contribution for p in before)
    carried = {name for name in current.names - current.defined if name in before_names and len(name) > 1}
    opening_sentence = first_sentence(text)
    intro = bool(_INTRO_START.match(text))
    overlap = min(len(current.words & before_words), 8) / 8
    opening, closing = _squash(current.opening), _squash(before[-1].closing)
    names_first = float(any(name in opening_sentence for name in carried))
    return {
        "list_marker": float(bool(_LIST_MARKER.match(text))),
        "lowercase": float(cased and _starts_lowercase(text, common)),
        "prev_colon": float(prev.endswith((":", "\uff1a")) and not is_tail_note(last_sentence(prev))),
        "prev_open": float(_ends_open(prev)),
        "prev_comma": float(prev.endswith((",", ";", "\uff0c", "\uff1b"))),
        "tail": float(is_tail_note(text)),
        "url_short": float(len(text) < 300 and bool(_URL.search(text))),
        "connective": float(bool(_CONNECTIVE.match(text))),
        "to_address": float(bool(_TO_ADDRESS.match(text))),
        "pronoun": float(bool(_PRONOUN_START.match(text)) and not intro),
        "intro": float(intro),
        "intro_after_background": float(intro and not prev_contribution),
        "prev_no_contribution": float(not prev_contribution),
        "no_contribution": float(not current.contribution),
        "names_carried": min(len(carried), 3) / 3,
        "names_first": names_first,
        "names_defined": min(len(current.defined - before_names), 2) / 2,
        "overlap": overlap,
        "short": float(len(text) < 200),
        "shorter": float(len(text) * 4 < len(prev)),
        "prev_short": float(len(prev) < 200),
        "log_length": round(math.log(len(text) + 1) / 8, 6),
        # A paragraph that opens like an abstract, after one that closes like one, is a new abstract.
        "opening": opening,
        "closing": closing,
        # Lengths in steps and pairs of signals: what a linear model cannot see in the signals alone.
        "under_150": float(len(text) < 150),
        "under_300": float(len(text) < 300),
        "under_500": float(len(text) < 500),
        "under_800": float(len(text) < 800),
        "overlap_root": round(math.sqrt(overlap), 6),
        "overlap_opening": round(overlap * opening, 6),
        "overlap_closing": round(overlap * closing, 6),
        "opening_closing": round(opening * closing, 6),
        "names_first_opening": round(names_first * opening, 6),
        "refers_back": float(bool(_REFERS_BACK.search(opening_sentence))),
        "definite_back": float(_refers_to(opening_sentence, before_words)),
        # Names it repeats that the abstract before never used: a paragraph about a thing of its own.
        "own_names": min(len(current.repeated - before_names), 2) / 2,
    }


#: Signals that decide alone: a new abstract practically never shows them.
RULES: tuple[str, ...] = ("list_marker", "tail", "prev_colon", "prev_comma", "lowercase")
#: Rules a paragraph that reads as a whole abstract overrules (an abstract cut off mid-sentence is followed
#: by the next abstract, and an abstract may start in lowercase).
_OVERRULED = ("prev_comma", "lowercase")


def decide(before: Sequence[Profile], current: Profile, model: Model | None = None, cased: bool = True) -> Decision:
    """Decide whether paragraph `current` goes on from the abstract whose paragraphs are `before`.

    `cased` False: the source has no case, so a lowercase start is no sign of going on.
    """
    model = model or load_model()
    if any(current.text == paragraph.text for paragraph in before):
        # The same text again is a duplicate abstract (the reader merges and reports it), never a continuation.
        return Decision(False, -math.inf)
    values = features(before, current, model.common, cased)
    for rule in RULES:
        if values[rule] and not (rule in _OVERRULED and _reads_whole(before[-1].text, current)):
            return Decision(True, math.inf, REASONS[rule])
    parts = {name: model.weights.get(name, 0.0) * value for name, value in values.items()}
    # Log-odds, rounded before the threshold: the decision never hinges on the last bits of a sum.
    score = round(model.bias + math.fsum(parts.values()), 6)
    if score < model.threshold:
        return Decision(False, score)
    named = sorted((-round(v, 6), name) for name, v in parts.items() if name in REASONS and v > 0)
    return Decision(True, score, REASONS[named[0][1]] if named else "reads as part of the abstract before")


def _refers_to(sentence: str, before_words: frozenset[str]) -> bool:
    # Rare words only (`Profile.words` holds no common word), singular or plural alike.
    stems = {word.rstrip("s") for word in before_words}
    return any(
        word.rstrip("s") in stems
        for match in _DEFINITE.finditer(sentence)
        for word in match.group(1).lower().split()
        if len(word) > 3
    )


def _reads_whole(previous: str, current: Profile) -> bool:
    # A long paragraph with its own contribution that opens like an abstract is one, even in lowercase or
    # after an abstract cut off mid-sentence.
    return len(current.text) >= 400 and current.contribution and (current.opening > 0 or not _ends_open(previous))
