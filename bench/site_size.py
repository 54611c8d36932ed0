"""What a digest's site weighs, by part, against the budgets of issue 43 (not a test).

    python bench/site_size.py --sizes 1000 20000 [--corpora ../shared/corpora] [--work DIR] [--edit]
    python bench/site_size.py --site path/to/site --papers 20000

For each size, in a fresh project folder: the first N distinct abstracts of the ICLR 2025 and 2024
corpora, then of the other venues and `fields.jsonl.gz` (104,000 in all: 100,000 papers are a
field's years of many venues, every abstract real; varied copies past their end), written
as JSON Lines with their titles, areas and venues (titles given: the title stage is skipped, the
rest of the pipeline runs). It runs `paper-digest build` cold and prints its wall time and peak
memory (the largest process: the generator, MkDocs or a Pagefind indexer; and all of them at once,
sampled each second from /proc), then the site's bytes and files by part (as
`build --summary` reports them), bytes per paper, the largest page and file, the tar GitHub
uploads, the fullest folder, and each host's warnings. `--edit` then edits one abstract and times
the rebuild. `--site` measures a site already built.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.build.sitesize import HOSTS, MB, host_warnings, measure_site, size_lines
from tests.conftest import copy_project

#: Issue 43's budgets: (papers, most MB, most files).
BUDGETS = {20_000: (500, 60_000), 100_000: (2_000, 200_000)}


#: The corpora read, in order: ICLR first (a digest of up to 19,000 papers is one conference's two
#: years), then the other venues and fields (a 100,000-paper digest is a field's years of many venues).
CORPORA = ("iclr2025.jsonl", "iclr2024.jsonl", "other-venues.jsonl", "fields.jsonl.gz")


def records(corpora: Path, count: int) -> list[dict]:
    """Return `count` records of distinct abstracts from the corpora, with their titles, areas and venues.

    Each corpus is read only while fewer than `count` distinct abstracts are found.
    """
    seen: dict[str, dict] = {}
    for name in CORPORA:
        if len(seen) >= count or not (corpora / name).exists():
            continue
        opener = gzip.open if name.endswith(".gz") else open
        with opener(corpora / name, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                if record.get("abstract"):
                    seen.setdefault(" ".join(record["abstract"].split()), record)
    pool = list(seen.values())
    out = pool[:count]
    n = 0
    while len(out) < count:
        copy = dict(pool[n % len(pool)])
        copy["id"] = f"{copy['id']}-{n // len(pool) + 2}"
        copy["abstract"] += f" We also evaluate on held-out split {n // len(pool) + 2}."
        out.append(copy)
        n += 1
    fields = ("id", "title", "abstract", "primary_area", "venue", "year")
    return [{name: record.get(name, "") for name in fields} for record in out]


def report(site: Path, papers: int) -> None:
    size = measure_site(site)
    for part, figures in size_lines(size, papers):
        print(f"  {part:<22} {figures}")
    print(f"  {'GitHub tar':<22} {size.tar_bytes / MB:,.1f} MB; fullest folder {size.fullest[0]} "
          f"({size.fullest[1]:,} entries)")
    for name, host in HOSTS.items():
        for warning in host_warnings(size, host):
            print(f"  warning ({name}): {warning}")
    budget = next((b for n, b in sorted(BUDGETS.items()) if papers <= n), None)
    if budget:
        mb, files = budget
        ok = size.bytes <= mb * MB and size.files <= files
        print(f"  budget {mb:,} MB and {files:,} files: {'within' if ok else 'OVER'} "
              f"({size.bytes / MB:,.1f} MB, {size.files:,} files)")


def _tree_memory(root: int) -> int:
    """Return the proportional memory (PSS, KB) of process `root` and its descendants, from /proc (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        pending.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
                total += next((int(line.split()[1]) for line in rollup if line.startswith("Pss:")), 0)
        except OSError:
            continue
    return total


def run_build(project: Path, label: str) -> None:
    """Run `paper-digest build` in `project`; print its wall time, the largest process's peak memory and
    the peak of all its processes together (sampled each second: the generator, MkDocs, Pagefind)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "generator", "build", "in/papers.jsonl"], cwd=project,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    together = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(1.0):
            together[0] = max(together[0], _tree_memory(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    if os.path.exists("/proc/self/smaps_rollup"):
        sampler.start()
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    done.set()
    if status:
        raise SystemExit(output[-3000:])
    print(f"{label} {time.perf_counter() - start:.1f} s, peak memory {usage.ru_maxrss / 1024:,.0f} MB "
          f"(largest process), {together[0] / 1024:,.0f} MB (all processes at once)")
    # The build's own split of its time (generator, MkDocs, search), from its summary.
    for line in output.splitlines():
        if line.lstrip("│ ").startswith("Time"):
            print("  " + line.strip("│ \n"))


def build(size: int, corpora: Path, work: Path, edit: bool = False) -> Path:
    project = copy_project(work / f"size-{size}")
    (project / "in").mkdir()
    lines = [json.dumps(record, ensure_ascii=False) + "\n" for record in records(corpora, size)]
    (project / "in" / "papers.jsonl").write_text("".join(lines), encoding="utf-8")
    run_build(project, f"{size:,} papers: cold build")
    if edit:
        # One abstract edited in the middle of the digest: its page, its listings and one search part.
        record = json.loads(lines[size // 2])
        record["abstract"] += " We also report results on a held-out benchmark."
        lines[size // 2] = json.dumps(record, ensure_ascii=False) + "\n"
        (project / "in" / "papers.jsonl").write_text("".join(lines), encoding="utf-8")
        run_build(project, f"{size:,} papers: one abstract edited, rebuild")
    return project / "site"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--work", type=Path, default=None, help="where the projects are built (default: a temp dir)")
    parser.add_argument("--site", type=Path, default=None, help="measure this built site instead")
    parser.add_argument("--papers", type=int, default=0, help="with --site: its number of papers")
    parser.add_argument("--edit", action="store_true", help="after each cold build, edit one abstract and build again")
    args = parser.parse_args()
    if args.site:
        report(args.site, args.papers)
        return
    work = args.work or Path(tempfile.mkdtemp(prefix="site-size-"))
    for size in args.sizes:
        report(build(size, args.corpora, work, args.edit), size)


if __name__ == "__main__":
    main()
