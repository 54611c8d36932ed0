"""Related papers: each paper's nearest neighbours by TF-IDF cosine similarity.

The similarity matrix is never held whole: only the top matches of each row
are kept as the product is computed (sparse_dot_topn), so 20,000 papers need
a few hundred MB at most.
"""

from __future__ import annotations

import os

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sparse_dot_topn import sp_matmul_topn

#: Matches kept past `count` (and the paper itself) so that ties at the cut are ranked here.
_TIE_MARGIN = 8


#: Neighbours kept for each paper: the related papers shown come first, the map uses them all.
MAP_NEIGHBOURS = 15


def vectorize(texts: list[str]):
    """Return the texts' TF-IDF rows (L2-normalised), or None when no text has a usable word.

    float64: a float32 weight can differ in its last bit between numpy's SIMD
    kernels, and a bit that large would reach the similarities' sixth decimal.
    """
    vectorizer = TfidfVectorizer(
        sublinear_tf=True, stop_words="english", min_df=2 if len(texts) > 50 else 1, max_df=0.5,
        max_features=50000, dtype=np.float64, token_pattern=r"(?u)\b[A-Za-z][A-Za-z0-9-]+\b",
    )
    try:
        return vectorizer.fit_transform(texts)
    except ValueError:  # no usable word in any text
        return None


def related_papers(texts: list[str], count: int = 5, min_similarity: float = 0.05) -> list[list[int]]:
    """Return, for each text, the indexes of the `count` most similar other texts, best first."""
    matrix = vectorize(texts) if len(texts) >= 2 else None
    return [[] for _ in texts] if matrix is None else related_from(nearest(matrix, count), count, min_similarity)


def related_from(
    neighbours: list[list[tuple[int, float]]], count: int = 5, min_similarity: float = 0.05
) -> list[list[int]]:
    """Return the first `count` neighbours of each paper that are at least `min_similarity` alike."""
    return [[j for j, similarity in row if similarity >= min_similarity][:count] for row in neighbours]


def nearest(matrix, count: int = 5, workers: int = 0) -> list[list[tuple[int, float]]]:
    """Return, for each row of a TF-IDF `matrix`, its `count` most similar other rows and their similarity.

    Similarities are rounded to 6 decimals: the last bits of a float product
    differ between machines, the sixth decimal practically never does.

    sparse_dot_topn multiplies the matrix by its transpose on `workers` threads
    (0: one per core) and keeps only each row's best matches, so the 20,000 x
    20,000 similarities are never held. A few more than `count` are kept, then
    ranked here: ties (equal up to float noise) go to the earlier paper, whatever
    order the threads found them in. (Past that margin, which of many exact
    copies are kept is sparse_dot_topn's choice: the same on every run.)
    """
    size = matrix.shape[0]
    if size < 2:
        return [[] for _ in range(size)]
    keep = min(count + 1 + _TIE_MARGIN, size)
    product = sp_matmul_topn(
        matrix, matrix.T.tocsr(), top_n=keep, threshold=0.0, sort=False, n_threads=workers or os.cpu_count() or 1
    )
    pointers, columns, values = product.indptr.tolist(), product.indices.tolist(), product.data.tolist()
    result = []
    for row in range(size):
        span = range(pointers[row], pointers[row + 1])
        ranked = sorted((-round(values[k], 6), columns[k]) for k in span if columns[k] != row)
        result.append([(j, -negative) for negative, j in ranked if negative < 0][:count])
    return result
