"""The cold build against MkDocs on plain pages, interleaved so that load hits both alike (not a test).

    python bench/cold_ratio.py [--papers 20000] [--rounds 2] [--corpora ../shared/corpora]

Issue #33's target is a cold build of N papers at most 2.5x MkDocs on N plain pages (one heading and
one paragraph as long as each paper page, the same mkdocs.yml; bench/engine_pages.py), "measured in
the same run". bench/scale.py measures the two minutes apart, once each; on a shared machine the load
can change between them and move the ratio by half. Here each round runs a cold build in a fresh
project, then MkDocs on the plain pages written from that build's pages, and the rounds repeat:

- wall seconds of each, the best of the rounds, and the ratio of the bests;
- CPU seconds (user + system, the process and the children it waited for) of each: the cold build's
  CPU time adds up every stage, the ones that run side by side too, so (but for time spent waiting
  on the disk) its CPU ratio bounds from above the wall ratio a quiet machine gives, and it moves
  far less with the load;
- the load average at the start of each run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.engine_pages import engine_seconds, plain_tree
from bench.scale import abstracts, digest_text
from tests.conftest import copy_project


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(step: Callable[[], object]) -> tuple[float, float, float]:
    """Run `step()`; return its wall seconds, the CPU seconds of the processes it waited for, the load."""
    load = os.getloadavg()[0]
    cpu, start = _children_cpu(), time.perf_counter()
    step()
    return time.perf_counter() - start, _children_cpu() - cpu, load


def one_round(texts: list[str], work: Path, number: int) -> dict[str, tuple[float, float, float]]:
    """A cold build of `texts` in a fresh project, then MkDocs on as many plain pages of the same length."""
    import subprocess

    from generator.settings import load_settings

    project = copy_project(work / f"round-{number}")
    (project / "in").mkdir()
    (project / "in" / "digest.txt").write_text(digest_text(len(texts), texts), encoding="utf-8")

    def cold() -> None:
        done = subprocess.run([sys.executable, "-m", "generator", "build", "in/digest.txt"], cwd=project,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the cold build failed:\n{(done.stdout + done.stderr)[-3000:]}")

    row = {"cold": timed(cold)}
    plain = project / "bench-plain"
    plain_tree(project / "site_src", plain)
    search = load_settings(project).search_engine(len(texts))
    row["plain"] = timed(lambda: engine_seconds(project, plain, "mkdocs", search))
    shutil.rmtree(project)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = parser.parse_args()
    print(f"$ python bench/cold_ratio.py --papers {args.papers} --rounds {args.rounds}")
    texts = abstracts(args.corpora, args.papers)
    rows = []
    with tempfile.TemporaryDirectory(prefix="cold-ratio-") as tmp:
        for number in range(args.rounds):
            row = one_round(texts, Path(tmp), number)
            rows.append(row)
            print(" | ".join(f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU, load {load:.1f}"
                             for name, (wall, cpu, load) in row.items()), flush=True)
    best = {name: (min(r[name][0] for r in rows), min(r[name][1] for r in rows)) for name in ("cold", "plain")}
    print(f"best of {args.rounds}: cold {best['cold'][0]:.1f} s wall / {best['cold'][1]:.1f} s CPU; "
          f"MkDocs on plain pages {best['plain'][0]:.1f} s wall / {best['plain'][1]:.1f} s CPU")
    print(f"cold / MkDocs on plain pages: {best['cold'][0] / best['plain'][0]:.2f}x wall, "
          f"{best['cold'][1] / best['plain'][1]:.2f}x CPU (target <= 2.5x)")


if __name__ == "__main__":
    main()
