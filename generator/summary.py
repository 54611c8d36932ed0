"""What the command line prints about a run: its summary, the input's problems, the doubtful decisions."""

from __future__ import annotations

import time
from collections import Counter

from rich.console import Console
from rich.table import Table

from .build.sitesize import SiteSize, size_lines
from .identity import Lock, identify
from .inference import InferReport
from .pipeline import GenerateReport
from .read import STOPS, Problem, ReadResult
from .read.corrections import doubtful_lines
from .settings import Settings

#: Where every command prints what the user sees (stdout stays free for `diff`'s report).
# Soft wrap: a reported problem stays one line in a CI log or a pipe (not cut at 80 columns).
console = Console(stderr=True, highlight=False, soft_wrap=True)

#: How the summary names the stages the site build times.
STAGE_NAMES = {"mkdocs": "MkDocs", "zensical": "Zensical"}


def print_summary(
    report: GenerateReport, started: float, verbose: bool = False, built: str | None = None,
    engine_timings: dict[str, float] | None = None, size: SiteSize | None = None,
) -> None:
    """Print what a run read, wrote and took, after the problems it found; with `size`, the site's parts."""
    table = Table.grid(padding=(0, 2))
    joins = sum(p.kind == "joined" for p in report.problems)
    ignored = sum(p.kind == "ignored" for p in report.problems)
    table.add_row("Papers", f"{report.paper_count} from {len(report.files)} files"
                  + (f" ({ignored} other files not read)" if ignored else "")
                  + (f", {joins} paragraphs joined to the abstract before them" if joins else "")
                  + (" (inputs unchanged since the last run)" if report.reused else ""))
    table.add_row("Tags", str(report.tag_count))
    languages = language_line(report.language_counts)
    if languages:
        table.add_row("Languages", languages)
    table.add_row(
        "Pages",
        f"{report.render.total} generated files: {len(report.render.written)} written, "
        f"{report.render.unchanged} unchanged, {len(report.render.deleted)} deleted",
    )
    if built:
        table.add_row("Site", built)
    split = [("generator", sum(report.timings.values()))] if report.timings else []
    split += [(STAGE_NAMES.get(name, name), seconds) for name, seconds in (engine_timings or {}).items()]
    detail = f" ({', '.join(f'{name} {seconds:.1f} s' for name, seconds in split)})" if split else ""
    table.add_row("Time", f"{time.perf_counter() - started:.1f} s{detail}")
    if size is not None:
        for part, figures in size_lines(size, report.paper_count):
            table.add_row("", f"{part}: {figures}")
    print_problems(report.problems, verbose)
    console.print(table)


def language_line(counts: dict[str, int]) -> str:
    """Return the papers per language when some are not in English ("" when all are): they get no inferred tags."""
    other = sum(counts.values()) - counts.get("en", 0)
    if not other:
        return ""
    listed = ", ".join(f"{lang} {count:,}" for lang, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{listed} (not English: {other:,}, titled from their own sentences, no topic or area inferred)"


def print_problems(problems: list[Problem], verbose: bool = False) -> None:
    """Print the input's problems: skipped records, warnings, merges, joins, splits and edits (-v: each one)."""
    skipped = [p for p in problems if p.level == "error" and p.kind not in ("no-abstract", *STOPS)]
    left_out = [p for p in problems if p.kind in STOPS]
    no_abstract = [p for p in problems if p.kind == "no-abstract"]
    bibtex = [p for p in problems if p.kind == "bibtex"]
    ignored = [p.file for p in problems if p.kind == "ignored"]
    if ignored:
        console.print(f"Not read: {len(ignored)} files of no known format ({', '.join(ignored)})", markup=False,
                      soft_wrap=True)
    warnings = [p for p in problems if p.level == "warning"]
    merged = [p for p in problems if p.level == "info" and p.kind == "merged"]
    joined = [p for p in problems if p.kind == "joined"]
    edited = [p for p in problems if p.kind == "edited"]
    split = [p for p in problems if p.kind == "split"]
    if left_out:
        unread = sum(p.kind == "bad-file" for p in left_out)
        runaway = len(left_out) - unread
        what = " and ".join(part for part in (
            f"{unread} {'file' if unread == 1 else 'files'} not read whole" if unread else "",
            f"{runaway} runaway {'abstract' if runaway == 1 else 'abstracts'}" if runaway else "",
        ) if part)
        lost = sum(max(p.lost, 1) for p in left_out)
        console.print(f"Left out {what} (--skip-bad): about {lost:,} {'abstract' if lost == 1 else 'abstracts'} "
                      "lost:", markup=False)
        for problem in left_out:
            console.print(f"  {problem}", markup=False, highlight=False)
    if skipped:
        console.print(f"Skipped {len(skipped)} bad {'record' if len(skipped) == 1 else 'records'}:")
        for problem in skipped:
            console.print(f"  {problem}", markup=False, highlight=False)
    for problem in warnings:
        console.print(f"warning: {problem}", markup=False, highlight=False)
    if merged:
        console.print(f"Merged {len(merged)} duplicate abstracts:")
        for problem in merged:
            console.print(f"  {problem}", markup=False, highlight=False)
    if joined:
        console.print(f"Joined {len(joined)} paragraphs to the abstract before them ({join_counts(joined)}):",
                      markup=False, highlight=False)
        for problem in joined:
            console.print(f"  {problem}", markup=False, highlight=False)
    for found, what in ((no_abstract, "records without an abstract skipped"),
                        (bibtex, "repeated BibTeX keys or fields merged")):
        if found:
            files = sorted({p.file for p in found})
            console.print(f"{len(found)} {what} ({', '.join(files[:3])}{', …' if len(files) > 3 else ''})"
                          + ("" if verbose else "; -v lists them"), markup=False, soft_wrap=True)
            for problem in found if verbose else ():
                console.print(f"  {problem}", markup=False, highlight=False)
    if split:
        console.print(f"Split {len(split)} paragraphs into papers of their own (the overrides file's split:):",
                      markup=False)
        for problem in split:
            console.print(f"  {problem}", markup=False, highlight=False)
    if edited:
        console.print(f"{len(edited)} edited abstracts kept their ids and addresses"
                      + ("" if verbose else " (-v lists them)"), markup=False)
        if verbose:
            for problem in edited:
                console.print(f"  {problem}", markup=False, highlight=False)


def join_counts(joined: list[Problem]) -> str:
    """Return how many paragraphs were joined for each reason, most common first."""
    counts = Counter(problem.message.split(": ", 1)[-1] for problem in joined)
    return ", ".join(f"{n} {reason}" for reason, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def markdown_summary(
    report: GenerateReport, how: str, seconds: float, engine_timings: dict[str, float], size: SiteSize | None = None
) -> str:
    """Return a build's summary as Markdown (for a CI job's summary): papers analysed again, each stage's time,
    and with `size` the site's bytes and files by part."""
    stages = [*report.timings.items(), *engine_timings.items()]
    rows = [
        ("Papers", f"{report.paper_count:,}"),
        ("Analysed again", f"{report.analysed_count:,} (the others' analyses came from .paper-digest/)"),
        ("Pages", f"{len(report.render.written):,} written, {report.render.unchanged:,} unchanged, "
                  f"{len(report.render.deleted):,} deleted"),
        ("Site", how),
        ("Time", f"{seconds:.1f} s"),
        *((f"— {STAGE_NAMES.get(name, name)}", f"{value:.1f} s") for name, value in stages),
        *((f"Size: {part}", figures) for part, figures in (size_lines(size, report.paper_count) if size else [])),
    ]
    return "### paper-digest build\n\n| | |\n|---|---|\n" + "".join(f"| {a} | {b} |\n" for a, b in rows) + "\n"


def print_doubtful(result: ReadResult, settings: Settings, lock: Lock) -> None:
    """Print the paragraph decisions the model was least sure of, each with the correction that reverses it."""
    if not result.doubts:
        return
    ids = {read.id: paper.id for read, paper in zip(result.papers, identify(result.papers, lock).papers, strict=True)}
    lines = doubtful_lines(result.doubts, ids)
    where = settings.overrides_file or "tag-overrides.yaml"
    console.print(f"{len(lines)} doubtful paragraph decisions (the model was close to its threshold); to reverse "
                  f"one, paste its line into {where}, under the section named:", markup=False, soft_wrap=True)
    for what, section, line in lines:
        console.print(f"  {what}, under {section}:", markup=False, highlight=False, soft_wrap=True)
        console.print(f"  {line}", markup=False, highlight=False, soft_wrap=True)


def print_infer_summary(report: InferReport) -> None:
    """Print what `infer` asked, what the model's answers gave and what they cost in tokens and time."""
    run = report.run
    table = Table.grid(padding=(0, 2))
    failed = f", {run.failed} failed (asked again next run)" if run.failed else ""
    left = f", {report.left} left for a later run (--limit)" if report.left else ""
    table.add_row("Papers", f"{report.papers}: {run.asked} answered now, {report.current} already in "
                  f"{report.results_file.name}{failed}{left}")
    if run.asked:
        table.add_row("Model", f"{run.model} (response format: {run.mode or 'none'})")
        asked_areas = run.accepted["area"] or any(k.startswith("area: ") for k in run.rejected)
        for name in ("title", "summary", "topics", "area") if asked_areas else ("title", "summary", "topics"):
            fell = {k.split(": ", 1)[1]: v for k, v in run.rejected.items() if k.startswith(f"{name}: ")}
            reasons = "; ".join(f"{count} {reason}" for reason, count in sorted(fell.items(), key=lambda kv: -kv[1]))
            table.add_row({"title": "Titles", "summary": "Summaries", "topics": "Topics", "area": "Areas"}[name],
                          f"{run.accepted[name]} from the model, {sum(fell.values())} offline"
                          + (f" ({reasons})" if reasons else ""))
        total = run.prompt_tokens + run.completion_tokens
        table.add_row("Tokens", f"{total:,} ({run.prompt_tokens:,} prompt + {run.completion_tokens:,} completion; "
                      f"{total / run.asked:,.0f} per paper)")
        table.add_row("Time", f"{run.seconds:.1f} s ({run.seconds / run.asked:.2f} s per paper)")
    console.print(table)
