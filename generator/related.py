"""Related papers: each paper's nearest neighbours by TF-IDF cosine similarity.

The similarity matrix is never held whole: rows are compared in chunks, so
20,000 papers need a few hundred MB at most, and only the top matches of each
row are kept.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

#: Rows compared at once: chunk x papers similarities (and their ranks) live in memory, once per thread.
CHUNK = 512


def vectorize(texts: list[str]):
    """Return the texts' TF-IDF rows (L2-normalised, float32), or None when no text has a usable word."""
    vectorizer = TfidfVectorizer(
        sublinear_tf=True, stop_words="english", min_df=2 if len(texts) > 50 else 1, max_df=0.5,
        max_features=50000, dtype=np.float32, token_pattern=r"(?u)\b[A-Za-z][A-Za-z0-9-]+\b",
    )
    try:
        return vectorizer.fit_transform(texts)
    except ValueError:  # no usable word in any text
        return None


def related_papers(texts: list[str], count: int = 5, min_similarity: float = 0.05) -> list[list[int]]:
    """Return, for each text, the indexes of the `count` most similar other texts, best first."""
    matrix = vectorize(texts) if len(texts) >= 2 else None
    return [[] for _ in texts] if matrix is None else nearest(matrix, count, min_similarity)


def nearest(matrix, count: int = 5, min_similarity: float = 0.05, workers: int = 0) -> list[list[int]]:
    """Return, for each row of a TF-IDF `matrix`, the indexes of its `count` most similar other rows.

    Chunks run on `workers` threads (0: one per core): SciPy's sparse product
    and NumPy's partition release the GIL, so threads share the matrix and
    still use every core.
    """
    size = matrix.shape[0]
    transposed = matrix.T.tocsr()
    keep = min(count + 1, size)

    def chunk(start: int) -> list[list[int]]:
        block = (matrix[start : start + CHUNK] @ transposed).toarray()
        rows = np.arange(block.shape[0])
        block[rows, start + rows] = -1.0  # never related to itself
        top = np.argpartition(block, size - keep, axis=1)[:, size - keep :]
        # Rounded scores so that ties (equal up to float noise) go to the earlier paper.
        scores = np.round(np.take_along_axis(block, top, axis=1), 6)
        order = np.lexsort((top, -scores), axis=1)
        top = np.take_along_axis(top, order, axis=1)
        scores = np.take_along_axis(scores, order, axis=1)
        return [
            [j for j, v in zip(indexes, values) if v >= min_similarity][:count]
            for indexes, values in zip(top.tolist(), scores.tolist())
        ]

    with ThreadPoolExecutor(workers or os.cpu_count() or 1) as pool:
        return [row for rows in pool.map(chunk, range(0, size, CHUNK)) for row in rows]
