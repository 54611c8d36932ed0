"""The tune / held-out split shared by the benchmarks and the training scripts."""

from __future__ import annotations

import hashlib


def part_of(paper_id: str) -> str:
    """Return 'held-out' for one paper in five (by a hash of its id), else 'tune'."""
    return "held-out" if hashlib.sha256(paper_id.encode()).digest()[0] % 5 == 0 else "tune"
