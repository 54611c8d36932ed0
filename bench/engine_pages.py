"""Docs dirs for timing the site engine on our pages against plain pages (not a test).

`paper_tree` copies a generated docs dir keeping only the paper pages (every
other page becomes a one-line stub); `plain_tree` writes the same number
of plain pages instead, each one heading and one paragraph as long as the paper
page it stands for. MkDocs (or Zensical) then builds both with the same
mkdocs.yml: the ratio of the two times is what a paper page costs the engine
against a plain page of the same length.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

_WORD = re.compile(r"[A-Za-z]{3,}")


def _skeleton(docs: Path, target: Path) -> None:
    """Start `target` with `docs`' assets and every page but the papers' as a one-line stub.

    The stubs are the same in both trees: the nav and the paper pages' links resolve, and
    what differs between the two builds is the paper pages alone.
    """
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(docs / "assets", target / "assets")
    for page in docs.rglob("*.md"):
        rel = page.relative_to(docs)
        if rel.parts[0] == "papers":
            continue
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text(f"# {rel.as_posix()}\n\nA page of the digest.\n", encoding="utf-8")


def paper_tree(docs: Path, target: Path) -> int:
    """Copy `docs`' paper pages into a fresh docs dir `target` (with the nav's stubs); return how many."""
    _skeleton(docs, target)
    shutil.copytree(docs / "papers", target / "papers")
    return sum(1 for _ in (target / "papers").glob("*.md"))


def plain_tree(docs: Path, target: Path) -> int:
    """Write one plain page per paper page of `docs` into `target`; return how many.

    A plain page keeps the paper page's front matter (so the engine does the same work
    outside the Markdown: title, search exclusion) and has one heading and one paragraph of
    the page's own words (letters only: nothing in it is Markdown syntax), as many bytes as
    the paper page.
    """
    _skeleton(docs, target)
    (target / "papers").mkdir()
    count = 0
    for page in sorted((docs / "papers").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        front, _, body = text.partition("\n---\n") if text.startswith("---\n") else ("", "", text)
        head = f"{front}\n---\n" if front else ""
        title = body.split("# ", 1)[1].split("\n", 1)[0] if "# " in body else page.stem
        heading = f"# {' '.join(_WORD.findall(title)) or 'Plain page'}\n\n"
        words = _WORD.findall(body) or ["plain"]
        size = len(text.encode("utf-8")) - len((head + heading).encode("utf-8"))
        paragraph: list[str] = []
        length = 0
        while length < size:
            paragraph.append(words[len(paragraph) % len(words)])
            length += len(paragraph[-1]) + 1
        (target / "papers" / page.name).write_text(f"{head}{heading}{' '.join(paragraph)}\n", encoding="utf-8")
        count += 1
    return count


def engine_seconds(project: Path, docs: Path, engine: str, search: str) -> float:
    """Build `docs` (a docs dir inside `project`) with `engine` ("mkdocs" or "zensical") and the project's
    mkdocs.yml, strict, into a throwaway folder; return the wall seconds.

    A configuration beside mkdocs.yml inherits it and names the folders (both engines read INHERIT).
    Zensical starts without its cache (.cache), as a first build does.
    """
    from generator.build.engines import ENGINE_VARIABLE, SITE_ENGINE_VARIABLE

    out = project / f".bench-site-{engine}"
    config = project / f".bench-{engine}.yml"
    config.write_text(f"INHERIT: mkdocs.yml\ndocs_dir: {docs.relative_to(project)}\nsite_dir: {out.name}\n",
                      encoding="utf-8")
    shutil.rmtree(project / ".cache", ignore_errors=True)
    command = (["mkdocs", "build", "--strict", "--config-file", str(config)] if engine == "mkdocs"
               else ["zensical", "build", "--strict", "--config-file", str(config)])
    env = {**os.environ, "PYTHONWARNINGS": "ignore", ENGINE_VARIABLE: search, SITE_ENGINE_VARIABLE: engine}
    start = time.perf_counter()
    process = subprocess.run([sys.executable, "-m", *command], cwd=project, env=env, capture_output=True, text=True,
                             check=False)
    seconds = time.perf_counter() - start
    config.unlink()
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(project / ".cache", ignore_errors=True)
    if process.returncode != 0 or (engine == "zensical" and "No issues found" not in process.stdout + process.stderr):
        raise SystemExit(f"{engine} failed on {docs}:\n{(process.stdout + process.stderr)[-3000:]}")
    return seconds
