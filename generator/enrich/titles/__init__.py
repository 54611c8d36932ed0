"""Infer a specific title for an abstract that has none.

The abstract's own name (if it introduces one) is chosen by a learned scorer
over name evidence (`names.py`); candidate titles are cut from its sentences
and from the name's expansion or description (`candidates.py`); a linear model
learned from real titles ranks them (`model.py`) and the best one without a
defect (`clean.title_defects`) wins. Titles read "NAME: description" when a
name is found (source "named-method"), else they are a headline ("headline").

All functions are pure: text in, text out.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from ...text import clean, plain_from_clean
from .candidates import Candidate, generate, sentences
from .cleaning import drop_dangling, math_as_text, mend_expansion, polish, title_defects
from .describe import descriptions
from .model import TitleModel, load_model
from .names import NameCandidate, choose_name, count_word, looks_like_name, name_candidates

__all__ = [
    "InferredTitle", "count_word", "infer_title", "infer_title_from", "looks_like_name", "sentences",
    "title_defects", "unique_titles", "without_urls",
]


@dataclass(frozen=True)
class InferredTitle:
    """A title and how it was found."""

    title: str
    source: str  # "named-method" or "headline"
    name: str = ""


# Rules for what is plainly right: a name's own expansion, then what the abstract says it is
# ("WorldGym, a world-model environment for ..."), come before the ranker's choices.
_PRIORITY = {"expansion": 0, "appositive": 1}
_HEAD_APPOSITIVE = re.compile(r"^([^,:;]{6,70}), (?=(?:a|an|the) )", re.I)
# "NAME: A Novel Multimodal Agent Framework" -> "NAME: A Multimodal Agent Framework": the title need not say so.
_NOVEL = re.compile(r"^(A|An)\s+(?:Novel|New)\s+(?=\S+\s+\S)", re.I)
# Titles come from the opening of an abstract; reading further only costs time
# (a pathological 1 MB abstract must not make the regexes crawl).
_READ_CHARS = 6000
_URL_IN_TEXT = re.compile(r"\s*\(?\b(?:https?://|www\.)\S+?(?=[.,;:!?)]*(?:\s|$))\)?", re.I)
# "BrainM^3" or "BrainM³": the exponent is part of the name.
_NAME_SUFFIX = re.compile(r"(?:\^\{?[0-9n+]{1,3}\}?|[⁰¹²³⁴⁵⁶⁷⁸⁹⁺]+)")


def infer_title(abstract: str, max_chars: int = 110) -> InferredTitle:
    """Return a specific, clean title for an abstract."""
    raw = clean(abstract[:_READ_CHARS])
    return _infer(raw, plain_from_clean(raw), max_chars)


def infer_title_from(abstract: str, plain: str, max_chars: int = 110) -> InferredTitle:
    """Infer a title when the abstract's plain text is already at hand (same result as infer_title)."""
    if len(abstract) > _READ_CHARS:
        return infer_title(abstract, max_chars)
    return _infer(clean(abstract), plain, max_chars)


def own_name(raw: str, plain: str, model: TitleModel) -> NameCandidate | None:
    """Return the name the abstract introduces for its contribution, or None when it has none."""
    return choose_name(name_candidates(raw, plain), model.name, model.name_threshold)


def without_urls(plain: str) -> str:
    """Remove links from plain text: they are never part of a title (their path still names, see names.py)."""
    if "://" in plain or "www." in plain.lower():
        return _URL_IN_TEXT.sub("", plain)
    return plain


def _infer(raw: str, plain: str, max_chars: int) -> InferredTitle:
    plain = without_urls(plain)
    model = load_model()
    names = name_candidates(raw, plain)
    found = choose_name(names, model.name, model.name_threshold)
    name, described, others = "", [], []
    if found:
        # A description that names another introduced thing describes that thing ("X: OpenDesign, a Benchmark").
        others = [c.name for c in names if c.name != found.name and any(c.features[3:7])]
        described = ([("expansion", found.expansion)] if found.expansion else []) + descriptions(found.name, plain)
        name = _with_suffix(found.name, plain)
    # A named paper's description comes from where the name is introduced or later; if nothing
    # there reads clean, from any sentence; then a terse "NAME: Training-Free Framework" is
    # tolerated; failing that the paper gets a headline. (A generic description before a clean one
    # from another sentence put "LUMA: Unique Benchmark Dataset" on the site.)
    attempts = [(name, True, ()), (name, False, ()), (name, True, ("generic",)), ("", False, ())]
    candidates: list[Candidate] = []
    ranked: list[int] = []
    for attempt_name, from_name, tolerated in attempts if name else attempts[-1:]:
        candidates = generate(plain, model.vocabulary, attempt_name, described if attempt_name else [], from_name)
        scorer = model.named if attempt_name else model.headline
        ranked = sorted(range(len(candidates)), key=lambda i: (-scorer.score(candidates[i].features), i))
        # A name's own expansion is its title ("PoLR: Path of Least Resistance"): a rule, not a guess.
        # (sorted() is stable: within a priority the ranker's order stays.)
        ranked = sorted(ranked, key=lambda i: _PRIORITY.get(candidates[i].kind, len(_PRIORITY)))
        for index in ranked:
            if attempt_name and any(other in candidates[index].text for other in others):
                continue
            title = compose(attempt_name, candidates[index])
            if title and len(title) <= max_chars and set(title_defects(title)) <= set(tolerated):
                return InferredTitle(title, "named-method" if attempt_name else "headline", attempt_name)
    return _fallback("", candidates, ranked, plain, max_chars)


def _with_suffix(name: str, plain: str) -> str:
    """Keep an exponent typeset after the name ("BrainM^3" -> "BrainM³")."""
    at = plain.find(name)
    suffix = _NAME_SUFFIX.match(plain, at + len(name)) if at >= 0 else None
    return math_as_text(name + suffix.group(0)) if suffix else name


def compose(name: str, candidate: Candidate) -> str:
    """Return the title a candidate makes: "NAME: Description" or the polished headline."""
    text = polish(mend_expansion(candidate.text) if candidate.kind == "expansion" else candidate.text)
    if not name:
        # "Human-Like Self-Play, a Framework That ..." reads as "Human-Like Self-Play: A Framework That ...".
        head = _HEAD_APPOSITIVE.match(text)
        if head and len(head.group(1).split()) <= 8:
            text = f"{head.group(1)}: {_first_upper(text[head.end():])}"
        return _first_upper(_one_clause(text, keep_short_head=True))
    lowered = text.lower()
    if lowered.startswith(name.lower()):
        text = text[len(name):].lstrip(" :,-")
    if not text or name.lower() in text.lower().replace(",", " ").split():
        return ""  # "ST-SimDiff: A Framework Named ST-SimDiff" says the name twice
    description = _NOVEL.sub(lambda m: m.group(1) + " ", _one_clause(text))
    return f"{name}: {_first_upper(description)}"


def _one_clause(text: str, keep_short_head: bool = False) -> str:
    """Keep one side of a colon: the title has at most one."""
    if ": " not in text:
        return text
    head, tail = text.split(": ", 1)
    if keep_short_head and len(head.split()) <= 3:
        return f"{head}: {_first_upper(tail.replace(': ', ' '))}"
    return tail if len(head.split()) <= 2 else head


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fallback(name: str, candidates: list[Candidate], ranked: list[int], plain: str, max_chars: int) -> InferredTitle:
    """Shorten the best candidate to fit when no candidate reads clean as it is."""
    source = "named-method" if name else "headline"
    texts = [compose(name, candidates[i]) for i in ranked] or [name or polish(" ".join(plain.split()[:12]))]
    for text in texts:
        words = drop_dangling(text.split())
        while len(" ".join(words)) > max_chars and len(words) > 3:
            words = drop_dangling(words[:-1])
        title = " ".join(words)
        if title and not title_defects(title):
            return InferredTitle(title, source, name)
    title = " ".join(drop_dangling(texts[0].split()[:12])) if texts[0] else "Untitled Abstract"
    return InferredTitle(title or "Untitled Abstract", source, name)


def unique_titles(titles: list[str], disambiguators: list[str]) -> list[str]:
    """Make titles unique: colliding titles get a distinguishing suffix.

    The suffix is the paper's disambiguator (its collection) where the colliding
    papers' disambiguators differ, else a number in input order: "X (ICLR 2025)"
    and "X (ICLR 2026)", but "X (1)" and "X (2)" within one collection.
    """
    counts = Counter(t.casefold() for t in titles)
    kinds: dict[str, set[str]] = defaultdict(set)
    for title, extra in zip(titles, disambiguators, strict=True):
        kinds[title.casefold()].add(extra)
    seen: Counter[str] = Counter()
    out = []
    for title, extra in zip(titles, disambiguators, strict=True):
        key = title.casefold()
        if counts[key] > 1:
            seen[key] += 1
            # One collection's name on every copy would tell no two of them apart.
            title = f"{title} ({extra})" if extra and len(kinds[key]) > 1 else f"{title} ({seen[key]})"
        out.append(title)
    # A suffix could still collide ("X (2)" given twice): fall back to numbers.
    if len({t.casefold() for t in out}) != len(out):
        return unique_titles([f"{t}" for t in out], [""] * len(out))
    return out
