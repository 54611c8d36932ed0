"""What the abstract says its name is: the expansion, an appositive, the phrase before it.

`descriptions(name, plain)` returns each phrase with its kind; they become
candidates after "NAME: " (`candidates.py`). Pure functions of text.
"""

from __future__ import annotations

import re

from .acronyms import ARTICLE, LEADING_VERB, acronyms, expansion_matches, trim_expansion
from .cleaning import SMALL_WORDS, drop_dangling
from .names import _VERBS, _joins, _unjoined_starts

_LEADERS = re.compile(
    r"^(?:(?:in(?=\s*,)|to (?:this|that) end|to address (?:this|these)(?: \w+)?|to (?:tackle|overcome|bridge|fill|"
    r"solve) (?:this|these|the)(?: \w+){0,2}|"
    r"in this (?:paper|work|study)|here|therefore|thus|specifically|consequently|to this end|"
    r"motivated by (?:this|these)(?: \w+)?|"
    r"building on (?:this|these)(?: \w+)?|concretely|instead|however|moreover|finally|overall)(?![\w-])\s*,?\s*)+",
    re.I,
)
_CUT = re.compile(
    r",\s+(?:i\.e\.|e\.g\.|namely|revealing|which|where|while|whereas|and we|thereby|allowing|enabling|"
    r"showing|achieving|leading|resulting|"
    r"making|demonstrating|providing|yielding|we)\b|;|\s+(?:which|thereby|while|whereas|so that|such that|"
    r"in order to|where)\s|:\s|\s+[-\u2013\u2014]\s|"
    r"\s+and\s+(?:then\s+)?(?:show|find|demonstrate|prove|propose|introduce|"
    r"present|reveal|observe|provide|use|evaluate|apply|validate)\b",
    re.I,
)


def descriptions(name: str, plain: str) -> list[tuple[str, str]]:
    """Return (kind, phrase) for each way the abstract spells out or describes `name`.

    Kinds: "expansion" (the words the name abbreviates), "appositive" ("NAME, a ..."),
    "before" ("a ... called NAME"), "copula" ("NAME is a ...").
    """
    found: list[tuple[str, str]] = []
    if "\u2014" in plain:
        plain = plain.replace("\u2014", ", ")  # "CryoGEN, an energy-based model" after an em dash is an appositive
    # "Generative Representation Learning via Contrastive Policy Optimization (GRACE)"
    for spelled, acronym in acronyms(plain):
        if acronym != name:
            continue
        if expansion_matches(spelled, name):
            phrase, kind = trim_expansion(spelled, name), "expansion"
        else:
            # A coined name after what it is: "a World-Model-Based Policy Evaluation Environment (WorldGym)".
            phrase, kind = _clip(ARTICLE.sub("", LEADING_VERB.sub("", _LEADERS.sub("", spelled)))), "before"
        if phrase and len(phrase.split()) >= 2:
            found.append((kind, phrase))
            break
    # The patterns below follow the name, so they are tried right after each of its
    # occurrences (not joined to a word or hyphen before it), first occurrence first:
    # the same match a search of "name + pattern" finds, without compiling a pattern per name.
    # "GRACE (Generative Representation Learning via ...)"
    after = _after_name(_EXPANSION_AFTER, name, plain)
    if after and expansion_matches(after.group(1), name):
        found.append(("expansion", after.group(1)))
    # "WorldGym, a world-model environment for policy evaluation"
    appositive = _after_name(_APPOSITIVE_AFTER, name, plain)
    if appositive:
        found.append(("appositive", _clip(appositive.group(1))))
    # "we propose a novel framework, GRACE, that ..." -> the phrase before the name.
    before = _described_before(name, plain)
    if before:
        found.append(("before", _clip(before)))
    # "GRACE is a ..." / "GRACE that ..."
    copula = _after_name(_COPULA_AFTER, name, plain)
    if copula:
        found.append(("copula", _clip(copula.group(1))))
    return [(kind, phrase) for kind, phrase in found if phrase]


_EXPANSION_AFTER = re.compile(r"\s+\(([^()]{8,120})\)")
_APPOSITIVE_AFTER = re.compile(r"(?:\s+\([^()]*\))?,\s+(?:a|an|the)\s+(?:(?:new|novel|simple)\s+)?([^.;]{6,200})")
_COPULA_AFTER = re.compile(r"(?:\s+\([^()]*\))?\s+(?:is|as|which is)\s+(?:a|an)\s+([^.;]{6,200})")
_VERBARTICLE = re.compile(rf"{_VERBS}(?:s|d|ed)?\s+(?:a|an|the)\s+", re.I)
#: How far a described name may follow "we propose a": the longest phrase the pattern allows, and slack.
_BEFORE_REACH = 160


def _after_name(pattern: re.Pattern[str], name: str, plain: str) -> re.Match[str] | None:
    """Return the first match of `pattern` right after `name` where the name is not part of a longer word."""
    for start in _unjoined_starts(plain, name):
        match = pattern.match(plain, start + len(name))
        if match:
            return match
    return None


_DESCRIBED = re.compile(r"(?:(?:new|novel|simple)\s+)?([^.;,]{6,120}?),?\s+(?:called\s+|named\s+|dubbed\s+|"
    r"termed\s+)?\Z", re.I)


def _described_before(name: str, plain: str) -> str:
    """Find "we propose a <phrase>, (called) NAME": the phrase that describes the name."""
    for start in _unjoined_starts(plain, name):
        if _joins(plain[start + len(name) : start + len(name) + 1]):
            continue
        # The nearest "propose a" before this mention, within reach, that the phrase runs on from
        # (searched only in the window before the mention: scanning the whole abstract is slow).
        window = [m.end() for m in _VERBARTICLE.finditer(plain, max(0, start - _BEFORE_REACH - 30), start)]
        ends = [end for end in window if end >= start - _BEFORE_REACH]
        if ends:
            match = _DESCRIBED.match(plain[ends[-1] : start])
            if match:
                return match.group(1)
    return ""


def _clip(text: str) -> str:
    """Cut a description at its first clause boundary and at 16 words (the ranker picks shorter cuts)."""
    cut = _CUT.search(text)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"\s*\([^()]*\)?$", "", text.strip())
    words = drop_dangling(text.split()[:16])
    return " ".join(words).strip(" ,")


def lighter(text: str) -> list[str]:
    """Return `text`, then the same description with its first modifiers dropped one by one, head and purpose kept.

    "a unified dual-channel transformer-based framework applicable to both docking and 3D drug design tasks"
    is too long after a name; "a transformer-based framework applicable to ..." still says what and for what.
    (The leftmost modifiers are the least specific: "novel", "unified", "simple".)
    """
    words = text.split()
    article = words[0].lower() if words and words[0].lower() in ("a", "an", "the") else ""
    start = 1 if article else 0
    head = next((i for i in range(start, len(words)) if words[i].lower() in SMALL_WORDS), len(words))
    shorter = []
    # The two words before the first small word stay: the head noun and what stands next to it.
    for first in range(start + 1, head - 1):
        rest = words[first:]
        lead = "the" if article == "the" else ("an" if _vowel_sound(rest[0]) else "a") if article else ""
        shorter.append(" ".join(([lead] if lead else []) + rest))
    return [text, *shorter]


def _vowel_sound(word: str) -> bool:
    """Return whether `word` is said with a vowel first ("an efficient", but "a unified", "a one-shot")."""
    lower = word.lower()
    return lower[:1] in "aeiou" and not lower.startswith(("uni", "use", "usu", "uti", "eu", "one", "once"))
