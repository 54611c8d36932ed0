"""The `paper-digest` command line: thin commands over the pipeline."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import click
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from . import __version__
from .build import EarlySearch, build_site, check_engine
from .build.sitesize import HOSTS, MB, SiteSize, host_warnings, measure_site
from .errors import DigestError
from .formats import INPUT_FORMATS
from .llm.store import INFERRED_FILE
from .pipeline import (
    GenerateReport,
    generate,
    identify_papers,
    load_lock,
    load_project,
    return_freed_memory,
    sources_or_default,
)
from .project import engine_config, find_project, new_project
from .read import no_abstracts, read_sources
from .settings import SETTINGS_FILE, SITE_ENGINES, Settings, inference_key
from .summary import (
    STAGE_NAMES,
    console,
    markdown_summary,
    print_doubtful,
    print_infer_summary,
    print_problems,
    print_summary,
)

_project_option = click.option(
    "--project",
    "project_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The digest project's folder (default: the current folder, or the nearest parent with "
    "paper-digest.toml or mkdocs.yml).",
)
_collection_option = click.option(
    "--collection", default=None, metavar="NAME", help="Put every paper in collection NAME, whatever the sources say."
)
_locked_option = click.option(
    "--locked", is_flag=True, help="Fail if paper-digest.lock would change (for CI: the lock is committed)."
)
_strict_option = click.option(
    "--strict", is_flag=True, default=None, help="Treat any skipped or suspicious input as an error."
)
_skip_bad_option = click.option(
    "--skip-bad", is_flag=True, default=None,
    help="Publish without a file that cannot be read whole (cut off, broken quoting, not XML) or an abstract "
    "past the bounds, counting what is left out; without it either stops the build.",
)
_sources_argument = click.argument("sources", nargs=-1, type=click.Path(path_type=Path))
_format_option = click.option(
    "--format",
    "input_format",
    type=click.Choice(INPUT_FORMATS),
    default=None,
    help="Reader for every source (default: auto, chosen by each file's ending).",
)


def _generate_options(command):
    """Add the options `generate` and `build` share: SOURCES, --project, --strict, --skip-bad, --format,
    --collection, --locked."""
    for option in (_locked_option, _collection_option, _format_option, _skip_bad_option, _strict_option,
                   _project_option, _sources_argument):
        command = option(command)
    return command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="paper-digest")
@click.option("-v", "--verbose", is_flag=True, help="Log what each stage does.")
def main(verbose: bool) -> None:
    """Turn conference abstracts into a searchable static website.

    SOURCES are digest files or folders of them; without SOURCES the project's
    default sources (the `default_sources` setting: data/) are read. Start a
    project with `paper-digest new DIR`.
    """
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(name)s: %(message)s")
    _shown["verbose"] = verbose


#: What the command line was asked to show: -v lists every report line.
_shown = {"verbose": False}


def _run_generate(
    sources: tuple[Path, ...], settings: Settings, early: EarlySearch | None = None, locked: bool = False
) -> GenerateReport:
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True, disable=not console.is_terminal,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(what: str, done: int, total: int) -> None:
            if what not in tasks:
                tasks[what] = bar.add_task(what, total=total)
            bar.update(tasks[what], completed=done, total=total)

        return generate(sources, settings, progress=progress, enriched=early.start if early else None, locked=locked)


@main.command("generate")
@_generate_options
def generate_command(
    sources: tuple[Path, ...], project_dir: Path | None, strict: bool | None, skip_bad: bool | None,
    input_format: str | None, collection: str | None, locked: bool,
) -> None:
    """Write the Markdown pages and papers.json into the docs dir (no site build)."""
    started = time.perf_counter()
    settings = load_project(find_project(project_dir), strict=strict, skip_bad=skip_bad, input_format=input_format,
                            collection=collection)
    print_summary(_run_generate(sources, settings, locked=locked), started, _shown["verbose"])


@main.command("build")
@_generate_options
@click.option("--force", is_flag=True, help="Build the whole site, even when no page or only some changed.")
@click.option(
    "--engine", "site_engine", type=click.Choice(SITE_ENGINES), default=None,
    help="Site engine (default: the site_engine setting, mkdocs). zensical needs `pip install '.[zensical]'`.",
)
@click.option(
    "--site-url", default=None, metavar="URL",
    help="The address the site is published at (default: the site_url setting): feeds link absolutely, and "
    "the 404 page works at any depth below it.",
)
@click.option(
    "--summary", "summary_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="Append a Markdown summary (papers analysed again, each stage's time) to this file, "
    "e.g. \"$GITHUB_STEP_SUMMARY\".",
)
@click.option(
    "--infer", "run_inference", is_flag=True,
    help="Ask the language model of the llm_* settings about papers without a stored result first (as "
    "`paper-digest infer`); without it the build only reads paper-digest.inferred.jsonl and never calls the network.",
)
def build_command(
    sources: tuple[Path, ...], project_dir: Path | None, strict: bool | None, skip_bad: bool | None,
    input_format: str | None, collection: str | None, locked: bool, force: bool,
    site_engine: str | None, site_url: str | None, summary_file: Path | None, run_inference: bool,
) -> None:
    """Read SOURCES, infer titles and tags, render Markdown and build the site with MkDocs (or Zensical)."""
    started = time.perf_counter()
    settings = load_project(
        find_project(project_dir), strict=strict, skip_bad=skip_bad, input_format=input_format,
        collection=collection, site_engine=site_engine, site_url=site_url,
    )
    check_engine(settings)  # a missing engine stops the build before any work
    if run_inference:
        inference_key(settings)  # no endpoint or no key: said before any work
        _run_infer(sources, settings)
    # The search index of an incremental build starts while the pages render.
    with EarlySearch(settings, force=force) as early:
        report = _run_generate(sources, settings, early, locked=locked)
        # This process waits while the engine and the search index run: with what it still holds let go.
        report = report.without_papers()
        return_freed_memory()
        with console.status(f"Building the site with {STAGE_NAMES[settings.site_engine]} …"):
            result = build_site(settings, report.engine, force=force, early=early)
    how = "unchanged, build skipped" if result.skipped else "changed pages rebuilt" if result.incremental else "built"
    where = f"{result.site_dir} ({how})"
    size = measure_site(result.site_dir)
    print_summary(report, started, _shown["verbose"], built=where, engine_timings=result.timings,
                  size=size if summary_file is not None or _shown["verbose"] else None)
    if summary_file is not None:
        with summary_file.open("a", encoding="utf-8") as out:
            out.write(markdown_summary(report, how, time.perf_counter() - started, result.timings, size))
    _check_host(size, settings)


def _check_host(size: SiteSize, settings: Settings) -> None:
    """Warn, naming the host and its limit, when the site passed 80% of one; with `strict`, stop with an error."""
    warnings = host_warnings(
        size, HOSTS[settings.host], round(settings.host_max_mb * MB), settings.host_max_files
    )
    for warning in warnings:
        console.print(f"warning: {warning}", markup=False, style="yellow")
    if warnings and settings.strict:
        raise DigestError(
            f"strict mode: the site is near or over a limit of {HOSTS[settings.host].name} (listed above); "
            "publish it as one site per collection (docs/guide/scale.md), or set `host`"
        )


@main.command("infer")
@_sources_argument
@_project_option
@_format_option
@_collection_option
@click.option("--limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="Ask about at most N papers (try a model on a few before paying for all); run again for the rest.")
@click.option("--again", is_flag=True, help="Ask about every paper, even those with a current stored result.")
@click.option("--concurrency", "llm_concurrency", type=click.IntRange(1, 64), default=None, metavar="N",
              help="Requests under way at once (default: the llm_concurrency setting, 1).")
def infer_command(
    sources: tuple[Path, ...], project_dir: Path | None, input_format: str | None, collection: str | None,
    limit: int | None, again: bool, llm_concurrency: int | None,
) -> None:
    """Ask a language model for each paper's title, summary and main topics; keep them in paper-digest.inferred.jsonl.

    The endpoint is the llm_url, llm_model and llm_api_key_env settings' (any OpenAI-compatible server:
    Ollama, llama.cpp, vLLM, a hosted API). Only papers without a current result are asked (a new or edited
    abstract); Ctrl-C or a crash loses no answer received, and running it again goes on. Commit the file:
    every build reads it, offline.
    """
    settings = load_project(find_project(project_dir), input_format=input_format, collection=collection,
                            llm_concurrency=llm_concurrency)
    inference_key(settings)  # no endpoint or no key: said before any source is read
    _run_infer(sources, settings, limit=limit, again=again)


def _run_infer(sources: tuple[Path, ...], settings: Settings, limit: int | None = None, again: bool = False) -> None:
    from .inference import infer

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[tokens]}"),
        TimeElapsedColumn(), TimeRemainingColumn(),
        console=console, transient=True, disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task(f"Asking {settings.llm_model}", total=None, tokens="")

        def tick(done: int, total: int, tokens: int) -> None:
            bar.update(task, completed=done, total=total, tokens=f"{tokens:,} tokens")

        try:
            report = infer(sources, settings, tick, limit=limit, again=again)
        except KeyboardInterrupt:
            console.print("Interrupted: every answer received is kept in "
                          f"{settings.resolve(INFERRED_FILE).name}; run `paper-digest infer` again to go on.",
                          markup=False)
            raise SystemExit(130) from None
    print_infer_summary(report)


#: Collections `check` names before it only counts the rest.
_NAMED_COLLECTIONS = 8


@main.command("check")
@_sources_argument
@_project_option
@_strict_option
@_skip_bad_option
@_format_option
@_collection_option
def check_command(
    sources: tuple[Path, ...], project_dir: Path | None, strict: bool | None, skip_bad: bool | None,
    input_format: str | None, collection: str | None,
) -> None:
    """Read SOURCES (default: the project's) and report counts, duplicates and problems.

    Exits as `build` would on the same input: 1 when there is no abstract, when a file cannot be read
    whole or an abstract is past the bounds (unless --skip-bad), or with --strict when anything was
    skipped or looks wrong; 0 otherwise.
    """
    settings = load_project(find_project(project_dir), site=False, strict=strict, skip_bad=skip_bad,
                            input_format=input_format, collection=collection)
    result = read_sources(sources_or_default(sources, settings), settings)
    lock, _ = load_lock(settings)
    if result.papers:
        result.problems.extend(p for p in identify_papers(result, settings, lock).problems if p.kind != "edited")
    print_problems(result.problems, _shown["verbose"])
    print_doubtful(result, settings, lock)
    collections = sorted({p.collection for p in result.papers})
    joins = sum(p.kind == "joined" for p in result.problems)
    # A bibliography has a collection per journal and year: name a few, count them all.
    named = ", ".join(collections[:_NAMED_COLLECTIONS]) or "none"
    if len(collections) > _NAMED_COLLECTIONS:
        named += f", … ({len(collections)} collections)"
    console.print(
        f"{len(result.papers)} abstracts in {len(result.files)} files; "
        f"collections: {named}"
        + (f"; {joins} paragraphs joined to the abstract before them" if joins else ""),
        markup=False,
    )
    if not result.papers:
        raise DigestError(no_abstracts(result))
    issues = [p for p in result.problems if p.level != "info"]
    if settings.strict and issues:
        raise DigestError(f"strict mode: {len(issues)} problems in the input (listed above)")


@main.command("diff")
@click.argument("old", type=click.Path(exists=True, path_type=Path))
@click.argument("new", type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the report to a file.")
def diff_command(old: Path, new: Path, output: Path | None) -> None:
    """Compare two papers.json files (or built sites) and print a Markdown change report."""
    from .diff import diff_papers, load_papers, to_markdown

    report = to_markdown(diff_papers(load_papers(old), load_papers(new)))
    if output:
        output.write_text(report, encoding="utf-8")
    else:
        click.echo(report)


@main.command("serve")
@_sources_argument
@_project_option
@click.option("-a", "--dev-addr", default="127.0.0.1:8000", show_default=True, help="Address to serve on.")
@click.option("--interval", default=1.0, show_default=True, help="Seconds between checks of the sources.")
@_format_option
@_skip_bad_option
def serve_command(
    sources: tuple[Path, ...], project_dir: Path | None, dev_addr: str, interval: float, input_format: str | None,
    skip_bad: bool | None,
) -> None:
    """Preview the site with live reload; regenerate when a source file changes.

    A small digest (Material search) is previewed by `mkdocs serve`. A large one (Pagefind) is rebuilt
    through the same incremental path as `build` (cached analyses, only changed pages rewritten, MkDocs
    --dirty, Pagefind) into the project's site folder, which MkDocs' live-reload server serves.
    """
    from mkdocs.commands.serve import serve

    host, _, port = dev_addr.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(f"expected HOST:PORT, found {dev_addr!r}", param_hint="--dev-addr")
    settings = load_project(find_project(project_dir), input_format=input_format, skip_bad=skip_bad)
    report = _run_generate(sources, settings)
    paths = sources_or_default(sources, settings)
    if report.engine == "pagefind":
        _serve_built_site(sources, paths, settings, host or "127.0.0.1", int(port), report)
        return
    # The model's stored answers are a source too: a run of `infer` beside the preview shows in it.
    watched = [*paths, settings.resolve(INFERRED_FILE)]
    watcher = threading.Thread(target=_watch_sources, args=(watched, sources, settings, interval), daemon=True)
    watcher.start()
    # MkDocs watches the docs dir: regenerated pages trigger its rebuild and live reload. (It logs its own
    # address only at INFO, which this command leaves off unless -v.)
    console.print(f"Serving {settings.project_dir} on http://{host or '127.0.0.1'}:{port}/ (rebuilt on each change)")
    serve(config_file=str(engine_config(settings)), dev_addr=dev_addr, livereload=True)


def _serve_built_site(
    sources: tuple[Path, ...], paths: list[Path], settings: Settings, host: str, port: int, report: GenerateReport
) -> None:
    from mkdocs.livereload import LiveReloadServer

    build_site(settings, report.engine)

    def rebuild() -> None:
        try:
            with EarlySearch(settings) as early:
                again = generate(sources, settings, enriched=early.start)
                result = build_site(settings, again.engine, early=early)
            site = "unchanged" if result.skipped else "rebuilt in place" if result.incremental else "rebuilt"
            console.print(f"Change seen: {len(again.render.written)} generated pages rewritten, site {site}")
        except DigestError as error:
            _preview_error(error)

    server = LiveReloadServer(builder=rebuild, host=host, port=port, root=str(settings.site_path))
    # The sources, and what `mkdocs serve` would watch: the docs dir's hand-written pages, mkdocs.yml, the
    # templates and the theme overrides. A rebuild that finds nothing changed is skipped in a moment.
    watched = [*paths, settings.resolve(INFERRED_FILE), settings.docs_path, settings.resolve(settings.config_file),
               settings.resolve(SETTINGS_FILE), settings.resolve(settings.templates_dir), settings.resolve("overrides")]
    for path in watched:
        if path.exists():
            server.watch(str(path))
    console.print(f"Serving {settings.site_path} on http://{host}:{port}/ (rebuilt on each change)")
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()


def _preview_error(error: DigestError) -> None:
    # The preview keeps running: the next save may fix the source.
    console.print(f"[bold red]error:[/] {escape(error.format_message())}", markup=True)


def _watch_sources(paths: list[Path], sources: tuple[Path, ...], settings: Settings, interval: float) -> None:
    def snapshot() -> dict[Path, int]:
        files = {}
        for path in paths:
            for file in [path] if path.is_file() else path.rglob("*"):
                if file.is_file():
                    files[file] = file.stat().st_mtime_ns
        return files

    seen = snapshot()
    while True:
        time.sleep(interval)
        current = snapshot()
        if current != seen:
            seen = current
            try:
                report = generate(sources, settings)
                console.print(f"Sources changed: {len(report.render.written)} pages rewritten")
            except DigestError as error:
                _preview_error(error)


@main.command("new")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--infer-workflow", is_flag=True,
              help="Also write .github/workflows/infer.yml: run `paper-digest infer` on main by hand, with the key "
              "in a repository secret, and commit the results (docs/guide/inference.md).")
def new_command(directory: Path, infer_workflow: bool) -> None:
    """Start a new digest project in DIRECTORY (missing or empty), as `mkdocs new` does."""
    written = new_project(directory, infer_workflow=infer_workflow)
    console.print(f"Started a digest project in {directory}:", markup=False)
    for name in written:
        console.print(f"  {name}", markup=False)
    console.print(
        # Not "open site/index.html": the site's addresses are folders (papers/x/), which a browser shows
        # as folder listings from the disk; it needs a web server.
        f"Next: put your abstracts in {directory / 'data'} (text, BibTeX, JSON or CSV), then run "
        f"`cd {directory} && paper-digest serve` and open the address it prints; `paper-digest build` "
        "writes the site to publish into site/ (to look at it there: `python -m http.server -d site`).",
        markup=False,
    )


if __name__ == "__main__":
    main()
