"""Titles from the sentence that states what a paper without a name does: its clause said whole.

"We propose a class of structured diffusion models, in which ..." is titled "A Class of Structured
Diffusion Models" (`clause.py` renders the clause). The title's confidence is the ranker's best
candidate cut from the same sentence, so a paper whose clause reads clean needs only that sentence's
candidates (`clause_first`): the other sentences' candidates and compressions, most of the title
stage's time, are made only when it does not.

All functions are pure: text in, a title out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from .candidates import Candidate, generate
from .clause import render_clause
from .cleaning import first_upper, polish
from .contribution import states_contribution
from .defects import title_defects
from .inferred import InferredTitle
from .model import TitleModel
from .task import title_for_task

# ("The Transmission Process to the Server Can Still Lead to Privacy Leakage": the background's claim)
FINITE = re.compile(r" (?:Is|Are|Was|Were|Has|Have|Had|Can|Could|May|Might|Will|Would|Should|Must) ")
#: Sentences besides the contribution sentence whose clause may title the paper.
_OTHER_STATING = 2


def for_task(result: InferredTitle, parts: list[str], stated: int | None, max_chars: int) -> InferredTitle:
    """Add what a short device-only title is for (`task.py`): "An Edge-Aware Noise Scheduler for Denoising"."""
    title = title_for_task(result.title, parts, stated, max_chars)
    return result if title == result.title else replace(result, title=title)


def rendered(
    sentence: str, index: int, candidates: list[Candidate], ranked: list[int], max_chars: int, model: TitleModel
) -> InferredTitle | None:
    """Return the contribution sentence's clause said whole as a title (`clause.py`), or None when none reads clean.

    Its confidence is the ranker's best candidate cut from the same sentence (the model scores cuts, not clauses).
    """
    title = clause_title(sentence, max_chars)
    if title is None:
        return None
    same = [i for i in ranked if candidates[i].sentence == index] or ranked[:1]
    logit = model.confidence.logit(candidates[same[0]].features, False) if same else 0.0
    return InferredTitle(title, "contribution", "", model.confidence.probability(logit))


@lru_cache(maxsize=64)
def clause_title(sentence: str, max_chars: int) -> str | None:
    """Return the first clause of the sentence (`render_clause`) that reads clean as a title, or None.

    (Kept: the full path asks again for a paper whose quick path, `clause_first`, found none.)
    """
    for text in render_clause(sentence):
        title = first_upper(polish(text))
        claim = text.endswith("?") or "sentence" not in title_defects(title) or FINITE.search(title) is not None
        if not title or len(title) > max_chars or len(title.split()) < 3:
            continue
        if set(title_defects(title)) - {"sentence"} or not claim:
            continue
        return title
    return None


def clause_first(
    plain: str, parts: list[str], scores: list[float], stated: int | None, max_chars: int, model: TitleModel
) -> InferredTitle | None:
    """Return a paper's contribution clause as its title, made from its own sentence's candidates only; or None.

    `parts` are the abstract's first sentences, `scores` their sentence scores and `stated` the
    contribution sentence's index (`contribution_index`), which the full path reads too. The same title
    and confidence the full path gives (the clause's confidence reads only the candidates cut from that
    sentence), without making every other sentence's candidates and compressions. None sends the paper
    down the full path.
    """
    if stated is None:
        return None
    for at in [stated, *others_stating(parts, scores, stated)]:
        title = clause_title(parts[at], max_chars)
        if title is None:
            continue
        own = generate(plain, model.vocabulary, "", [], False, model.sentence, model.compressor, only=at)
        if not own:
            return None  # (the full path scores the abstract's best candidate instead)
        best = min(range(len(own)), key=lambda i: (-model.headline.score(own[i].features), i))
        logit = model.confidence.logit(own[best].features, False)
        result = InferredTitle(title, "contribution", "", model.confidence.probability(logit))
        return for_task(result, parts, stated, max_chars)
    return None


def others_stating(parts: list[str], scores: list[float], stated: int) -> list[int]:
    """Return the next sentences that say what the paper does, best-scored first (at most `_OTHER_STATING`)."""
    others = sorted(
        (i for i in range(len(scores)) if i != stated and states_contribution(parts[i])), key=lambda i: (-scores[i], i)
    )
    return others[:_OTHER_STATING]
