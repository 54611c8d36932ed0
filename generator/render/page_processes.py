"""Paper pages rendered in fresh processes, each given only the pages it renders (issue 43: memory).

A process forked from the generator shares its whole heap, and every page of
it either process then writes (a reference count is a write: rendering a page
touches its paper and its related papers) is kept twice: at 100,000 papers the
two forked page workers held 1.4-1.5 GB each beside the generator's 3.3 GB. A
fresh Python (`python -c`, as the map's process in enrich/maps.py) holds only
the template and the job it renders: the generator sends each job's template
arguments pickled on the process's stdin and reads the pages back from its
stdout, in order. The pages are the same bytes: the same template, from the
same folders, rendered from equal arguments.

Only this package's own processes read what the other writes (pickled template
arguments and rendered pages): nothing from outside the build.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from ..child_env import child_env, end_process

log = logging.getLogger(__name__)

#: One job's template arguments for each page to render (None: a page the memo keeps, not rendered).
Job = list[dict[str, Any] | None]
#: Jobs a feeding thread prepares ahead of the pages read back, per process: the arguments waiting are few.
_AHEAD = 2


class PageProcesses:
    """Fresh Python processes that render a page template from pickled arguments, `processes` at once.

    `pages(count, prepare)` yields each job's arguments (prepared by a thread per
    process, so that the caller goes on meanwhile) and their rendered pages, in
    job order. A process that fails (it dies, or the template raises) has its
    job rendered by the caller with `render_here`, which raises the template's
    error as one process would; the process's later jobs are rendered here too.
    """

    def __init__(
        self, processes: int, folders: Sequence[str], template: str, common: dict[str, Any],
        render_here: Callable[[dict[str, Any]], bytes],
    ) -> None:
        self._render_here = render_here
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._procs: list[subprocess.Popen[bytes] | None] = []
        # The process imports this very package, wherever it was imported from (installed or not).
        env = child_env()
        setup = pickle.dumps((list(folders), template, common), protocol=pickle.HIGHEST_PROTOCOL)
        for share in range(processes):
            self._procs.append(None)
            try:
                self._procs[share] = proc = subprocess.Popen(
                    [sys.executable, "-c", f"from {__name__} import _serve; _serve()"], env=env,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                )
                assert proc.stdin is not None
                proc.stdin.write(setup)
                proc.stdin.flush()
            except OSError:
                log.info("a page process did not start; its pages are rendered here")
                self._end(share)

    def pages(self, count: int, prepare: Callable[[int], Job]) -> Iterator[tuple[Job, list[bytes]]]:
        """Yield jobs 0 .. `count` - 1: each one's arguments (`prepare(k)`) and the pages of those not None."""
        width = max(1, len(self._procs))
        waiting: list[queue.Queue] = [queue.Queue(maxsize=_AHEAD) for _ in range(width)]
        for share in range(width):
            thread = threading.Thread(
                target=self._feed, args=(share, range(share, count, width), prepare, waiting[share]), daemon=True
            )
            thread.start()
            self._threads.append(thread)
        for k in range(count):
            share = k % width
            job, sent = self._take(waiting[share])
            proc = self._procs[share] if sent else None
            wanted = [args for args in job if args is not None]
            rendered = _read(proc) if proc is not None else None
            if rendered is None or len(rendered) != len(wanted):
                if proc is not None:
                    log.info("a page process failed; its pages are rendered here")
                    self._end(share)
                rendered = [self._render_here(args) for args in wanted]
            yield job, rendered

    def _take(self, waiting: queue.Queue) -> tuple[Job, bool]:
        while True:
            try:
                item = waiting.get(timeout=1.0)
            except queue.Empty:
                continue
            if isinstance(item, BaseException):
                raise item
            return item

    def _feed(self, share: int, jobs: range, prepare: Callable[[int], Job], waiting: queue.Queue) -> None:
        """Prepare this process's jobs, send each to it, and queue them for `pages` (an error is queued too)."""
        for k in jobs:
            try:
                job = prepare(k)
            except BaseException as exc:  # raised by `pages`, in the caller's thread
                self._put(waiting, exc)
                return
            proc = self._procs[share]
            sent = False
            if proc is not None and proc.stdin is not None:
                try:
                    wanted = [args for args in job if args is not None]
                    pickle.dump(wanted, proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                    proc.stdin.flush()
                    sent = True
                except (OSError, ValueError, pickle.PicklingError):
                    pass
            if not self._put(waiting, (job, sent)):
                return

    def _put(self, waiting: queue.Queue, item: object) -> bool:
        while not self._stop.is_set():
            try:
                waiting.put(item, timeout=1.0)
                return True
            except queue.Full:
                continue
        return False

    def _end(self, share: int) -> None:
        proc = self._procs[share]
        self._procs[share] = None
        if proc is not None:
            end_process(proc)

    def close(self) -> None:
        """End the processes (each exits at the end of its input) and the feeding threads."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=1.0)
        if any(thread.is_alive() for thread in self._threads):
            # Stopped early (an error): a thread may be blocked sending a job no process will read.
            for share in range(len(self._procs)):
                self._end(share)
        for share, proc in enumerate(self._procs):
            if proc is not None and proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                if proc is not None:
                    proc.wait(timeout=10)
            self._end(share)
        for thread in self._threads:
            thread.join()

    def __enter__(self) -> PageProcesses:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read(proc: subprocess.Popen[bytes]) -> list[bytes] | None:
    """Return the pages of the job `proc` was sent last, or None when it failed."""
    assert proc.stdout is not None
    try:
        pages = pickle.load(proc.stdout)
    except Exception:  # (a stream cut or garbled anywhere raises whatever the unpickler meets there)
        return None
    return pages if isinstance(pages, list) else None


def _serve(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> None:
    """A page process: read the template's folders, name and common arguments, then render each job sent.

    Each job is a list of template arguments; the answer is the list of pages (UTF-8), or None when
    the template failed (the generator renders that job itself and raises the error there).
    """
    from .markdown import make_environment

    source = stdin or sys.stdin.buffer
    sink = stdout or sys.stdout.buffer
    folders, name, common = pickle.load(source)
    template = make_environment([Path(folder) for folder in folders]).get_template(name)
    while True:
        try:
            job = pickle.load(source)
        except EOFError:
            return
        try:
            pages: list[bytes] | None = [template.render(**common, **args).encode("utf-8") for args in job]
        except Exception:  # (the generator renders the job again and raises it there)
            pages = None
        pickle.dump(pages, sink, protocol=pickle.HIGHEST_PROTOCOL)
        sink.flush()
