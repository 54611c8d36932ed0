"""The child Python processes that import this package (page, map, related papers, search, MkDocs): their
environment, and how one is ended."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

#: The folder that holds the `generator` package, wherever it was imported from (installed or not).
_HOME = str(Path(__file__).resolve().parents[1])


def child_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return `base` (this process's environment by default) with this package's folder first on PYTHONPATH."""
    env = dict(os.environ if base is None else base)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = _HOME if not path else os.pathsep.join([_HOME, path])
    return env


def end_process(process: subprocess.Popen[bytes]) -> None:
    """Kill `process` if it still runs, reap it and close its pipes.

    Killed first: a thread blocked writing to it is released (a broken pipe) before its stdin closes.
    """
    if process.poll() is None:
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout):
        with contextlib.suppress(OSError, ValueError):
            if stream is not None:
                stream.close()
