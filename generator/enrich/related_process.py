"""Related papers of a large digest computed in a process of their own, while the topics are found.

The similarity product (related.py) is the generator's largest single piece of
work at 100,000 papers (2-4 minutes) and holds Python's lock all the while, so
a thread cannot run beside it. A cold build of a large digest (the memo can
give too few rows: every row is computed) sends the TF-IDF matrix to a fresh
Python (`python -c`, as the map's and the pages' processes) and goes on with
the digest's topics (its fields, subjects, folding and open topics: about two
minutes on one core); `result()` then reads the product back and ranks it as
`nearest_kept` does. The lists are the same: each row of the product is
computed on its own, by the same function, whichever process runs it. If the
process fails, the rows are computed here. Any other build calls
`nearest_kept` when its result is asked for.

Only this package's own processes read what the other writes (NumPy arrays as
their type, shape and bytes, no pickle): nothing from outside the build.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import threading
from typing import IO

import numpy as np
import scipy.sparse as sp

from ..child_env import child_env, end_process
from .related import NeighbourMemo, cold, kept_lists, kept_product, nearest_kept
from .vectors import Vectors

log = logging.getLogger(__name__)

#: From this many papers a cold build's product runs in a process of its own (20,000 papers: about
#: 4 s of product, a second to start the process and send the matrix).
PROCESS_FROM = 20_000


class RelatedJob:
    """Each paper's nearest neighbours (`nearest_kept`'s lists), computed while the caller goes on."""

    def __init__(
        self, vectors: Vectors | None, count: int, workers: int, memo: NeighbourMemo | None,
        process: bool | None = None,
    ) -> None:
        self._args = (vectors, count, workers, memo)
        self._process: subprocess.Popen[bytes] | None = None
        self._sender: threading.Thread | None = None
        #: Where `result` found the lists: "process", or "here".
        self.found = ""
        if vectors is None:
            return
        size = vectors.matrix.shape[0]
        if process is None:
            process = size >= PROCESS_FROM and workers != 1 and (os.cpu_count() or 1) > 1
        if process and cold(vectors, count, memo):
            self._start(vectors.matrix, count, workers)

    def _start(self, matrix: sp.csr_matrix, count: int, workers: int) -> None:
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", f"from {__name__} import _serve; _serve()"], env=child_env(),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )
        except OSError:
            log.info("the related papers' process did not start; they are found here")
            return
        sending, self._process.stdin = self._process.stdin, None
        assert sending is not None
        arrays = [matrix.data, matrix.indices, matrix.indptr, np.array([*matrix.shape, count, workers])]
        # Sent from a thread: the pipe takes 64 KB at a time, and the matrix is about 100 MB at 100,000 papers.
        self._sender = threading.Thread(target=_send, args=(sending, arrays), daemon=True)
        self._sender.start()

    def result(self) -> list[list[tuple[int, float]]]:
        """Return the lists (waiting for the process, if any; computing them here if it failed)."""
        vectors, count, workers, memo = self._args
        if vectors is None:
            return []
        product = self._read() if self._process is not None else None
        if product is None:
            self.found = "here"
            return nearest_kept(vectors, count, workers, memo)
        self.found = "process"
        return kept_lists(vectors, count, memo, product)

    def _read(self) -> sp.csr_matrix | None:
        process = self._process
        assert process is not None
        try:
            out, _ = process.communicate()
            if self._sender is not None:
                self._sender.join()
            if process.returncode != 0:
                raise OSError(f"exit code {process.returncode}")
            stream = io.BytesIO(out)
            indptr, indices, data, shape = (read_array(stream) for _ in range(4))
            return sp.csr_matrix((data, indices, indptr), shape=(int(shape[0]), int(shape[1])))
        except (OSError, ValueError, EOFError) as error:
            log.info("the related papers' process failed (%s); they are found here", error)
            return None
        finally:
            self.close()

    def __enter__(self) -> RelatedJob:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the process if it still runs."""
        if self._process is not None:
            end_process(self._process)
            self._process = None


def _send(stream: IO[bytes], arrays: list[np.ndarray]) -> None:
    try:
        with stream:
            for array in arrays:
                write_array(stream, array)
    except (OSError, ValueError):  # the process died: `result` computes the rows here
        pass


def write_array(stream: IO[bytes], array: np.ndarray) -> None:
    """Write `array` as a line of its type and shape (ASCII) and its bytes: a pipe cannot seek, as `np.load` does."""
    array = np.ascontiguousarray(array)
    if array.dtype.hasobject:
        raise ValueError("no object arrays")
    stream.write(f"{array.dtype.str} {' '.join(str(n) for n in array.shape)}\n".encode("ascii"))
    stream.write(array.data.cast("B"))


def read_array(stream: IO[bytes]) -> np.ndarray:
    """Read an array `write_array` wrote (ValueError or EOFError when it is not one)."""
    line = stream.readline(200)
    if not line.endswith(b"\n"):
        raise EOFError("no array header")
    kind, *dims = line.decode("ascii").split()
    dtype = np.dtype(kind)
    if dtype.hasobject:
        raise ValueError("no object arrays")
    array = np.empty(tuple(int(n) for n in dims), dtype=dtype)
    # Read into the array itself (writable, as sparse_dot_topn wants it; no copy of 100 MB).
    view, done = array.data.cast("B"), 0
    while done < len(view):
        got = stream.readinto(view[done:])  # type: ignore[attr-defined]
        if not got:
            raise EOFError("an array cut short")
        done += got
    return array


def _serve() -> None:
    """The related papers' process: read the matrix from stdin, write the kept product to stdout."""
    source = sys.stdin.buffer
    data, indices, indptr, settings = (read_array(source) for _ in range(4))
    rows, columns, count, workers = (int(value) for value in settings)
    matrix = sp.csr_matrix((data, indices, indptr), shape=(rows, columns))
    product = kept_product(matrix, count, workers)
    sink = sys.stdout.buffer
    for array in (product.indptr, product.indices, product.data, np.array(product.shape)):
        write_array(sink, array)
    sink.flush()
