"""Stamps: small JSON files in `.paper-digest/` that remember what the last successful run saw."""

from __future__ import annotations

import json
from pathlib import Path


def read_stamp(path: Path) -> dict:
    """Return the stamp at `path`, or {} when it is missing or unreadable (then nothing is reused)."""
    try:
        stamp = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def write_stamp(path: Path, stamp: dict) -> None:
    """Write a stamp; call it only once the work it vouches for has succeeded."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(stamp, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
