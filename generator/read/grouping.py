"""Group a text digest's paragraphs into abstracts: each paragraph joins the abstract before it when
the paragraph model (paragraphs.py) decides it goes on from it.

Decisions are kept in a memo (the analysis cache) by the texts they depend on,
and worked out on forked workers when most are new. Decisions close to the
model's threshold are "doubtful": `check` lists them with the correction that
would reverse each.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..cache import entry_key
from .paragraph_model import Model, load_model
from .paragraphs import Decision, Profile, decide, profile

#: A decision whose log-odds lie within this of the threshold is doubtful (bench/paragraphs.py: a
#: decision this close is wrong about one time in three on the held-out part).
DOUBT_MARGIN = 1.0


@dataclass(frozen=True)
class Doubt:
    """A decision close to the threshold: paragraph `index`, after the abstract ending with paragraph `onto`."""

    index: int
    onto: int
    joined: bool
    score: float


@dataclass(frozen=True)
class Join:
    """One paragraph joined to the one before it: the indexes in the input, and why."""

    index: int
    onto: int
    reason: str


class Memo(Protocol):
    """Where decisions of earlier runs are kept (the analysis cache): values by key."""

    def get(self, key: str) -> Any | None: ...

    def put(self, key: str, value: Any) -> None: ...


def group(
    paragraphs: Sequence[str], model: Model | None = None, memo: Memo | None = None, workers: int = 0,
    doubts: list[Doubt] | None = None, cased: bool = True,
) -> tuple[list[list[int]], list[Join]]:
    """Group a digest's paragraphs into abstracts; return the groups (indexes, in order) and the joins.

    With `memo`, each decision is looked up by the texts it depends on (the abstract so far and the
    paragraph) and stored when new: after one edit, only the decisions around it are worked out again.
    The groups are the same with and without it.

    With `workers` (forked processes), a digest whose memo lacks most decisions has each
    paragraph's decision worked out up front on them as if the one before it stood alone (as it
    does unless it was joined): the loop here takes those it can use, and works out the others.

    `doubts`, when given, receives the decisions close to the threshold. `cased` False: the digest has no
    case (layout.has_case), and a lowercase start is no sign of a paragraph going on.
    """
    model = model or load_model()
    groups: list[list[int]] = []
    joins: list[Join] = []
    profiles: dict[int, Profile] = {}
    ready: list[Decision | None] = []
    if workers and len(paragraphs) > 1 and (memo is None or _mostly_new(paragraphs, memo, cased)):
        ready = _decided_forked(paragraphs, model, workers, cased)

    def profile_of(index: int) -> Profile:
        if index not in profiles:
            profiles[index] = profile(paragraphs[index], model)
        return profiles[index]

    for index in range(len(paragraphs)):
        alone = ready[index] if ready and groups and groups[-1] == [index - 1] else None
        decision = _decision(groups[-1], index, paragraphs, profile_of, model, memo, alone, cased) if groups else None
        if decision is not None and doubts is not None and abs(decision.score - model.threshold) < DOUBT_MARGIN:
            doubts.append(Doubt(index, groups[-1][-1], decision.joins, decision.score))
        if decision is not None and decision.joins:
            joins.append(Join(index, groups[-1][-1], decision.reason))
            groups[-1].append(index)
            continue
        groups.append([index])
    return groups, joins


#: Decisions looked up to tell a memo that knows the digest from one that does not.
_PROBES = 32


def _mostly_new(paragraphs: Sequence[str], memo: Memo, cased: bool = True) -> bool:
    """Return True when `memo` lacks most of the decisions after a paragraph alone (a first read).

    Probed at paragraphs spread over the digest: an edit anywhere (the first abstract included)
    leaves most of them known, and the decisions are then looked up one by one, not forked.
    """
    step = max(1, (len(paragraphs) - 1) // _PROBES)
    probes = range(1, len(paragraphs), step)
    known = sum(memo.get(_decision_key([paragraphs[i - 1]], paragraphs[i], cased)) is not None for i in probes)
    return known * 2 < len(probes)


#: What forked workers decide on: set before the fork (inherited, not pickled per chunk).
_FORKED: tuple[Sequence[str], Model, bool] | None = None
#: Paragraphs per chunk of forked decisions.
_CHUNK = 500


def _chunk_decided(start: int) -> list[Decision | None]:
    """Return each paragraph's decision of one chunk, after the one before alone (None: the first)."""
    assert _FORKED is not None
    paragraphs, model, cased = _FORKED
    before = profile(paragraphs[start - 1], model) if start else None
    decisions = []
    for index in range(start, min(start + _CHUNK, len(paragraphs))):
        this = profile(paragraphs[index], model)
        decisions.append(decide([before], this, model, cased) if before is not None else None)
        before = this
    return decisions


def _decided_forked(paragraphs: Sequence[str], model: Model, workers: int, cased: bool = True,
                    ) -> list[Decision | None]:
    """Return each paragraph's decision after the one before alone, worked out on `workers` forked
    processes, in order. (Only decisions come back: the profiles would cost more to send than to make.)"""
    import multiprocessing

    global _FORKED  # noqa: PLW0603
    _FORKED = (paragraphs, model, cased)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            chunks = pool.map(_chunk_decided, range(0, len(paragraphs), _CHUNK))
    finally:
        _FORKED = None
    return [decision for chunk in chunks for decision in chunk]


def _decision(before: list[int], index: int, paragraphs: Sequence[str], profile_of: Callable[[int], Profile],
              model: Model, memo: Memo | None, ready: Decision | None = None, cased: bool = True) -> Decision:
    """Return whether paragraph `index` goes on from the paragraphs `before` (`ready`: already worked out)."""
    key = _decision_key([paragraphs[i] for i in before], paragraphs[index], cased) if memo is not None else ""
    if memo is not None:
        kept = memo.get(key)
        # What does not decode is worked out again, never trusted. (A rule's infinite score is kept as None.)
        if (isinstance(kept, list) and len(kept) == 3 and isinstance(kept[0], bool) and isinstance(kept[1], str)
                and (kept[2] is None or isinstance(kept[2], float))):
            score = kept[2] if kept[2] is not None else (math.inf if kept[0] else -math.inf)
            return Decision(kept[0], score, kept[1])
    decision = (ready if ready is not None
                else decide([profile_of(i) for i in before], profile_of(index), model, cased))
    if memo is not None:
        memo.put(key, [decision.joins, decision.reason, decision.score if math.isfinite(decision.score) else None])
    return decision


def _decision_key(before: list[str], paragraph: str, cased: bool = True) -> str:
    """Return the memo key of the decision whether `paragraph` goes on from the paragraphs `before`.

    (A digest with no case decides otherwise: its decisions are kept apart.)
    """
    return entry_key("paragraph" if cased else "paragraph-caseless", before, paragraph)


