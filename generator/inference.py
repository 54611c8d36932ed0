"""The optional inference stage: `paper-digest infer` asks a language model about each paper and keeps its answers.

    sources -> read -> identify (the lock's ids) -> offline analysis (titles, summaries, candidate topics)
            -> one request per paper without a current result -> paper-digest.inferred.jsonl

The results file is committed with the digest; `build` reads it and never calls
the network (llm/apply.py). A paper whose result was made from the same abstract,
by the same prompt and model, is never asked again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .cache import Cache
from .enrich import offline_views
from .errors import DigestError
from .llm.checks import TITLE_WORDS
from .llm.client import Endpoint
from .llm.prompt import PROMPT_VERSION, Limits, Question
from .llm.run import Job, RunReport, Tick, run_jobs
from .llm.store import INFERRED_FILE, Result, read_results, write_results
from .pipeline import CACHE, analysis_fingerprint, identify_papers, load_lock, sources_or_default
from .read import no_abstracts, paper_id, read_sources
from .settings import Settings, inference_key


@dataclass
class InferReport:
    """What `infer` did, for the summary the CLI prints."""

    papers: int
    #: Papers whose stored result was current: not asked.
    current: int
    run: RunReport
    results_file: Path
    #: Papers left for a later run by --limit.
    left: int = 0


def limits_of(settings: Settings) -> Limits:
    """Return the bounds the prompt states and the validation enforces, from the settings."""
    return Limits(TITLE_WORDS[0], TITLE_WORDS[1], settings.max_summary_chars, settings.max_topics_per_paper,
                  settings.max_title_chars)


def infer(
    sources: Iterable[str | Path], settings: Settings, tick: Tick | None = None, limit: int | None = None,
    again: bool = False, endpoint: Endpoint | None = None,
) -> InferReport:
    """Ask the configured model about every paper without a current result; return what was done.

    `limit` asks about at most that many papers (the rest wait for a later run); `again` asks about
    every paper, current or not. The key is checked before any source is read.
    """
    key = inference_key(settings)
    chosen = list(sources)
    paths = sources_or_default(chosen, settings)
    cache = Cache(settings.resolve(CACHE), analysis_fingerprint(settings))
    read = read_sources(paths, settings, cache)
    if not read.papers:
        raise DigestError(no_abstracts(read))
    lock, _ = load_lock(settings)
    papers = identify_papers(read, settings, lock, cache).papers
    results_path = settings.resolve(INFERRED_FILE)
    stored = read_results(results_path)
    fingerprints = {paper.id: paper_id(paper.abstract) for paper in papers}
    todo = [
        paper for paper in papers
        if again or not _current(stored.get(paper.id), fingerprints[paper.id], settings.llm_model)
    ]
    left = max(0, len(todo) - limit) if limit is not None else 0
    todo = todo[:limit] if limit is not None else todo
    # The whole digest decides its field (an ACL list's papers are offered NLP's topics); only `todo` is asked.
    views = offline_views(papers, settings, cache, {paper.id for paper in todo}) if todo else []
    cache.save()
    jobs = [
        Job(paper.id, fingerprints[paper.id],
            Question(view.lead, tuple(name for name, _ in view.candidates), tuple(view.areas)), dict(view.candidates))
        for paper, view in zip(todo, views, strict=True)
    ]
    endpoint = endpoint or Endpoint(settings.llm_url, settings.llm_model, key, settings.llm_timeout)
    received: dict[str, Result] = {}
    try:
        run = run_jobs(jobs, endpoint, limits_of(settings), results_path, settings.llm_concurrency,
                       tick or (lambda done, total, tokens: None), kept=lambda r: received.__setitem__(r.id, r))
    finally:
        endpoint.close()
        # Sorted, in one step, whatever happened: the appended lines are already safe on the disk.
        merged = {**read_results(results_path), **received}
        if not chosen:
            # The whole digest was read: results of papers it no longer has, or of abstracts since edited, go.
            merged = {pid: r for pid, r in merged.items()
                      if pid in fingerprints and r.current(fingerprints[pid], PROMPT_VERSION)}
        write_results(results_path, merged)
    return InferReport(len(papers), len(papers) - len(todo) - left, run, results_path, left)


def _current(result: Result | None, fingerprint: str, model: str) -> bool:
    return result is not None and result.current(fingerprint, PROMPT_VERSION) and result.model == model
