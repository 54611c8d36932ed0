"""MkDocs run by the build (build/lean_mkdocs.py): the same site, without the whole site held in memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

CONFIG = """site_name: Lean
docs_dir: docs
theme:
  name: material
  font: false
not_in_nav: |
  /papers/
nav:
  - Home: index.md
plugins:
  - search
validation:
  links:
    anchors: warn
"""


def _site(tmp_path: Path, pages: int, words: int) -> Path:
    docs = tmp_path / "docs"
    (docs / "papers").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n\nThe papers: [the first](papers/p0.md#cite).\n", encoding="utf-8")
    for n in range(pages):
        text = " ".join(f"word{(n * 7 + i) % 997}" for i in range(words))
        (docs / "papers" / f"p{n}.md").write_text(
            f"---\nsearch:\n  exclude: true\n---\n# Paper {n}\n\n{text}\n\n## Cite\n\n[Home](../index.md)"
            f" [Next](p{(n + 1) % pages}.md#cite)\n",
            encoding="utf-8",
        )
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    return tmp_path


#: Run a module's command line and print the process's own peak memory (VmHWM, KB) at exit. Not
#: ru_maxrss: Linux carries the parent's memory at the fork into it, and a test process late in the
#: suite is larger than either build (both read 885,192 KB in CI).
_PEAK = """
import atexit, runpy, sys

def peak():
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                sys.stderr.write("PEAK " + line.split()[1] + "\\n")

atexit.register(peak)
module = sys.argv[1]
sys.argv = [module, *sys.argv[2:]]
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""


def _build(project: Path, module: str, site: str) -> int:
    """Build `project` with `python -m module build`; return the process's peak memory in KB."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore", "PAPER_DIGEST_SEARCH": "pagefind"}
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, module, "build", "--strict", "--site-dir", site], cwd=project, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False,
    )
    errors = done.stderr.decode()
    assert done.returncode == 0, errors
    return int(next(line for line in errors.splitlines() if line.startswith("PEAK ")).split()[1])


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads a process's peak memory from /proc")
def test_the_build_writes_the_same_pages_as_mkdocs_holding_far_less_memory(tmp_path) -> None:
    # Issue 43: MkDocs keeps every page's Markdown and HTML until it writes the last one: 5 GB at
    # 100,000 papers. 1,500 pages of 60 KB of Markdown make the difference plain at test size.
    project = _site(tmp_path, pages=1500, words=6000)
    plain = _build(project, "mkdocs", "plain")
    lean = _build(project, "generator.build.lean_mkdocs", "lean")
    files = sorted(p.relative_to(project / "plain") for p in (project / "plain").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(project / "lean") for p in (project / "lean").rglob("*") if p.is_file())
    differ = [f for f in files if (project / "plain" / f).read_bytes() != (project / "lean" / f).read_bytes()]
    # Material's own index is left empty with Pagefind search (it held the home page only).
    assert differ == [Path("search/search_index.json")]
    assert "docs\":[]" in (project / "lean" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert (project / "lean" / "papers" / "p7" / "index.html").read_text(encoding="utf-8").count("word") >= 6000
    assert lean < plain - 100_000, (plain, lean)  # KB: the pages' Markdown and HTML are not all kept


@pytest.mark.parametrize("broken", [0, 1])  # built by the first process, or by a forked one
def test_a_page_that_fails_to_build_fails_the_build_whichever_process_builds_it(tmp_path, broken: int) -> None:
    project = _site(tmp_path, pages=6, words=10)
    page = project / "docs" / "papers" / f"p{broken}.md"
    page.write_text(page.read_text(encoding="utf-8").replace("---\nsearch:", "---\ntemplate: missing.html\nsearch:"),
                    encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore", "PAPER_DIGEST_SEARCH": "pagefind"}
    process = subprocess.run(
        [sys.executable, "-m", "generator.build.lean_mkdocs", "build", "--strict", "--site-dir", "lean"],
        cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert process.returncode != 0
    assert "missing.html" in process.stderr


@pytest.mark.parametrize("source, target", [("index.md", "papers/p0.md"), ("papers/p0.md", "papers/p1.md"),
                                            ("papers/p1.md", "papers/p2.md")])
def test_a_link_to_a_missing_anchor_fails_a_strict_build_as_in_mkdocs(tmp_path, source: str, target: str) -> None:
    # The pages outside the navigation are read by the process that writes them, after MkDocs has
    # checked the links of the pages it read: a link from the home page (read by MkDocs), from a
    # paper read by a forked process or by the first one, to a paper read by another, is checked.
    project = _site(tmp_path, pages=6, words=10)
    page = project / "docs" / source
    page.write_text(page.read_text(encoding="utf-8").replace("#cite)", "#nowhere)"), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore", "PAPER_DIGEST_SEARCH": "pagefind"}
    for module in ("mkdocs", "generator.build.lean_mkdocs"):
        process = subprocess.run(
            [sys.executable, "-m", module, "build", "--strict", "--site-dir", "site"],
            cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False,
        )
        assert process.returncode != 0, module
        assert f"'{source}' contains a link" in process.stderr, (module, process.stderr)
        assert f"'{target}' does not contain an anchor '#nowhere'" in process.stderr, (module, process.stderr)


def test_a_dirty_build_rewrites_the_edited_page_and_checks_only_what_it_read(tmp_path) -> None:
    # `paper-digest build` renders an edit with `--dirty`, failing on any warning: the unchanged
    # pages are not read, and a link to one of their anchors is not checked (as MkDocs does).
    project = _site(tmp_path, pages=6, words=10)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore", "PAPER_DIGEST_SEARCH": "pagefind"}
    command = [sys.executable, "-m", "generator.build.lean_mkdocs", "build", "--site-dir", "site"]
    subprocess.run([*command, "--strict"], cwd=project, env=env, capture_output=True, check=True, timeout=300)
    page = project / "docs" / "papers" / "p1.md"
    page.write_text(page.read_text(encoding="utf-8").replace("# Paper 1", "# Paper one"), encoding="utf-8")
    later = (project / "site" / "papers" / "p1" / "index.html").stat().st_mtime + 10
    os.utime(page, (later, later))
    process = subprocess.run([*command, "--dirty", "--no-strict"], cwd=project, env=env, capture_output=True,
                             text=True, timeout=300, check=True)
    assert [line for line in process.stderr.splitlines() if line.startswith("WARNING") and "'dirty'" not in line] == []
    assert "Paper one" in (project / "site" / "papers" / "p1" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("html", ['<p id="held">Held.</p>', "<p><a name='held'></a>Held.</p>", '<p\nID="held">Held.</p>'])
def test_an_anchor_only_raw_html_defines_is_found_as_mkdocs_finds_it(tmp_path, html: str) -> None:
    # lean_mkdocs skips MkDocs' HTML parse of a page whose text has no `id` or `name` attribute
    # (`lean_markdown.raw_html_anchors`): a page with one still has its anchor, and a link to it builds strictly;
    # a link to an anchor no page defines still fails.
    project = _site(tmp_path, pages=4, words=10)
    page = project / "docs" / "papers" / "p2.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\n{html}\n", encoding="utf-8")
    index = project / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\n[Held](papers/p2.md#held)\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore", "PAPER_DIGEST_SEARCH": "pagefind"}
    command = [sys.executable, "-m", "generator.build.lean_mkdocs", "build", "--strict", "--site-dir", "site"]
    built = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr
    index.write_text(index.read_text(encoding="utf-8").replace("#held", "#gone"), encoding="utf-8")
    failed = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert failed.returncode != 0
    assert "'papers/p2.md' does not contain an anchor '#gone'" in failed.stderr
