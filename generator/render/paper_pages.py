"""Paper pages, rendered in forked workers for large digests while the main process renders the rest."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from jinja2 import Template

from ..model import Collection, Paper
from .exports import code_fence


@dataclass(frozen=True)
class PaperPages:
    """What every paper page is rendered from besides its paper."""

    template: Template
    common: dict
    collections: dict[str, Collection]
    by_id: dict[str, Paper]
    entries: dict[str, str]

    def render(self, paper: Paper) -> tuple[str, bytes]:
        own = {tag.slug for tag in paper.tags}
        related = [
            (self.by_id[pid], [tag for tag in self.by_id[pid].tags if tag.slug in own])
            for pid in paper.related if pid in self.by_id
        ]
        bibtex = self.entries[paper.id]
        text = self.template.render(
            **self.common, paper=paper, collection=self.collections[paper.collection], related=related,
            bibtex=bibtex, fence=code_fence(bibtex),
        )
        return paper.path, text.encode("utf-8")

_PAGES_PER_JOB = 500
# What the workers render from: set before they fork, read-only after.
_WORKER_PAGES: tuple[PaperPages, list[Paper]] | None = None


def _render_batch(pages: PaperPages, papers: list[Paper], start: int) -> list[tuple[str, bytes]]:
    return [pages.render(paper) for paper in papers[start : start + _PAGES_PER_JOB]]


def _render_range(start: int) -> list[tuple[str, bytes]]:
    assert _WORKER_PAGES is not None, "set before the workers fork"
    pages, papers = _WORKER_PAGES
    return _render_batch(pages, papers, start)


@contextmanager
def paper_pages_started(
    pages: PaperPages, papers: list[Paper], workers: int
) -> Iterator[Iterable[list[tuple[str, bytes]]]]:
    """Start rendering every paper page; yield batches of (path, UTF-8 Markdown) in input order.

    With `workers` (forked processes sharing the papers and the compiled
    template), they start at once, so the caller renders the other pages meanwhile.
    """
    # Forked workers inherit the pages and papers through this module global instead of pickling them.
    global _WORKER_PAGES  # noqa: PLW0603
    starts = range(0, len(papers), _PAGES_PER_JOB)
    if not workers:
        yield (_render_batch(pages, papers, start) for start in starts)
        return
    _WORKER_PAGES = (pages, papers)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield pool.imap(_render_range, starts)
    finally:
        _WORKER_PAGES = None
