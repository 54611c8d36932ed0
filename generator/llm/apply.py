"""What a build takes from the stored results: each paper's model-written fields that are current and valid.

The build never asks the model: it reads the results file, and checks each field
again (a file edited by hand gets no further than the model's own answer did).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Tag
from ..read import paper_id
from .checks import summary_problem, title_problem
from .prompt import PROMPT_VERSION
from .store import Result


@dataclass(frozen=True)
class Inferred:
    """The stored results, by paper id, and the address (slug) each published paper has."""

    results: dict[str, Result] = field(default_factory=dict)
    #: Paper id -> the slug of the address the lock says it is published at.
    published: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Written:
    """The fields of one paper the model wrote and the build shows (None: the offline result stays)."""

    model: str
    title: str | None
    summary: str | None
    #: The topics chosen, with the offline model's confidence; None when rejected or empty.
    topics: tuple[tuple[str, float], ...] | None
    #: The area chosen among the paper's field's areas; None: the first topic's (or the offline area) stays.
    area: str | None = None


def written(
    result: Result | None, abstract: str, lead: str, vocabulary: set[str], max_title_chars: int,
    max_summary_chars: int, max_topics: int,
) -> Written | None:
    """Return what a build shows of `result` for the paper with `abstract` (`lead`: the text the model read).

    None when there is no result, or it was made from another abstract or by another prompt.
    """
    if result is None or not result.current(paper_id(abstract), PROMPT_VERSION):
        return None
    title = result.title
    if title is not None and title_problem(title, lead, max_title_chars):
        title = None
    summary = result.summary
    if summary is not None and summary_problem(summary, lead, max_summary_chars):
        summary = None
    topics = result.topics
    # Never a topic outside the vocabulary, whatever the file says; an empty choice keeps the offline topics.
    if not topics or len(topics) > max_topics or not all(name in vocabulary for name, _ in topics):
        topics = None
    return Written(result.model, title, summary, topics, result.area)


def chosen_tags(topics: tuple[tuple[str, float], ...], offline: list[Tag], model: str, slug) -> list[Tag]:
    """Return the tags of the topics the model chose, in its order: the offline tag's evidence kept when it had one."""
    known = {tag.name: tag for tag in offline}
    tags = []
    for name, confidence in topics:
        said = f"chosen by the language model {model}"
        old = known.get(name)
        evidence = (said, *old.evidence) if old else (said,)
        tags.append(Tag(name, slug(name), "topic", round(min(max(confidence, 0.0), 1.0), 3), evidence))
    return tags
