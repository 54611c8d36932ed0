"""Ask the model about each paper that has no current result, keeping every result as it arrives."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DigestError
from .checks import summary_problem, title_problem, topics_problem
from .client import Endpoint, EndpointError, Reply
from .prompt import PROMPT_VERSION, Limits, Question, read_answer
from .store import Appender, Result

#: Papers in a row whose request failed (after the client's retries) before the run stops.
FAILURES_IN_A_ROW = 5
#: The longest a rejected value is kept in the results file, in characters.
_KEPT_CHARS = 300


@dataclass(frozen=True)
class Job:
    """One paper to ask about."""

    id: str
    fingerprint: str
    #: The text sent (the abstract as plain text, without trailing notes) and the candidate topics' names.
    question: Question
    #: The offline model's confidence in each candidate topic, by name.
    confidences: dict[str, float]


@dataclass
class RunReport:
    """What a run did: counts for the summary the CLI prints."""

    model: str
    asked: int = 0
    #: Papers whose request failed after its retries: asked again on the next run.
    failed: int = 0
    #: Fields taken from the model, and why others fell back to the offline result ("title: quotes").
    accepted: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    #: The response format the server took (client.MODES).
    mode: str = ""
    last_error: str = ""

    def count(self, result: Result) -> None:
        self.prompt_tokens += result.tokens[0]
        self.completion_tokens += result.tokens[1]
        for name in ("title", "summary", "topics", "area"):
            if name in result.rejected:
                self.rejected[f"{name}: {result.rejected[name]['reason'].split(' (')[0]}"] += 1
            elif name != "area" or result.area is not None:
                self.accepted[name] += 1


def judge(job: Job, reply: Reply, limits: Limits, model: str) -> Result:
    """Return the paper's result: each field of the reply that passes validation, the others rejected with why."""
    answer = read_answer(reply.content)
    rejected: dict[str, dict[str, str]] = {}
    kept = (reply.content or "")[:_KEPT_CHARS]
    if answer.problem:
        asked = ("title", "summary", "topics", "area") if job.question.areas else ("title", "summary", "topics")
        rejected = {name: {"reason": answer.problem, "value": kept} for name in asked}
        return Result(job.id, job.fingerprint, PROMPT_VERSION, model, rejected=rejected,
                      tokens=(reply.prompt_tokens, reply.completion_tokens))
    abstract = job.question.abstract
    title = (answer.title or "").strip()
    why = "missing" if answer.title is None else title_problem(title, abstract, limits.max_title_chars)
    if why:
        rejected["title"] = {"reason": why, "value": (answer.title or "")[:_KEPT_CHARS]}
    summary = (answer.summary or "").strip()
    why = "missing" if answer.summary is None else summary_problem(summary, abstract, limits.max_chars)
    if why:
        rejected["summary"] = {"reason": why, "value": (answer.summary or "")[:_KEPT_CHARS]}
    topics = answer.topics
    if topics is not None and all(isinstance(topic, str) for topic in topics):
        topics = list(dict.fromkeys(topics))  # a topic named twice is the same choice (no schema keeps items unique)
    why = "missing" if topics is None else topics_problem(topics, job.question.candidates, limits.max_topics)
    if why:
        rejected["topics"] = {"reason": why, "value": str(topics)[:_KEPT_CHARS]}
    area = answer.area
    if job.question.areas:
        # Only an area of the paper's field, as the schema's enum says; a server that ignores it is caught here.
        why = "missing" if area is None else "" if area in job.question.areas else "an area outside the candidates"
        if why:
            rejected["area"] = {"reason": why, "value": str(area)[:_KEPT_CHARS]}
    return Result(
        job.id, job.fingerprint, PROMPT_VERSION, model,
        title=None if "title" in rejected else title,
        summary=None if "summary" in rejected else summary,
        topics=None if "topics" in rejected or topics is None
        else tuple((str(name), job.confidences.get(str(name), 0.0)) for name in topics),
        area=area if job.question.areas and "area" not in rejected else None,
        rejected=rejected, tokens=(reply.prompt_tokens, reply.completion_tokens),
    )


#: Called after each paper: (papers done, papers to do, tokens so far).
Tick = Callable[[int, int, int], None]


def run_jobs(
    jobs: list[Job], endpoint: Endpoint, limits: Limits, results_path: Path, concurrency: int,
    tick: Tick = lambda done, total, tokens: None, kept: Callable[[Result], None] = lambda result: None,
) -> RunReport:
    """Ask about every job, `concurrency` at a time; append each result to `results_path` as it arrives.

    `kept` sees each result once it is on the disk. A refused key or unknown model stops the run
    at once (EndpointRefused); FAILURES_IN_A_ROW failed requests stop it with a DigestError. Either
    way, and on Ctrl-C, every result received so far is in the file.
    """
    report = RunReport(endpoint.model)
    started = time.perf_counter()
    appender = Appender(results_path)
    in_a_row = 0
    pending: dict[Future[Reply], Job] = {}
    queue = list(reversed(jobs))
    done = 0
    # The first request runs alone: it finds the response format the server takes, once.
    width = 1
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="infer")
    try:
        while queue or pending:
            while queue and len(pending) < width:
                job = queue.pop()
                pending[pool.submit(endpoint.ask, job.question, limits)] = job
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: pending[f].id):
                job = pending.pop(future)
                done += 1
                try:
                    reply = future.result()
                except EndpointError as error:
                    report.failed += 1
                    report.last_error = f"paper {job.id}: {error}"
                    in_a_row += 1
                    if in_a_row >= FAILURES_IN_A_ROW:
                        raise DigestError(
                            f"stopped: {in_a_row} requests to {endpoint.url} failed in a row, each after "
                            f"its retries (last: {error}). {report.asked} results are kept in "
                            f"{results_path.name}; run `paper-digest infer` again to go on from there"
                        ) from None
                else:
                    in_a_row = 0
                    result = judge(job, reply, limits, endpoint.model)
                    appender.add(result)
                    report.asked += 1
                    report.count(result)
                    kept(result)
                tick(done, len(jobs), report.prompt_tokens + report.completion_tokens)
            if endpoint.mode:
                width = concurrency
    finally:
        # On a stop or Ctrl-C: nothing waits for papers not yet asked, and requests under way end now.
        for future in pending:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
        appender.close()
        report.seconds = time.perf_counter() - started
        report.mode = endpoint.mode
    return report
