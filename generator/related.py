"""Related papers: each paper's nearest neighbours by TF-IDF cosine similarity.

The similarity matrix is never held whole: rows are compared in chunks, so
20,000 papers need a few hundred MB at most, and only the top matches of each
row are kept.
"""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

#: Rows compared at once: chunk x papers similarities live in memory together.
CHUNK = 1024


def related_papers(texts: list[str], count: int = 5, min_similarity: float = 0.05) -> list[list[int]]:
    """Return, for each text, the indexes of the `count` most similar other texts, best first."""
    if len(texts) < 2:
        return [[] for _ in texts]
    vectorizer = TfidfVectorizer(
        sublinear_tf=True, stop_words="english", min_df=2 if len(texts) > 50 else 1, max_df=0.5,
        max_features=50000, dtype=np.float32, token_pattern=r"(?u)\b[A-Za-z][A-Za-z0-9-]+\b",
    )
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no usable word in any text
        return [[] for _ in texts]
    transposed = matrix.T.tocsr()
    result: list[list[int]] = []
    keep = min(count + 1, len(texts))
    for start in range(0, len(texts), CHUNK):
        block = (matrix[start : start + CHUNK] @ transposed).toarray()
        rows = np.arange(block.shape[0])
        block[rows, start + rows] = -1.0  # never related to itself
        # Rounded scores so that ties (equal up to float noise) go to the earlier paper.
        block = np.round(block, 6)
        top = np.argpartition(-block, keep - 1, axis=1)[:, :keep]
        scores = np.take_along_axis(block, top, axis=1)
        order = np.lexsort((top, -scores), axis=1)
        top = np.take_along_axis(top, order, axis=1)
        scores = np.take_along_axis(scores, order, axis=1)
        for indexes, values in zip(top.tolist(), scores.tolist()):
            result.append([j for j, v in zip(indexes, values) if v >= min_similarity][:count])
    return result
