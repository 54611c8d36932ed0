"""Related papers: each paper's nearest neighbours by TF-IDF cosine similarity.

The vectors (vectors.py) depend on each paper's own text, so when a digest
changes only the rows of the similarity matrix that can have changed are
computed again (`nearest_kept`), and the result is the same as computing all
of them.

The similarity matrix is never held whole: only the top matches of each row
are kept as the product is computed (sparse_dot_topn), so 20,000 papers need
a few hundred MB at most.
"""

from __future__ import annotations

import os
from typing import Protocol

import numpy as np
from sparse_dot_topn import sp_matmul_topn

from .vectors import Vectors, vectorize

#: Matches kept past `count` (and the paper itself) so that ties at the cut are ranked here.
_TIE_MARGIN = 8

#: Neighbours kept for each paper: the related papers shown come first, the map uses them all.
MAP_NEIGHBOURS = 15

#: Past this share of rows to compute again, computing every row is about as fast: at 20,000 papers
#: 60% of the rows take 2.3 s of the 3.7 s of all, before the merge and the memo's decoding.
FULL_SHARE = 0.6


def related_papers(texts: list[str], count: int = 5, min_similarity: float = 0.05) -> list[list[int]]:
    """Return, for each text, the indexes of the `count` most similar other texts, best first."""
    vectors = vectorize(texts) if len(texts) >= 2 else None
    if vectors is None:
        return [[] for _ in texts]
    return related_from(nearest(vectors.matrix, count), count, min_similarity)


def related_from(
    neighbours: list[list[tuple[int, float]]], count: int = 5, min_similarity: float = 0.05
) -> list[list[int]]:
    """Return the first `count` neighbours of each paper that are at least `min_similarity` alike."""
    return [[j for j, similarity in row if similarity >= min_similarity][:count] for row in neighbours]


#: Related papers every page lists when the digest has them, weak matches marked as such past the strong ones.
MIN_RELATED = 3


def closest_from(
    neighbours: list[list[tuple[int, float]]], count: int = 5, min_similarity: float = 0.05
) -> list[tuple[list[int], int]]:
    """Return each paper's related papers and how many of them (the last) are weak matches.

    The papers at least `min_similarity` alike come first (at most `count`);
    where they are fewer than MIN_RELATED (and `count` allows), the closest
    other papers with any likeness fill the list up to it: weak matches, so
    that no paper page is left without its closest papers.
    """
    wanted = min(count, MIN_RELATED)
    result = []
    for row in neighbours:
        strong = [j for j, similarity in row if similarity >= min_similarity][:count]
        weak = [j for j, similarity in row if 0 < similarity < min_similarity][: max(0, wanted - len(strong))]
        result.append((strong + weak, len(weak)))
    return result


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
    return [row[:count] for row in _kept_rows(matrix, list(range(size)), _keep(count, size), workers)]


class NeighbourMemo(Protocol):
    """Each row's kept neighbours from the last run, by row key (cache.Cache)."""

    def get(self, key: str) -> object | None: ...

    def put(self, key: str, value: object) -> None: ...


def nearest_kept(
    vectors: Vectors, count: int = 5, workers: int = 0, memo: NeighbourMemo | None = None
) -> list[list[tuple[int, float]]]:
    """Return what `nearest` returns, computing again only the rows the last run's `memo` cannot give.

    The memo keeps, per row key, the row's best neighbours and a bound: no row
    left out is more similar. A row whose key the memo lacks has a new vector
    (an edited or added paper): its row is computed. Every other row drops the
    papers that are gone or changed from its list and takes in the new rows'
    similarities above its bound; it is computed again only when fewer than
    `count` neighbours are then known for sure. Past FULL_SHARE of the rows
    computed, all are. The memo receives every row's list.
    """
    matrix, keys = vectors.matrix, vectors.keys
    size = matrix.shape[0]
    keep = _keep(count, size)
    if memo is None or keep < count + 1 + _TIE_MARGIN:
        # (a digest smaller than one kept list: nothing worth remembering)
        return nearest(matrix, count, workers)
    index = {key: i for i, key in enumerate(keys)}
    stored = [_decoded(memo.get(key), index, keep) for key in keys]
    new = [row for row, entry in enumerate(stored) if entry is None]
    merged: list[tuple[list[tuple[int, float]], float] | None] = [None] * size
    if len(new) <= FULL_SHARE * size:
        merged = _merged(matrix, new, stored, count, keep, workers)
    redo = [row for row, entry in enumerate(merged) if entry is None]
    if len(redo) > FULL_SHARE * size:
        redo = list(range(size))
    for row, ranked in zip(redo, _kept_rows(matrix, redo, keep, workers), strict=True):
        merged[row] = (ranked, _bound(ranked, keep))
    out = []
    for row, entry in enumerate(merged):
        assert entry is not None
        if entry != stored[row]:
            memo.put(keys[row], _encoded(entry, keys))
        out.append(entry[0][:count])
    return out


def _keep(count: int, size: int) -> int:
    return min(count + 1 + _TIE_MARGIN, size)


def _kept_rows(matrix, rows: list[int], keep: int, workers: int) -> list[list[tuple[int, float]]]:
    """Return each listed row's best `keep` - 1 other rows with a positive similarity, ranked."""
    if not rows:
        return []
    part = matrix if len(rows) == matrix.shape[0] else matrix[rows]
    return _ranked(_product(part, matrix, keep, workers), rows)


def _product(part, matrix, keep: int, workers: int):
    """Return the rows of `part` times `matrix`'s transpose, each row's best `keep` similarities only."""
    # Each row of the product is computed on its own, in the order of its words:
    # a row computed alone has the same bits as in the whole product.
    return sp_matmul_topn(
        part, matrix.T.tocsr(), top_n=keep, threshold=0.0, sort=False, n_threads=workers or os.cpu_count() or 1
    )


def _ranked(product, rows: list[int]) -> list[list[tuple[int, float]]]:
    """Return the product's rows (those of `rows`, in order) ranked: the row itself left out, ties to the earlier."""
    pointers, columns, values = product.indptr.tolist(), product.indices.tolist(), product.data.tolist()
    result = []
    for at, row in enumerate(rows):
        span = range(pointers[at], pointers[at + 1])
        ranked = sorted((-round(values[k], 6), columns[k]) for k in span if columns[k] != row)
        result.append([(j, -negative) for negative, j in ranked if negative < 0])
    return result


def cold(vectors: Vectors, count: int, memo: NeighbourMemo | None) -> bool:
    """Whether `nearest_kept` computes every row (no memo, or too few rows in it): `kept_product`'s case."""
    size = vectors.matrix.shape[0]
    if memo is None or _keep(count, size) < count + 1 + _TIE_MARGIN:
        return True
    return sum(memo.get(key) is None for key in vectors.keys) > FULL_SHARE * size


def kept_product(matrix, count: int, workers: int = 0):
    """Return the product `nearest_kept` ranks when it computes every row (cold); for a process of its own."""
    return _product(matrix, matrix, _keep(count, matrix.shape[0]), workers)


def kept_lists(
    vectors: Vectors, count: int, memo: NeighbourMemo | None, product
) -> list[list[tuple[int, float]]]:
    """Return `nearest_kept`'s lists from `kept_product`'s product, the memo given every row that changed."""
    size = vectors.matrix.shape[0]
    keep = _keep(count, size)
    rows = _ranked(product, list(range(size)))
    if memo is not None and keep >= count + 1 + _TIE_MARGIN:
        index = {key: i for i, key in enumerate(vectors.keys)}
        for key, ranked in zip(vectors.keys, rows, strict=True):
            entry = (ranked, _bound(ranked, keep))
            if entry != _decoded(memo.get(key), index, keep):
                memo.put(key, _encoded(entry, vectors.keys))
    return [row[:count] for row in rows]


def _merged(
    matrix, new: list[int], stored: list, count: int, keep: int, workers: int
) -> list[tuple[list[tuple[int, float]], float] | None]:
    """Return each stored row's list and bound with the new rows' similarities taken in (None: compute it)."""
    size = matrix.shape[0]
    lists: list[tuple[list[tuple[int, float]], float] | None] = [None] * size
    fresh = set(new)
    gained: dict[int, list[tuple[float, int]]] = {}
    if new:
        # A row keeps at most `keep` - 1 neighbours: more new ones than `keep` cannot enter.
        product = sp_matmul_topn(
            matrix, matrix[new].T.tocsr(), top_n=min(keep, len(new)), threshold=0.0, sort=False,
            n_threads=workers or os.cpu_count() or 1,
        )
        # Only a similarity above a row's bound can enter its list: the rest are left out
        # before any Python loop (with a margin: the ranking rounds as nearest() does).
        bounds = np.array([entry[1] if entry is not None else 2.0 for entry in stored])
        owners = np.repeat(np.arange(size), np.diff(product.indptr))
        chosen = np.flatnonzero(product.data > bounds[owners] - 1e-6)
        for owner, column, value in zip(
            owners[chosen].tolist(), product.indices[chosen].tolist(), product.data[chosen].tolist(), strict=True
        ):
            # (a new row's own bound is 2.0: no row gains itself, and a bound is never below 0)
            similarity = round(value, 6)
            if similarity > stored[owner][1]:
                gained.setdefault(owner, []).append((-similarity, new[column]))
    for row, entry in enumerate(stored):
        if entry is None:
            continue
        ranked, bound = entry
        candidates = sorted([(-similarity, j) for j, similarity in ranked if j not in fresh] + gained.get(row, []))
        if len(candidates) >= keep:
            # Cut to `keep` - 1: what is cut is left out, so the bound rises to it.
            bound = max(bound, -candidates[keep - 1][0])
            candidates = candidates[: keep - 1]
        # Too few neighbours known for sure (unless nothing left out was similar at all): compute the row.
        if bound > 0 and len(candidates) < count:
            continue
        lists[row] = ([(j, -negative) for negative, j in candidates], bound)
    return lists


def _bound(ranked: list[tuple[int, float]], keep: int) -> float:
    """Return how similar a row left out of a computed list can be.

    0.0 when the list holds every row with a positive similarity; else its last
    similarity (the product kept the `keep` best, the paper itself among them).
    """
    return ranked[-1][1] if len(ranked) >= keep - 1 else 0.0


def _encoded(entry: tuple[list[tuple[int, float]], float], keys: tuple[str, ...]) -> list:
    """A kept list as the memo stores it: [bound, key, similarity, key, similarity, ...]."""
    ranked, bound = entry
    return [bound, *(item for j, similarity in ranked for item in (keys[j], similarity))]


def _decoded(value: object, index: dict[str, int], keep: int) -> tuple[list[tuple[int, float]], float] | None:
    """Return a stored list ranked by the rows' current order (rows gone left out) and its bound, or None."""
    if not isinstance(value, list) or not len(value) % 2 or len(value) > 2 * keep - 1:
        return None
    bound = value[0]
    if not isinstance(bound, float) or not 0.0 <= bound <= 1.000001:
        return None
    pairs = []
    for at in range(1, len(value), 2):
        key, similarity = value[at], value[at + 1]
        if not isinstance(key, str) or not isinstance(similarity, float) or not bound <= similarity <= 1.000001:
            return None
        row = index.get(key)
        if row is not None:  # a paper gone (or changed: it has another key now) leaves the list
            pairs.append((-similarity, row))
    pairs.sort()
    return [(j, -negative) for negative, j in pairs], bound
