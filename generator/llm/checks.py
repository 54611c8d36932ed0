"""Validation of what a language model wrote: each field passes every rule or falls back to the offline result.

The rules are pure functions of the model's text and the abstract, so the build
checks the stored results again (a hand-edited results file gets no further
than the model's own output). Each failing rule gives a short reason that the
run's summary counts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

#: A title has 3 to 20 words.
TITLE_WORDS = (3, 20)
#: A summary has at least this many words.
SUMMARY_MIN_WORDS = 5
#: The least share of a text's content words that come from its abstract or from general language.
#: Measured on real titles against their own abstracts (bench/llm_grounding.py): 4.2% of 11,661 ICLR 2025
#: titles and 4.0% of 7,767 other venues' fall below 0.75, 0.8% and 0.9% below 0.6; a made-up title
#: (another paper's) falls below 0.6 in 54.3% of cases. 0.6 keeps 99% of real titles.
GROUNDED_MIN = 0.5

#: What a model writes before the field it was asked for ("Title:", "**Summary**:").
_PREFIX = re.compile(r"^\W*(?:title|summary|abstract|answer|output|paper|tl;?dr|topic)s?\W*[:：\-–—]", re.IGNORECASE)
#: Quotes of any kind around or in a title (an apostrophe inside a word is fine: "Model's").
_QUOTES = re.compile(r"[\"“”„«»‘’`]|(?:^|\s)'|'(?:\s|$)")
#: Markdown or HTML structure: tags, entities, emphasis, links, headings, code, tables, math.
_MARKUP = re.compile(
    r"<[a-zA-Z/!?]|&[#a-zA-Z0-9]+;|\*|__|\[|\]|(?:^|\s)_|_(?:\s|$)|`|\[[^\]]*\]\(|^\s*(?:#|>|[-+]\s|\d+\.\s)|\||\$|\{|\}|\\"
)
_WORD = re.compile(r"[^\W_](?:[\w'’.+-]*[^\W_])?")
_SENTENCE_END = re.compile(r"[.!?](?:\s+|$)")
#: Words that say nothing about the subject: not counted when measuring grounding.
_FUNCTION = frozenset((
    "a", "an", "the", "of", "for", "in", "on", "to", "with", "by", "from", "and", "or", "via", "as", "at", "into",
    "towards", "toward", "through", "under", "over", "without", "is", "are", "be", "its", "their", "this", "that",
    "these", "we", "our", "can", "do", "does", "not", "no", "more", "less", "than", "using", "based", "new",
))
#: Abbreviations a sentence goes on after ("e.g. a model").
_ABBREVIATIONS = re.compile(r"\b(?:e\.g|i\.e|et al|vs|cf|etc|Fig|Eq|approx)\.\s", re.IGNORECASE)


@lru_cache(maxsize=1)
def field_words() -> frozenset[str]:
    """Return general language here: the words more than 3% of abstracts use (generator/data/field_words.txt)."""
    text = resources.files("generator").joinpath("data/field_words.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def _control_or_format(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text)


def words(text: str) -> list[str]:
    """Return the words of `text` (hyphenated compounds and names such as "GPT-4o" stay whole)."""
    return _WORD.findall(text)


def _stem(word: str) -> str:
    word = word.lower().replace("’", "'")
    for ending in ("'s", "ies", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)] + ("y" if ending == "ies" else "")
    return word


def _parts(word: str) -> list[str]:
    return [part for part in re.split(r"[-'’./+]", word) if part]


def grounded_share(text: str, abstract: str) -> float:
    """Return the share of `text`'s content words found in `abstract` or in general language (1.0: no word)."""
    known = {_stem(part) for word in words(abstract) for part in [word, *_parts(word)]}
    general = field_words()
    content = [word for word in words(text) if word.lower() not in _FUNCTION]
    if not content:
        return 1.0

    def grounded(word: str) -> bool:
        if _stem(word) in known:
            return True
        # A compound is grounded when each of its parts is ("Diffusion-Based" from "diffusion" and "based").
        return all(_stem(p) in known or p.lower() in general or p.isdigit() for p in _parts(word))

    return sum(grounded(word) for word in content) / len(content)


def _name_like(word: str) -> bool:
    """Return True for a word spelled as a name: capitals past the first letter, or digits ("LoRA", "GPT-4")."""
    return any(ch.isdigit() for ch in word) or any(ch.isupper() for ch in word[1:])


def misspelled_names(text: str, abstract: str) -> list[str]:
    """Return the names of `text` (words with inner capitals or digits) not spelled so in `abstract`.

    The field's common acronyms ("LLM", "RL", "GNN": general language here) need not be in the abstract,
    and a name in the singular or plural the abstract does not use is still its name ("PLM" of "PLMs").
    """
    general = field_words()
    spelled = set(words(abstract))
    spelled |= {part for word in spelled for part in _parts(word)}
    spelled |= {word[:-1] if word.endswith("s") else f"{word}s" for word in spelled if _name_like(word)}
    return [word for word in words(text) if _name_like(word) and word not in spelled and word.lower() not in general
            and not all(p in spelled or not _name_like(p) for p in _parts(word))]


def _common_problems(text: str, field: str) -> str:
    """Return why `text` cannot be shown as a title or summary line at all ("" when it can)."""
    if not text.strip():
        return "empty"
    if "\n" in text.strip() or "\r" in text:
        return "more than one line"
    if _control_or_format(text):
        return "control or invisible characters"
    if _PREFIX.match(text):
        return f'starts with a label ("{field.capitalize()}:")'
    if _MARKUP.search(text):
        return "Markdown or HTML"
    return ""


def title_problem(title: str, abstract: str, max_chars: int) -> str:
    """Return why `title` is not a title this digest shows ("" when it passes every rule)."""
    problem = _common_problems(title, "title")
    if problem:
        return problem
    if _QUOTES.search(title):
        return "quotes"
    count = len(words(title))
    low, high = TITLE_WORDS
    if not low <= count <= high:
        return f"{count} words (expected {low} to {high})"
    if len(title.strip()) > max_chars:
        return f"{len(title.strip())} characters (at most {max_chars}, the max_title_chars setting)"
    return _grounding_problem(title, abstract)


def summary_problem(summary: str, abstract: str, max_chars: int) -> str:
    """Return why `summary` is not a one-line summary this digest shows ("" when it passes every rule)."""
    problem = _common_problems(summary, "summary")
    if problem:
        return problem
    text = summary.strip()
    if len(text) > max_chars:
        return f"{len(text)} characters (at most {max_chars}, the max_summary_chars setting)"
    if len(words(text)) < SUMMARY_MIN_WORDS:
        return f"{len(words(text))} words (at least {SUMMARY_MIN_WORDS})"
    inner = _SENTENCE_END.findall(_ABBREVIATIONS.sub("", text.rstrip(".!? ")))
    if inner:
        return "more than one sentence"
    return _grounding_problem(text, abstract)


def _grounding_problem(text: str, abstract: str) -> str:
    """Return why `text` does not stand on `abstract`: a name spelled otherwise, too few of its words, or ""."""
    wrong = misspelled_names(text, abstract)
    if wrong:
        return f"a name not spelled as in the abstract ({wrong[0][:40]})"
    share = grounded_share(text, abstract)
    if share < GROUNDED_MIN:
        return f"not grounded in the abstract ({share:.0%} of its words; at least {GROUNDED_MIN:.0%})"
    return ""


def topics_problem(topics: Iterable[object], candidates: Iterable[str], most: int) -> str:
    """Return why `topics` is not a choice among `candidates` ("" when it is one: distinct, at most `most`)."""
    chosen = list(topics)
    allowed = set(candidates)
    if not all(isinstance(topic, str) for topic in chosen):
        return "not a list of topic names"
    outside = [topic for topic in chosen if topic not in allowed]
    if outside:
        return f"a topic outside the candidates ({str(outside[0])[:40]})"
    if len(set(chosen)) != len(chosen):
        return "a topic named twice"
    if len(chosen) > most:
        return f"{len(chosen)} topics (at most {most}, the max_topics_per_paper setting)"
    return ""
