"""Forked processes sharing this process's heap: Python's garbage collector kept off its pages while they do."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: How many `shared_heap` blocks are open (the map's process may outlive a pool of workers).
_open = 0


@contextmanager
def shared_heap() -> Iterator[None]:
    """Keep the objects alive now out of garbage collections while forked processes share them.

    A collection writes to the header of every object it walks: in a forked process, or in this
    one while its children live, that copies each page of the shared heap it touches (at 100,000
    papers, each forked worker came to hold over a gigabyte of its own). `gc.freeze` moves the
    objects alive at the fork out of every collection until the last block ends. What is computed
    is unchanged: only when unreachable cycles among those objects are freed.
    """
    global _open  # noqa: PLW0603
    gc.freeze()
    _open += 1
    try:
        yield
    finally:
        _open -= 1
        if not _open:
            gc.unfreeze()
