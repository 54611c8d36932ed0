"""The environment of a child Python process that imports this package (a page, map or search process, MkDocs)."""

from __future__ import annotations

import os
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
