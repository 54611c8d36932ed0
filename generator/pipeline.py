"""Run the stages in order: read -> enrich -> render (-> build)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .enrich import enrich
from .errors import DigestError
from .model import Paper, Problem, Progress, no_progress
from .read import read_sources
from .render import RenderResult, render_site
from .settings import Settings

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


def generate(
    sources: Iterable[str | Path], settings: Settings, progress: Progress = no_progress
) -> GenerateReport:
    """Read the sources, enrich the papers and write the Markdown site."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    progress("Reading sources", 0, 1)
    read = read_sources(sources_or_default(sources, settings), settings)
    if settings.strict and read.problems:
        issues = [p for p in read.problems if p.level != "info"]
        if issues:
            raise DigestError("strict mode: problems in the input:\n" + "\n".join(f"  {p}" for p in issues))
    if not read.papers:
        raise DigestError("no abstracts found in the sources; nothing to build")
    timings["read"] = time.perf_counter() - start
    start = time.perf_counter()
    progress("Reading sources", 1, 1)
    papers = enrich(read.papers, settings, progress)
    timings["enrich"] = time.perf_counter() - start
    start = time.perf_counter()
    rendered = render_site(papers, settings, progress)
    timings["render"] = time.perf_counter() - start
    return GenerateReport(papers, read.problems, read.files, rendered, timings)
