"""Run the stages in order: read -> enrich -> render (-> build)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .enrich import enrich
from .errors import DigestError
from .model import Paper, Problem
from .read import read_sources
from .render import RenderResult, render_site
from .settings import Settings

Progress = Callable[[str], None]


@dataclass
class GenerateReport:
    """Everything the CLI summarises after generating."""

    papers: list[Paper]
    problems: list[Problem]
    files: list[str]
    render: RenderResult
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def tag_count(self) -> int:
        return len({t.slug for p in self.papers for t in p.tags})


def sources_or_default(sources: Iterable[str | Path], settings: Settings) -> list[Path]:
    """Return the named sources, or the project's default corpus."""
    chosen = [Path(s) for s in sources]
    return chosen or [settings.resolve(s) for s in settings.default_sources]


def generate(sources: Iterable[str | Path], settings: Settings, progress: Progress | None = None) -> GenerateReport:
    """Read the sources, enrich the papers and write the Markdown site."""
    step = progress or (lambda _message: None)
    timings: dict[str, float] = {}
    start = time.perf_counter()
    step("Reading sources")
    read = read_sources(sources_or_default(sources, settings), settings)
    if settings.strict and read.problems:
        issues = [p for p in read.problems if p.level != "info"]
        if issues:
            raise DigestError("strict mode: problems in the input:\n" + "\n".join(f"  {p}" for p in issues))
    if not read.papers:
        raise DigestError("no abstracts found in the sources; nothing to build")
    timings["read"] = time.perf_counter() - start
    start = time.perf_counter()
    step(f"Inferring titles and tags for {len(read.papers)} papers")
    papers = enrich(read.papers, settings)
    timings["enrich"] = time.perf_counter() - start
    start = time.perf_counter()
    step("Rendering Markdown")
    rendered = render_site(papers, settings)
    timings["render"] = time.perf_counter() - start
    return GenerateReport(papers, read.problems, read.files, rendered, timings)
