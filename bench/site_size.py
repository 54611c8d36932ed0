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


def _tree(root: int) -> list[int]:
    """Return process `root` and its descendants, from /proc (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, []))
    return found


def _tree_memory(pids: list[int]) -> int:
    """Return the proportional memory (PSS, KB) of the processes `pids`."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
                total += next((int(line.split()[1]) for line in rollup if line.startswith("Pss:")), 0)
        except OSError:
            continue
    return total


def _name(words: list[str]) -> str:
    """A process's short name: its module (`-m x`, `-c "from x import ..."`) or its program's."""
    if "-m" in words[:-1]:
        return words[words.index("-m") + 1]
    if "-c" in words[:-1]:
        code = words[words.index("-c") + 1].split()
        return code[1] if len(code) > 1 and code[0] == "from" else "python -c"
    return os.path.basename(words[0])


def _cpu(pids: list[int]) -> dict[int, tuple[str, float]]:
    """Return each process's name (its command, shortened) and CPU seconds (user + system) so far."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as command:
                words = command.read().decode("utf-8", "replace").split("\0")
        except (OSError, IndexError):
            continue
        name = _name(words)
        found[pid] = (name[-40:], (int(fields[11]) + int(fields[12])) / tick)
    return found


class Sampler:
    """Samples a build's processes each second: memory of all at once, and how busy the machine's cores were."""

    def __init__(self, root: int, timeline: Path | None) -> None:
        self.root = root
        self.peak = 0
        self.busy = 0.0
        self.idle = 0.0
        self._last: dict[int, tuple[str, float]] = {}
        self._at = time.perf_counter()
        self._timeline = timeline.open("w", encoding="utf-8") if timeline else None
        self._cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1

    def sample(self) -> None:
        pids = _tree(self.root)
        self.peak = max(self.peak, _tree_memory(pids))
        now, cpu = time.perf_counter(), _cpu(pids)
        spent = {pid: seconds - self._last.get(pid, (name, 0.0))[1] for pid, (name, seconds) in cpu.items()}
        used = sum(spent.values())
        span = now - self._at
        self.busy += used
        self.idle += max(0.0, self._cores * span - used)
        if self._timeline is not None:
            shares = ", ".join(f"{cpu[pid][0]} {seconds / span:.0%}" for pid, seconds in sorted(
                spent.items(), key=lambda item: -item[1]) if seconds > 0.05 * span)
            self._timeline.write(f"{now - self._start:7.1f}\t{used / span:4.2f}\t{shares}\n")
        self._last, self._at = cpu, now

    def start(self) -> None:
        self._start = self._at = time.perf_counter()

    def close(self) -> None:
        if self._timeline is not None:
            self._timeline.close()


def run_build(project: Path, label: str, timeline: Path | None = None) -> None:
    """Run `paper-digest build` in `project`; print its wall time, the largest process's peak memory and
    the peak of all its processes together (sampled each second: the generator, MkDocs, Pagefind), and
    how much of the machine's cores the build kept busy (with `timeline`, each second's share per process)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "generator", "build", "in/papers.jsonl"], cwd=project,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    sampler = Sampler(process.pid, timeline)
    done = threading.Event()

    def sample() -> None:
        sampler.start()
        while not done.wait(1.0):
            sampler.sample()

    thread = threading.Thread(target=sample, daemon=True)
    if os.path.exists("/proc/self/smaps_rollup"):
        thread.start()
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    done.set()
    if thread.is_alive():
        thread.join()
    sampler.close()
    if status:
        raise SystemExit(output[-3000:])
    print(f"{label} {time.perf_counter() - start:.1f} s, peak memory {usage.ru_maxrss / 1024:,.0f} MB "
          f"(largest process), {sampler.peak / 1024:,.0f} MB (all processes at once)")
    if sampler.busy:
        print(f"  CPU   {sampler.busy:,.0f} s used, {sampler.idle:,.0f} core-seconds left idle "
              f"(sampled each second)")
    # The build's own split of its time (generator, MkDocs, search), from its summary.
    for line in output.splitlines():
        if line.lstrip("│ ").startswith("Time"):
            print("  " + line.strip("│ \n"))


def build(size: int, corpora: Path, work: Path, edit: bool = False, timeline: Path | None = None) -> Path:
    project = copy_project(work / f"size-{size}")
    (project / "in").mkdir()
    lines = [json.dumps(record, ensure_ascii=False) + "\n" for record in records(corpora, size)]
    (project / "in" / "papers.jsonl").write_text("".join(lines), encoding="utf-8")
    run_build(project, f"{size:,} papers: cold build", timeline)
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
    parser.add_argument("--timeline", type=Path, default=None,
                        help="write each second of the cold build: its processes' CPU shares (one size only)")
    args = parser.parse_args()
    if args.site:
        report(args.site, args.papers)
        return
    work = args.work or Path(tempfile.mkdtemp(prefix="site-size-"))
    for size in args.sizes:
        report(build(size, args.corpora, work, args.edit, args.timeline), size)


if __name__ == "__main__":
    main()
