"""A 2-D map of the digest: TF-IDF -> truncated SVD -> t-SNE, with a fixed seed.

t-SNE places at most `layout_max` papers (an evenly spread, deterministic
sample of a larger digest); every other paper goes to the similarity-weighted
mean of its nearest placed papers. That keeps 20,000 papers to seconds and a
few hundred MB, and every paper still gets its own point.
"""

from __future__ import annotations

import numpy as np
from sklearn.decomposition import TruncatedSVD
from sklearn.manifold import TSNE
from threadpoolctl import threadpool_limits

_SEED = 0
#: Placed papers that a paper outside the t-SNE sample is averaged over.
_NEIGHBOURS = 8
#: Rows compared at once when placing the rest.
_CHUNK = 2048


def map_coordinates(matrix, layout_max: int = 2000) -> list[tuple[float, float]]:
    """Return a place in [0, 1] x [0, 1] for each row of a TF-IDF `matrix`."""
    if matrix.shape[0] < 3 or matrix.shape[1] < 3:
        return [(0.5, 0.5)] * matrix.shape[0]
    size = matrix.shape[0]
    components = min(50, matrix.shape[1] - 1, size - 1)
    reduced = TruncatedSVD(components, random_state=_SEED).fit_transform(matrix).astype(np.float32)
    norms = np.linalg.norm(reduced, axis=1, keepdims=True)
    reduced /= np.where(norms > 0, norms, 1.0)
    sample = np.linspace(0, size - 1, min(size, max(layout_max, _NEIGHBOURS))).round().astype(int)
    # One OpenMP thread: t-SNE's result does not depend on it, and a process
    # that later forks workers must not hold an OpenMP thread pool (libgomp
    # is not fork-safe).
    with threadpool_limits(1, user_api="openmp"):
        placed = TSNE(
            2, init="pca", random_state=_SEED, perplexity=min(30.0, (len(sample) - 1) / 3), max_iter=500
        ).fit_transform(reduced[sample])
    points = np.zeros((size, 2), dtype=np.float64)
    points[sample] = placed
    rest = np.setdiff1d(np.arange(size), sample)
    anchors = reduced[sample]
    for start in range(0, len(rest), _CHUNK):
        rows = rest[start : start + _CHUNK]
        similarity = np.round(reduced[rows] @ anchors.T, 5)
        top = np.argpartition(-similarity, _NEIGHBOURS - 1, axis=1)[:, :_NEIGHBOURS]
        weights = np.clip(np.take_along_axis(similarity, top, axis=1), 1e-3, None) ** 4
        points[rows] = (weights[:, :, None] * placed[top]).sum(axis=1) / weights.sum(axis=1, keepdims=True)
    low, high = points.min(axis=0), points.max(axis=0)
    scaled = (points - low) / np.where(high - low > 0, high - low, 1.0)
    return [(round(float(x), 4), round(float(y), 4)) for x, y in scaled]
