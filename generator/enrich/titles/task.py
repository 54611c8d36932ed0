"""Say what a short, task-less title is for: "A Retrieval-Augmented Generation Mechanism for Symbolic Regression".

A strict reader calls "A Dynamic Switching Teacher Strategy" or "Theory of Mind Module" bad: it
names a device and never the problem, so it could title a hundred papers. Authors write
"[what] for [task]". The task is a phrase authors use as a keyword (`generator/data/task_phrases.txt`,
learned from the author keywords of the corpora's tune part, `scripts/build_title_lists.py`) that
the paper itself says where it states what it does: first the contribution sentence, then the
other sentences stating a contribution, then the opening (the abstract's topic).

A name's short expansion that says no purpose and names no task ("CABS: Conflict-Aware and Balanced
Sparsification") gets its task the same way, first from the sentences that mention the name
("CABS: ... Sparsification for Model Merging").

All functions are pure: text in, text out.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .cleaning import SMALL_WORDS, polish, word_set
from .contribution import states_contribution
from .defects import title_defects

#: A title longer than this already says more than a device.
_SHORT_WORDS = 6
# A title that already says where, what for or how ("... for X", "... in Y", "... via Z") keeps its words.
_SAYS_PURPOSE = word_set(
    "for in on via to under with from against across through by using without beyond towards toward into over"
)
# The heads of a device: a title ending on one names a thing made, not the problem it is for.
_DEVICE_HEADS = word_set(
    "framework method approach algorithm model module mechanism network strategy scheduler block function attack "
    "defense paradigm technique architecture estimator extractor pipeline scheme procedure policy objective loss "
    "regularizer regularization layer operator sampler solver optimizer encoder decoder system agent metric "
    "scheme protocol criterion tool toolkit library platform benchmark dataset suite testbed simulator "
    "adapter controller planner detector classifier generator predictor retriever tokenizer compressor"
)
# Where a sentence names what its device is for: "... for symbolic regression", "... in offline RL"
# ("on" and "of" are as often the benchmark or the background: "experiments on image classification").
_PURPOSE_BEFORE = word_set("for in to")
_FINITE = re.compile(r" (?:Is|Are|Was|Were|Has|Have|Had|Can|Could|May|Might|Will|Would|Should|Must|Do|Does) ")
_WORD = re.compile(r"[A-Za-z0-9][\w-]*")


@lru_cache(maxsize=1)
def task_phrases() -> dict[int, frozenset[str]]:
    """Return the task phrases (generator/data/task_phrases.txt) by their number of words."""
    text = resources.files("generator").joinpath("data/task_phrases.txt").read_text(encoding="utf-8")
    by_length: dict[int, set[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            by_length.setdefault(len(line.split()), set()).add(line)
    return {n: frozenset(phrases) for n, phrases in by_length.items()}


def _bare(phrase: str, first: int) -> bool:
    """Return True for a phrase of at most `_SHORT_WORDS` words that asks nothing, claims nothing and says no
    purpose, setting or means (no "for", "in", "via", ... from its word `first` on)."""
    words = phrase.split()
    return (
        bool(words) and len(words) <= _SHORT_WORDS and not phrase.endswith("?") and not _FINITE.search(f" {phrase} ")
        and not any(w.lower().strip(",;") in _SAYS_PURPOSE for w in words[first:])
    )


def needs_task(title: str) -> bool:
    """Return True for a short noun phrase that says no purpose, setting or claim ("A Prompt Diffusion Model")."""
    if ":" in title or not _bare(title, 1):  # (its first word may be "On" or "Towards")
        return False
    return title.split()[-1].lower().strip(",;").removesuffix("s") in _DEVICE_HEADS


def task_in(sentence: str, title: str, opening: bool = False) -> str:
    """Return the longest task phrase the sentence names as a purpose ("for X", "in X"), as it writes it; or "".

    The `opening` sentence's subject counts too ("Symbolic regression seeks ..."): the abstract's topic.
    A phrase that shares a word with the title, or whose initials an acronym of the title spells, is not taken.
    """
    tokens = list(_WORD.finditer(sentence))
    lowered = [t.group(0).lower() for t in tokens]
    taken = {_stem(part) for w in _WORD.findall(title.lower()) if w not in SMALL_WORDS for part in w.split("-")}
    acronyms = {_capitals(a) for w in _WORD.findall(title) for a in w.split("-")} - {""}
    phrases = task_phrases()
    for n in sorted(phrases, reverse=True):
        for i in range(len(tokens) - n + 1):
            gram = lowered[i : i + n]
            said_as_purpose = (i and lowered[i - 1] in _PURPOSE_BEFORE) or (opening and not i)
            if not said_as_purpose or " ".join(gram) not in phrases[n]:
                continue
            if not {_stem(part) for w in gram for part in w.split("-")} & taken and not _spelled(gram, acronyms):
                return sentence[tokens[i].start() : tokens[i + n - 1].end()]
    return ""


def with_task(title: str, sentences: list[str], max_chars: int, opening: str = "") -> str:
    """Return "<title> for <task>" when `title` names a device and no purpose; else `title` unchanged.

    `sentences` are where the paper says what it does, best first (the contribution sentence, the
    others that state one), then its `opening` sentence. A task the title cannot hold within `max_chars`
    is left out.
    """
    return with_any_task(title, sentences, max_chars, opening) if needs_task(title) else title


def with_any_task(title: str, sentences: list[str], max_chars: int, opening: str = "") -> str:
    """Return "<title> for <task>" with the first task the sentences, then the `opening`, name (`task_in`)."""
    for sentence, first in [*((s, False) for s in sentences), *([(opening, True)] if opening else [])]:
        task = task_in(sentence, title, first)
        if task:
            longer = f"{title} for {polish(task)}"
            return longer if len(longer) <= max_chars else title
    return title


def title_for_task(title: str, parts: list[str], stated: int | None, max_chars: int) -> str:
    """Return the title with its task when it needs one (`needs_task`) and the result has no defect.

    `parts` are the abstract's first sentences and `stated` the contribution sentence's index (None
    when unknown): the task is looked for there, then in the other sentences stating a
    contribution, then in the opening sentence's subject.
    """
    if not needs_task(title):
        return title  # (most titles: the sentences need not be read)
    stating = [i for i, p in enumerate(parts) if i != stated and states_contribution(p)]
    order = ([stated] if stated is not None else []) + stating
    longer = with_any_task(title, [parts[i] for i in order], max_chars, parts[0] if parts else "")
    return title if longer == title or title_defects(longer) else longer


def names_task(text: str) -> bool:
    """Return True when the text holds a task phrase ("... Sparsification for Model Merging", "Time-Series Shift")."""
    words = [w.lower() for w in _WORD.findall(text)]
    # ("Time-Series" is the phrase "time series" too.)
    spaced = " ".join(words).replace("-", " ").split()
    phrases = task_phrases()
    return any(
        " ".join(ws[i : i + n]) in phrases[n] for ws in (words, spaced) for n in phrases for i in range(len(ws) - n + 1)
    )


def needs_named_task(title: str) -> bool:
    """Return True for "NAME: Description" whose short description says no purpose, setting or task.

    ("NAL: Nash Advantage Loss", "CABS: Conflict-Aware and Balanced Sparsification"; not "FCA: Fair
    Clustering via Alignment" nor "TVDN: ... for Multivariate Time Series Forecasting".)
    """
    _, colon, description = title.partition(": ")
    return bool(colon) and _bare(description, 0) and not names_task(description)


def named_title_for_task(title: str, name: str, parts: list[str], max_chars: int) -> str:
    """Return "NAME: Description for Task" when the description needs a task (`needs_named_task`); else `title`.

    The task is looked for where the paper speaks of its own work: the sentences that mention the name,
    then the other sentences stating a contribution, then the opening sentence's subject. The result
    must read clean (`title_defects`).
    """
    if not needs_named_task(title):
        return title
    naming = [p for p in parts if name and name in p]
    stating = [p for p in parts if p not in naming and states_contribution(p)]
    longer = with_any_task(title, [*naming, *stating], max_chars, parts[0] if parts else "")
    return title if longer == title or title_defects(longer) else longer


def _spelled(gram: list[str], acronyms: set[str]) -> bool:
    """Return True when an acronym of the title holds the phrase's initials ("RLHF", "reinforcement learning";
    "FrugalNeRF", "neural radiance fields")."""
    initials = "".join(w[0] for w in gram)
    return len(initials) >= 2 and any(initials in a for a in acronyms)


def _capitals(word: str) -> str:
    """Return the capitals of a word that has two or more, lowercase ("NeRF" -> "nrf", "LLMs" -> "llm"); else ""."""
    capitals = "".join(c for c in word if c.isupper())
    return capitals.lower() if len(capitals) >= 2 else ""


def _stem(word: str) -> str:
    # "model" and "models", "attack" and "attacks" are one word for overlap.
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
