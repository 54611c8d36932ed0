"""Build digests of 1,000 / 5,000 / 20,000 papers and print what it costs (not a test).

    python bench/scale.py [--sizes 1000 5000 20000] [--corpora ../shared/corpora]

The abstracts come from the shared corpora, written as a plain-text digest
(no titles, so the whole pipeline runs: titles, tags, pages). For each size,
in a fresh project folder:

1. `paper-digest generate` alone: generator time (read + enrich + render),
   its peak RSS and the files it writes;
2. `paper-digest build` in another fresh project: the whole pipeline
   (generator, MkDocs, and Pagefind where the size selects it): total time
   and peak RSS;
3. `mkdocs build` alone on the same Markdown, twice: the engine-only time (the
   faster run), and the ratio total / engine-only;
4. the site's size, and what a reader downloads from opening the home page to
   the first result of a three-word query typed in headless Chromium: the
   search bytes, every byte (uncompressed), and the seconds from the last key
   to the first result;
5. `paper-digest build` again with nothing changed, after one abstract was
   edited, and after 300 papers were added: wall time split into generator,
   MkDocs and search (which overlap), files the generator wrote, whether the
   engine skipped, rebuilt only the changed pages (MkDocs --dirty) or built
   all, and each time over the cold MkDocs-alone build;
6. the largest HTML page of the site and its load time in headless Chromium
   from a local server;
7. what the paper pages cost the engine (bench/engine_pages.py): MkDocs on the
   paper pages alone against MkDocs on as many plain pages of the same length
   (one heading, one paragraph, the same front matter), and the cold build over
   MkDocs on those plain pages;
8. Zensical alone on the same Markdown, beside MkDocs alone (when Zensical is
   installed: `pip install -e '.[zensical]'`); `--engines` measures only this,
   MkDocs and Zensical one after the other on the same generated pages;
9. one edited abstract as CI builds it: a fresh project (every file new) with
   the cold build's `.paper-digest/`, generated pages and site restored (what
   the workflows cache), against the cold build; and how many MB that cache is.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import contextlib
import importlib.util

from bench.engine_pages import engine_seconds, paper_tree, plain_tree
from tests.conftest import copy_project


def abstracts(corpora: Path, count: int) -> list[str]:
    """Return `count` distinct abstracts from the corpora (varied copies past their end)."""
    seen: dict[str, None] = {}
    for name in ("iclr2025.jsonl", "iclr2024.jsonl"):
        with open(corpora / name, encoding="utf-8") as lines:
            for line in lines:
                seen.setdefault(" ".join(json.loads(line)["abstract"].split()), None)
    pool = list(seen)
    out = pool[:count]
    n = 0
    while len(out) < count:
        out.append(f"{pool[n % len(pool)]} We also evaluate on held-out split {n // len(pool) + 2}.")
        n += 1
    return out


def digest_text(size: int, texts: list[str]) -> str:
    """Return the plain-text digest of `texts` (no titles, so the whole pipeline runs)."""
    return f"Scale {size} Papers\n\n" + "\n\n".join(texts) + "\n"


def run(command: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, str]:
    """Run a command; return wall seconds, peak RSS in MB, and its output."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=env)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{output[-3000:]}")
    return elapsed, usage.ru_maxrss / 1024, output


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


#: The query typed in the search box: three words, as a reader would type them.
QUERY = "offline reinforcement learning"


def search_bytes(site: Path, query: str = QUERY) -> tuple[int, int, float]:
    """Open the home page in headless Chromium and type `query` in the search box.

    Return the search bytes (index, runtime, worker) and all bytes fetched from
    opening the home page to the first result (uncompressed), and the seconds
    from the last key to that result.
    """
    from playwright.sync_api import sync_playwright

    from tests.browser.chromium import launch
    from tests.browser.conftest import serve

    server = serve(site)
    fetched: dict[str, int] = {}
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page(viewport={"width": 1280, "height": 900})

            def on_response(response) -> None:
                with contextlib.suppress(Exception):  # a redirect or aborted request has no body
                    fetched[response.url] = len(response.body())

            page.on("response", on_response)
            page.goto(server.url)
            box = page.locator("input[data-pd-query], input.md-search__input").first
            box.click()
            box.press_sequentially(query)
            typed = time.perf_counter()
            page.locator(".md-search-result__item").first.wait_for(timeout=120_000)
            seconds = time.perf_counter() - typed
            browser.close()
    finally:
        server.stop()
    # "/pagefind" covers every part of the index: pagefind/, pagefind-2/, ...
    search = sum(n for url, n in fetched.items() if any(p in url for p in ("/pagefind", "/search/", "/workers/")))
    return search, sum(fetched.values()), seconds


def measure(size: int, corpora: Path, work: Path) -> dict:
    texts = abstracts(corpora, size)
    digest = digest_text(size, texts)
    projects = {}
    for name in ("generate", "build"):
        projects[name] = copy_project(work / f"{name}-{size}")
        (projects[name] / "in").mkdir()
        (projects[name] / "in" / "digest.txt").write_text(digest, encoding="utf-8")
    cli = [sys.executable, "-m", "generator"]
    # The generator alone, in a fresh project.
    gen_time, gen_rss, _ = run([*cli, "generate", "in/digest.txt"], projects["generate"])
    manifest = json.loads(
        (projects["generate"] / "site_src" / ".paper-digest-manifest.json").read_text(encoding="utf-8")
    )
    shutil.rmtree(projects["generate"])
    # The whole pipeline, from nothing to a searchable site, in another fresh project.
    project = projects["build"]
    total_time, total_rss, _ = run([*cli, "build", "in/digest.txt"], project)
    from generator.build import ENGINE_VARIABLE
    from generator.settings import load_settings

    engine = load_settings(project).search_engine(size)
    env = {**os.environ, ENGINE_VARIABLE: engine}
    # Twice, and the faster one kept: on a shared machine one run can take a quarter longer (20,000
    # papers: 112 s in one run, 139 s in another), which would flatter every ratio below.
    engine_times = []
    for _ in range(2):
        seconds, _engine_rss, _ = run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(work / f"engine-{size}")],
            project, env,
        )
        engine_times.append(seconds)
        shutil.rmtree(work / f"engine-{size}", ignore_errors=True)
    engine_time = min(engine_times)
    pages = engine_pages(project, engine)
    ci_edit_s, ci_analysed, ci_cache_mb = ci_edit(project, work / f"ci-{size}", texts, size)
    site = project / "site"
    search, session, first_result_s = search_bytes(site)
    search_kb = search / 1e3
    largest, largest_kb, load_s = largest_page(site)
    noop_time, _, noop_out = run([*cli, "build", "in/digest.txt"], project)
    edited = [*texts]
    edited[1] = edited[1] + " We also release the code."
    digest = digest_text(size, edited)
    (project / "in" / "digest.txt").write_text(digest, encoding="utf-8")
    edit_time, _, edit_out = run([*cli, "build", "in/digest.txt"], project)
    added = abstracts(corpora, size + 300)[size:]
    digest = digest_text(size, [*edited, *added])
    (project / "in" / "digest.txt").write_text(digest, encoding="utf-8")
    add_time, add_rss, add_out = run([*cli, "build", "in/digest.txt"], project)
    return {
        "papers": size,
        "search": engine,
        "generator_s": gen_time,
        "generator_rss_mb": gen_rss,
        "papers_per_s": size / gen_time,
        "files_written": len(manifest),
        "total_s": total_time,
        "total_rss_mb": total_rss,
        "engine_only_s": engine_time,
        "engine_only_runs_s": engine_times,
        "total_over_engine": total_time / engine_time,
        "site_mb": folder_bytes(site) / 1e6,
        "search_kb_first_result": search_kb,
        "session_kb_first_result": session / 1e3,
        "first_result_s": first_result_s,
        "noop_rebuild_s": noop_time,
        "noop_written": _written(noop_out),
        "noop_engine": _engine_step(noop_out),
        "edit_rebuild_s": edit_time,
        "edit_written": _written(edit_out),
        "edit_engine": _engine_step(edit_out),
        "edit_split": _split(edit_out),
        "add_rebuild_s": add_time,
        "add_written": _written(add_out),
        "add_engine": _engine_step(add_out),
        "add_split": _split(add_out),
        "add_rss_mb": add_rss,
        "noop_split": _split(noop_out),
        "largest_page": largest,
        "largest_page_kb": largest_kb,
        "largest_page_load_s": load_s,
        **pages,
        "total_over_plain": total_time / pages["plain_pages_s"],
        "ci_edit_s": ci_edit_s,
        "ci_edit_analysed": ci_analysed,
        "ci_cache_mb": ci_cache_mb,
    }


def engine_pages(project: Path, search: str) -> dict:
    """MkDocs on the paper pages alone and on plain pages of the same length; Zensical alone on the whole docs dir."""
    papers_docs, plain_docs = project / "bench-papers", project / "bench-plain"
    count = paper_tree(project / "site_src", papers_docs)
    plain_tree(project / "site_src", plain_docs)
    papers_s = engine_seconds(project, papers_docs, "mkdocs", search)
    plain_s = engine_seconds(project, plain_docs, "mkdocs", search)
    shutil.rmtree(papers_docs)
    shutil.rmtree(plain_docs)
    zensical = importlib.util.find_spec("zensical") is not None
    return {
        "paper_pages": count,
        "paper_pages_s": papers_s,
        "plain_pages_s": plain_s,
        "paper_over_plain": papers_s / plain_s,
        "zensical_only_s": engine_seconds(project, project / "site_src", "zensical", search) if zensical else None,
    }


def engines_only(size: int, corpora: Path, work: Path) -> None:
    """Print MkDocs alone and Zensical alone on the same generated pages of `size` papers, one after the other."""
    project = copy_project(work / f"engines-{size}")
    (project / "in").mkdir()
    (project / "in" / "digest.txt").write_text(digest_text(size, abstracts(corpora, size)), encoding="utf-8")
    run([sys.executable, "-m", "generator", "generate", "in/digest.txt"], project)
    from generator.settings import load_settings

    search = load_settings(project).search_engine(size)
    mkdocs_s = engine_seconds(project, project / "site_src", "mkdocs", search)
    zensical_s = engine_seconds(project, project / "site_src", "zensical", search)
    print(f"{size:,} | {search} | {mkdocs_s:.1f} | {zensical_s:.1f} | {zensical_s / mkdocs_s:.2f}", flush=True)
    shutil.rmtree(project)


#: What the workflows cache between runs (actions/cache `path` in .github/workflows/), less the hand-written pages.
CI_CACHED = (".paper-digest", "site", "site_src")


def ci_edit(project: Path, clone: Path, texts: list[str], size: int) -> tuple[float, int, float]:
    """Build one edited abstract as CI does: a fresh project with `project`'s cached build state restored.

    Return the build's wall seconds, how many abstracts it analysed, and the cache's size in MB.
    """
    copy_project(clone)
    for name in CI_CACHED:
        ignore = shutil.ignore_patterns("about.md", "assets") if name == "site_src" else None
        shutil.copytree(project / name, clone / name, copy_function=shutil.copy2, ignore=ignore, dirs_exist_ok=True)
    cache_mb = sum(folder_bytes(clone / name) for name in CI_CACHED) / 1e6
    edited = [*texts]
    edited[1] = edited[1] + " We also release the code."
    (clone / "in").mkdir()
    (clone / "in" / "digest.txt").write_text(digest_text(size, edited), encoding="utf-8")
    summary = clone / "summary.md"
    seconds, _, _ = run([sys.executable, "-m", "generator", "build", "in/digest.txt", "--summary", str(summary)], clone)
    match = re.search(r"\| Analysed again \| ([\d,]+)", summary.read_text(encoding="utf-8"))
    shutil.rmtree(clone)
    return seconds, int(match.group(1).replace(",", "")) if match else -1, cache_mb


def _split(output: str) -> str:
    """Return the CLI's time split ("generator 4.1 s, MkDocs 7.0 s, search 3.2 s"), or ''."""
    match = re.search(r"\(((?:generator|MkDocs|Zensical|search) [^)]*)\)", output)
    return match.group(1) if match else ""


def largest_page(site: Path) -> tuple[str, float, float]:
    """Return the largest HTML page (site path), its size in KB, and its load time in Chromium in seconds."""
    from playwright.sync_api import sync_playwright

    from tests.browser.chromium import launch
    from tests.browser.conftest import serve

    page_path = max(site.rglob("*.html"), key=lambda p: p.stat().st_size)
    rel = page_path.relative_to(site).as_posix()
    server = serve(site)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.url)  # warm the shared scripts and styles, as a reader arriving from home would
            start = time.perf_counter()
            page.goto(server.url + rel.removesuffix("index.html"), wait_until="load")
            seconds = time.perf_counter() - start
            browser.close()
    finally:
        server.stop()
    return rel, page_path.stat().st_size / 1e3, seconds


def _written(output: str) -> int:
    match = re.search(r"([\d,]+) written", output)
    return int(match.group(1).replace(",", "")) if match else -1


def _engine_step(output: str) -> str:
    for words, name in (("build skipped", "skipped"), ("changed pages rebuilt", "dirty"), ("built", "full")):
        if words in output:
            return name
    return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--engines", action="store_true",
                        help="only item 8: generate the pages, then MkDocs alone and Zensical alone on them")
    args = parser.parse_args()
    print(f"$ python bench/scale.py --sizes {' '.join(map(str, args.sizes))}{' --engines' if args.engines else ''}")
    if args.engines:
        with tempfile.TemporaryDirectory(prefix="scale-") as tmp:
            print("papers | search | MkDocs alone s | Zensical alone s | Zensical / MkDocs")
            for size in args.sizes:
                engines_only(size, args.corpora, Path(tmp))
        return
    rows = []
    with tempfile.TemporaryDirectory(prefix="scale-") as tmp:
        for size in args.sizes:
            row = measure(size, args.corpora, Path(tmp))
            rows.append(row)
            shown = {k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()}
            shown["engine_only_runs_s"] = [round(v, 1) for v in row["engine_only_runs_s"]]
            print(json.dumps(shown), flush=True)
    print()
    header = ("papers", "search", "gen s", "papers/s", "gen RSS MB", "files", "total s", "engine s", "total/engine",
              "peak RSS MB", "site MB", "search KB", "session KB", "1st result s")
    print(" | ".join(header))
    for r in rows:
        print(" | ".join([
            f"{r['papers']:,}", r["search"], f"{r['generator_s']:.1f}", f"{r['papers_per_s']:.0f}",
            f"{r['generator_rss_mb']:.0f}", f"{r['files_written']:,}", f"{r['total_s']:.1f}",
            f"{r['engine_only_s']:.1f}", f"{r['total_over_engine']:.2f}", f"{r['total_rss_mb']:.0f}",
            f"{r['site_mb']:.0f}", f"{r['search_kb_first_result']:.0f}", f"{r['session_kb_first_result']:.0f}",
            f"{r['first_result_s']:.2f}",
        ]))
    print()
    print("papers | rebuild | s | x MkDocs-alone cold | files written | engine | split")
    for r in rows:
        for name in ("noop", "edit", "add"):
            label = {"noop": "no change", "edit": "one abstract edited", "add": "300 papers added"}[name]
            seconds = r[f"{name}_rebuild_s"]
            print(f"{r['papers']:,} | {label} | {seconds:.1f} | {seconds / r['engine_only_s']:.2f} | "
                  f"{r[f'{name}_written']} | {r[f'{name}_engine']} | {r.get(f'{name}_split', '')}")
    print()
    print("papers | largest HTML page | KB | load s (Chromium, local server)")
    for r in rows:
        print(f"{r['papers']:,} | {r['largest_page']} | {r['largest_page_kb']:.0f} | {r['largest_page_load_s']:.2f}")
    print()
    print("papers | MkDocs: paper pages s | plain pages of the same length s | per page x | cold / MkDocs on plain"
          " | Zensical alone s | MkDocs alone s | CI one edit s (analysed) | CI cache MB")
    for r in rows:
        zensical = f"{r['zensical_only_s']:.1f}" if r["zensical_only_s"] is not None else "not installed"
        print(f"{r['papers']:,} | {r['paper_pages_s']:.1f} | {r['plain_pages_s']:.1f} | {r['paper_over_plain']:.2f} | "
              f"{r['total_over_plain']:.2f} | {zensical} | {r['engine_only_s']:.1f} | "
              f"{r['ci_edit_s']:.1f} ({r['ci_edit_analysed']}) vs cold {r['total_s']:.1f} | {r['ci_cache_mb']:.0f}")
    by_size = {r["papers"]: r for r in rows}
    if 5000 in by_size and 20000 in by_size:
        print(f"engine time(20,000) / time(5,000) = "
              f"{by_size[20000]['engine_only_s'] / by_size[5000]['engine_only_s']:.2f}  (target <= 4.4)")


if __name__ == "__main__":
    main()
