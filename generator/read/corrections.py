"""The user's paragraph corrections of a text digest: `join:` and `split:` in the overrides file.

The paragraph model decides which paragraphs go on from the abstract before
them; where it is wrong, the overrides file says so by stable paper id:
`join: [id]` joins the paper `id` (a paragraph read as an abstract of its own)
to the abstract before it in its file, and `split: {id: [2]}` makes the second
paragraph of paper `id` start a paper of its own. `doubtful_lines` lists the
model's close calls with the line to paste that reverses each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING

from ..enrich.overrides import Overrides
from ..model import Paper, Problem, Source
from .paragraphs import PARAGRAPH_BREAK

if TYPE_CHECKING:
    from . import Doubtful


def correct_paragraphs(
    papers: list[Paper], ids: list[str], parts: dict[str, tuple[tuple[int, int], ...]], overrides: Overrides,
    fingerprint: Callable[[str], str],
) -> tuple[list[Paper], dict[str, str], list[Problem]]:
    """Apply `join:` and `split:` to papers as read (`ids`: their stable ids, in the same order).

    Return the papers (with fresh fingerprints where their text changed), the ids joined into
    another paper (joined id: id of the paper it joined), and a report line for each change.
    `fingerprint(abstract)` gives an abstract's fingerprint (read.paper_id).
    """
    joins, splits = set(overrides.join), overrides.split
    result: list[Paper] = []
    result_ids: list[str] = []
    moved: dict[str, str] = {}
    problems: list[Problem] = []
    for paper, paper_id in zip(papers, ids, strict=True):
        lines = parts.get(paper.id)
        if paper_id in joins and lines and result and result[-1].source.file == paper.source.file \
                and parts.get(result[-1].id):
            before = result[-1]
            abstract = before.abstract + PARAGRAPH_BREAK + paper.abstract
            joined = replace(before, id=fingerprint(abstract), abstract=abstract)
            parts[joined.id] = (*parts[before.id], *lines)
            result[-1] = joined
            moved[paper_id] = result_ids[-1]
            problems.append(Problem(
                "info", paper.source.file, paper.source.line,
                f"paragraph {paper.source.paragraph} joined to paragraph {lines_before(parts[before.id])}: "
                f"joined in the overrides file (join: {paper_id})", kind="joined",
            ))
            continue
        if paper_id in joins:
            problems.append(Problem(
                "warning", overrides.file, overrides.lines.get(("join", paper_id)),
                f"join: paper {paper_id} is not a paragraph of a text digest after another one; nothing joined",
            ))
        if paper_id in splits and lines:
            pieces = paper.abstract.split(PARAGRAPH_BREAK)
            cuts = [n for n in splits[paper_id] if n <= len(pieces)]
            if len(cuts) < len(splits[paper_id]):
                problems.append(Problem(
                    "warning", overrides.file, overrides.lines.get(("split", paper_id)),
                    f"split: paper {paper_id} has {len(pieces)} paragraphs; no paragraph "
                    f"{', '.join(str(n) for n in splits[paper_id] if n > len(pieces))} to split at",
                ))
            bounds = [1, *cuts, len(pieces) + 1]
            for start, end in pairwise(bounds):
                abstract = PARAGRAPH_BREAK.join(pieces[start - 1:end - 1])
                number, line = lines[start - 1]
                piece = replace(paper, id=fingerprint(abstract), abstract=abstract,
                                source=Source(paper.source.file, number, line, paper.source.unit))
                parts[piece.id] = lines[start - 1:end - 1]
                result.append(piece)
                result_ids.append(paper_id)
                if start > 1:
                    problems.append(Problem(
                        "info", paper.source.file, line,
                        f"paragraph {number} starts a paper of its own: split in the overrides file "
                        f"(split: {paper_id})", kind="split",
                    ))
            continue
        result.append(paper)
        result_ids.append(paper_id)
    return result, moved, problems


def lines_before(lines: tuple[tuple[int, int], ...]) -> int:
    """Return the number of the last paragraph of a paper's (number, line) pairs."""
    return lines[-1][0]


def doubtful_lines(doubts: Iterable[Doubtful], ids: dict[str, str]) -> list[tuple[str, str, str]]:
    """Return each doubtful paragraph decision: what was decided, the section and the line to paste under it.

    `ids` maps a paper's fingerprint to its stable id.
    """
    found = []
    for doubt in doubts:
        paper_id = ids.get(doubt.paper)
        if paper_id is None:
            continue
        opening = " ".join(doubt.text.split()[:8])
        where = f"{doubt.file}:{doubt.line}: paragraph {doubt.number} (\"{opening} …\")"
        if doubt.joined:
            found.append((f"{where} was joined to paragraph {doubt.onto}; to keep it apart", "split",
                          f"  \"{paper_id}\": [{doubt.position}]"))
        else:
            found.append((f"{where} was kept apart from paragraph {doubt.onto}; to join it", "join",
                          f"  - \"{paper_id}\""))
    return found
