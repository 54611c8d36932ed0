"""A 2-D map of the digest: a force layout of the similar-papers graph, the same on every machine.

The graph joins each paper to the papers most similar to it (the neighbour
lists that related papers come from). A spectral start (power iteration on the
graph) places whole regions, then rounds of attraction along the edges and
repulsion from papers drawn at random (as UMAP does) pull each neighbourhood
together. An edge weighs its similarity over the stronger of its two papers'
best similarities (UMAP's local connectivity): a paper in a sparse part of the
digest holds its neighbours as firmly as one in a dense part.

The places are then scaled by robust bounds: the papers between the 0.5th and
the 99.5th percentile of each axis fill the square (less a margin), and a paper
beyond them is put beside its neighbours on the map (or at the edge), so a few
outliers do not squeeze the digest into a corner.

Why not t-SNE: it amplifies the last bit of every BLAS and SIMD kernel, so the
same digest got a different map on every CPU and thread count. Here the only
inputs are neighbour indexes and similarities rounded to 6 decimals; random
draws come from a seeded PCG64 stream (integer arithmetic); every step uses
IEEE-exact element-wise arithmetic (+, -, *, /, sqrt), `np.bincount`'s in-order
sums and `math.fsum` (exactly rounded): no matrix product, exp, log or
SIMD-ordered reduction. So the layout is bit-for-bit the same under any BLAS
kernel, numpy CPU dispatch or thread count. The work is linear in the number
of papers, so every paper is laid out, none estimated.
"""

from __future__ import annotations

import logging
import math
import pickle
import subprocess
import sys
from collections.abc import Sequence

import numpy as np

from ..child_env import child_env, end_process

log = logging.getLogger(__name__)

_SEED = 0
#: Power-iteration steps of the spectral start.
_SPECTRAL_STEPS = 100
#: Rounds of attraction and repulsion (each moves the papers once per edge batch): 200, fewer past
#: 10,000 papers (100 at 20,000), as UMAP does: large graphs settle in fewer rounds.
_EPOCHS = 200
_EPOCH_BUDGET = 2_000_000
_BATCHES = 5
#: Papers each edge's first paper is pushed away from in each batch.
_NEGATIVES = 5
#: Kernel width: similarity falls as 1 / (1 + _A * distance²).
_A = 2.0
#: Repulsion relative to attraction (1.0: 20,000 papers' map spreads into regions; 0.5 drew one dense disk).
_REPULSION = 1.0
#: Step size at the first round; it falls linearly to zero.
_STEP = 0.1
#: Keeps a repelling force finite when two papers sit on the same spot.
_EPSILON = 0.001
#: Below this squared length an axis of the spectral start has vanished (a graph with too few parts).
_FLAT = 1e-24
#: Largest move one pair can cause in one step (UMAP's gradient clip).
_CLIP = 4.0
#: Share of papers at each end of an axis left out of the bounds that fill the square.
_TAIL = 0.005
#: Margin around the bounds, as a share of the square.
_MARGIN = 0.02


def map_coordinates(neighbours: Sequence[Sequence[tuple[int, float]]]) -> list[tuple[float, float]]:
    """Return a place in [0, 1] x [0, 1] for each paper, given each paper's (neighbour, similarity) list."""
    size = len(neighbours)
    if size < 3:
        return [(0.5, 0.5)] * size
    return _layout(size, *_edges(neighbours))


def _layout(size: int, heads: np.ndarray, tails: np.ndarray, strength: np.ndarray) -> list[tuple[float, float]]:
    """Return the places of `size` papers (at least 3) joined by the edges `_edges` returns."""
    if not len(heads):
        return [(0.5, 0.5)] * size
    points = _spectral_start(size, heads, tails, strength)
    points = _refine(points, heads, tails, _local(heads, tails, strength, size))
    scaled = _robust_scale(points, heads, tails)
    return [(round(float(x), 4), round(float(y), 4)) for x, y in scaled]


def _local(heads: np.ndarray, tails: np.ndarray, strength: np.ndarray, size: int) -> np.ndarray:
    """Return each edge's similarity over the larger of its two papers' strongest similarities (in (0, 1])."""
    best = np.zeros(size)
    np.maximum.at(best, heads, strength)
    np.maximum.at(best, tails, strength)
    return strength / np.maximum(best[heads], best[tails])


def _robust_scale(points: np.ndarray, heads: np.ndarray, tails: np.ndarray) -> np.ndarray:
    """Scale the places so that all but `_TAIL` at each end of an axis fill the square; move the rest beside them.

    The bounds are order statistics (a sort: exact); a paper outside them goes
    to the mean place of its neighbours inside them (in-order sums), or to the
    nearest edge when it has none.
    """
    size = points.shape[0]
    cut = int(size * _TAIL)
    ordered = np.sort(points, axis=0)
    low, high = ordered[cut], ordered[size - 1 - cut]
    span = np.where(high - low > 0, high - low, 1.0)
    scaled = _MARGIN + (points - low) / span * (1.0 - 2 * _MARGIN)
    outside = np.any((scaled < 0.0) | (scaled > 1.0), axis=1)
    if outside.any():
        # Each edge counts for both its papers: a paper outside takes its inside neighbours' places.
        owners = np.concatenate([heads, tails])
        others = np.concatenate([tails, heads])
        useful = outside[owners] & ~outside[others]
        owners, others = owners[useful], others[useful]
        count = np.bincount(owners, minlength=size)
        for axis in range(2):
            total = np.bincount(owners, weights=scaled[others, axis], minlength=size)
            moved = outside & (count > 0)
            scaled[moved, axis] = total[moved] / count[moved]
    return np.clip(scaled, 0.0, 1.0)


Point = tuple[float, float]

#: From this many papers the layout is drawn in a process of its own, beside the pages' rendering
#: (20,000 papers: 3.7 s of work; starting the process costs about a second).
FORK_FROM = 2_000
#: Seconds to wait for the drawing process (20,000 papers take 4 s) before drawing the map here instead.
_WAIT = 600


class MapLayout:
    """The map's places of a digest's papers, in input order, drawn while the caller goes on.

    With `fork`, the layout runs in a process of its own from the start and
    `positions` waits for it; otherwise it runs here, on the first call. Either
    way the places are the same bits (the layout is exact arithmetic). If the
    process fails, the places are computed here instead.

    The process is a fresh Python (`python -c`, not a fork, nor multiprocessing's
    spawn, which would run the caller's main script again in it) given the
    graph's edges as arrays: a fork shares the generator's heap, and every page
    of it the generator writes while the map is drawn (the paper pages render
    then) was kept a second time for the forked process (2.1 GB at 100,000 papers).
    """

    def __init__(self, neighbours: Sequence[Sequence[tuple[int, float]]], fork: bool = False) -> None:
        self._neighbours = neighbours
        self._positions: list[Point] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        if fork and len(neighbours) >= 3:
            # The process imports this very package, wherever it was imported from (installed or not).
            env = child_env()
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-c", f"from {__name__} import _draw; _draw()"], env=env,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                )
                # Closed once written: `communicate` then only reads.
                sending, self._process.stdin = self._process.stdin, None
                assert sending is not None
                with sending:
                    pickle.dump((len(neighbours), *_edges(neighbours)), sending, protocol=pickle.HIGHEST_PROTOCOL)
            except OSError:
                log.info("the map's process did not start; drawing the map here")
                self.close()

    def positions(self) -> list[Point]:
        """Return each paper's place in [0, 1] x [0, 1] (waiting for the map's process, if any)."""
        if self._positions is None:
            if self._process is not None:
                try:
                    # A process that never answers (hung at its start) is given up, never waited for forever.
                    out, _ = self._process.communicate(timeout=_WAIT)
                    if self._process.returncode == 0:
                        self._positions = pickle.loads(out)
                    else:
                        log.info("the map's process failed; drawing the map here")
                except subprocess.TimeoutExpired:
                    log.warning("the map's process did not answer in %d s; drawing the map here", _WAIT)
                except (OSError, pickle.UnpicklingError, EOFError):
                    log.info("the map's process failed; drawing the map here")
                self.close()
            if self._positions is None:
                self._positions = map_coordinates(self._neighbours)
        return self._positions

    def close(self) -> None:
        """Stop the map's process if it still runs (the places are then drawn here when asked for)."""
        if self._process is not None:
            end_process(self._process)
            self._process = None


def _draw() -> None:
    """The map's process: read the graph's edges from stdin, write the places to stdout.

    Only this package's own process writes what it reads (pickled arrays and a list of pairs of
    floats): nothing from outside the build.
    """
    size, heads, tails, strength = pickle.load(sys.stdin.buffer)
    pickle.dump(_layout(size, heads, tails, strength), sys.stdout.buffer, protocol=pickle.HIGHEST_PROTOCOL)
    sys.stdout.buffer.flush()


def _edges(neighbours: Sequence[Sequence[tuple[int, float]]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return one undirected edge per similar pair (its larger similarity), in a canonical order."""
    rows = np.repeat(np.arange(len(neighbours), dtype=np.int64), [len(row) for row in neighbours])
    flat = [pair for row in neighbours for pair in row]
    columns = np.array([j for j, _ in flat], dtype=np.int64)
    weights = np.round(np.array([s for _, s in flat], dtype=np.float64), 6)
    keep = (columns != rows) & (weights > 0)
    rows, columns, weights = rows[keep], columns[keep], weights[keep]
    heads, tails = np.minimum(rows, columns), np.maximum(rows, columns)
    order = np.lexsort((-weights, tails, heads))
    heads, tails, weights = heads[order], tails[order], weights[order]
    # Sorted by pair, strongest first: the first row of each pair holds its larger similarity.
    first = np.ones(len(heads), dtype=bool)
    first[1:] = (heads[1:] != heads[:-1]) | (tails[1:] != tails[:-1])
    return heads[first], tails[first], weights[first]


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    # Exactly rounded, so independent of summation order and SIMD width.
    return math.fsum((a * b).tolist())


def _spread(heads: np.ndarray, tails: np.ndarray, weights: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Return, for each node, the weighted sum of `values` over its edges (a sparse product, summed in order)."""
    return np.bincount(heads, weights=weights * values[tails], minlength=size) + np.bincount(
        tails, weights=weights * values[heads], minlength=size
    )


def _spectral_start(size: int, heads: np.ndarray, tails: np.ndarray, strength: np.ndarray) -> np.ndarray:
    """Return starting points from the graph's two leading non-trivial eigenvectors, by power iteration."""
    degree = np.bincount(heads, weights=strength, minlength=size) + np.bincount(tails, weights=strength, minlength=size)
    scale = 1.0 / np.sqrt(np.maximum(degree, 1e-12))
    trivial = np.sqrt(degree)
    trivial = trivial / math.sqrt(_dot(trivial, trivial))
    rng = np.random.Generator(np.random.PCG64(_SEED + 1))
    axes = [rng.random(size) - 0.5, rng.random(size) - 0.5]
    for _ in range(_SPECTRAL_STEPS):
        for k in range(2):
            # (I + D^-1/2 A D^-1/2) x: the shift keeps the leading eigenvalues positive.
            vector = _spread(heads, tails, strength, axes[k] * scale, size) * scale + axes[k]
            vector = vector - _dot(vector, trivial) * trivial
            for other in axes[:k]:
                vector = vector - _dot(vector, other) * other
            norm = _dot(vector, vector)
            # A graph with too few parts for two axes (two linked papers and one alone) maps the
            # second axis to nothing: it keeps its last direction instead of dividing by zero.
            if norm > _FLAT:
                axes[k] = vector / math.sqrt(norm)
    points = np.stack(axes, axis=1)
    low, high = points.min(axis=0), points.max(axis=0)
    return (points - low) / np.where(high - low > 0, high - low, 1.0) * 10.0


def _refine(points: np.ndarray, heads: np.ndarray, tails: np.ndarray, strength: np.ndarray) -> np.ndarray:
    """Pull similar papers together and push random pairs apart, in full-batch steps over edge batches."""
    size = points.shape[0]
    rng = np.random.Generator(np.random.PCG64(_SEED))
    # x and y apart: one-dimensional gathers and sums are several times faster than rows of pairs.
    x, y = points[:, 0].copy(), points[:, 1].copy()
    batches = [
        (heads[b::_BATCHES], tails[b::_BATCHES], strength[b::_BATCHES], np.repeat(heads[b::_BATCHES], _NEGATIVES))
        for b in range(_BATCHES)
    ]
    epochs = max(_EPOCHS // 2, min(_EPOCHS, _EPOCH_BUDGET // size))
    for epoch in range(epochs):
        rate = _STEP * (1.0 - epoch / epochs)
        for first, second, weight, sources in batches:
            dx, dy = x[first] - x[second], y[first] - y[second]
            pull = (-2.0 * _A / (1.0 + _A * (dx * dx + dy * dy))) * weight
            px, py = np.clip(pull * dx, -_CLIP, _CLIP), np.clip(pull * dy, -_CLIP, _CLIP)
            others = rng.integers(0, size, size=sources.shape[0])
            dx, dy = x[sources] - x[others], y[sources] - y[others]
            distance = dx * dx + dy * dy
            push = _REPULSION * 2.0 / ((_EPSILON + distance) * (1.0 + _A * distance))
            push[others == sources] = 0.0
            qx, qy = np.clip(push * dx, -_CLIP, _CLIP), np.clip(push * dy, -_CLIP, _CLIP)
            x = x + rate * (_sum(first, px, size) - _sum(second, px, size) + _sum(sources, qx, size))
            y = y + rate * (_sum(first, py, size) - _sum(second, py, size) + _sum(sources, qy, size))
    return np.stack([x, y], axis=1)


def _sum(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Sum `values` into `size` slots by `index`, in input order."""
    return np.bincount(index, weights=values, minlength=size)
