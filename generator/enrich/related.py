"""Related papers: each paper's nearest neighbours by TF-IDF cosine similarity.

Words are weighed by how many abstracts of the shipped corpora use them
(`data/term_df.json`, built by scripts/build_term_weights.py); a word those
corpora do not know is weighed by how many papers of the digest use it. So a
paper's vector depends on its own text (and on those few digest counts), not on
every other paper: when a digest changes, only the rows of the similarity
matrix that can have changed are computed again (`nearest_kept`), and the
result is the same as computing all of them.

The similarity matrix is never held whole: only the top matches of each row
are kept as the product is computed (sparse_dot_topn), so 20,000 papers need
a few hundred MB at most.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Protocol

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import normalize
from sparse_dot_topn import sp_matmul_topn

#: Matches kept past `count` (and the paper itself) so that ties at the cut are ranked here.
_TIE_MARGIN = 8

#: Neighbours kept for each paper: the related papers shown come first, the map uses them all.
MAP_NEIGHBOURS = 15

#: Document frequencies of the corpora's words (package data).
TERM_FILE = "data/term_df.json"
_TOKEN_PATTERN = r"(?u)\b[A-Za-z][A-Za-z0-9-]+\b"
#: Past this share of rows to compute again, computing every row is about as fast: at 20,000 papers
#: 60% of the rows take 2.3 s of the 3.7 s of all, before the merge and the memo's decoding.
FULL_SHARE = 0.6


def _counter() -> CountVectorizer:
    return CountVectorizer(stop_words="english", token_pattern=_TOKEN_PATTERN, dtype=np.float64)


def analyzer() -> Callable[[str], list[str]]:
    """Return the tokeniser of related papers: lowercase words, English stop words left out."""
    return _counter().build_analyzer()


@dataclass(frozen=True)
class TermWeights:
    """How many of `documents` corpus abstracts use each word."""

    documents: int
    frequencies: dict[str, int]


@lru_cache(maxsize=1)
def load_term_weights() -> TermWeights:
    """Load the shipped document frequencies (no network, no pickle)."""
    data = json.loads(resources.files("generator").joinpath(TERM_FILE).read_text(encoding="utf-8"))
    return TermWeights(int(data["documents"]), {str(w): int(n) for w, n in data["words"].items()})


@dataclass(frozen=True)
class Vectors:
    """The papers' TF-IDF rows (L2-normalised), and per row a key of everything its weights depend on."""

    matrix: sp.csr_matrix
    keys: tuple[str, ...]
    #: The columns' words and their inverse document frequencies.
    vocabulary: tuple[str, ...] = ()
    idf: tuple[float, ...] = ()


class CountsMemo(Protocol):
    """The last run's word counts as arrays (cache.ArrayFile): `arrays` is None when there are none."""

    arrays: dict[str, np.ndarray] | None

    def put(self, arrays: dict[str, np.ndarray]) -> None: ...


@dataclass(frozen=True)
class TermCounts:
    """Each text's word counts (rows; columns: `vocabulary`, sorted) and a hash of each text."""

    hashes: np.ndarray  # (n,) bytes of 16
    vocabulary: np.ndarray  # (words,) str, sorted
    counts: sp.csr_matrix  # float64 counts, sorted indices

    def arrays(self) -> dict[str, np.ndarray]:
        """The counts as a memo stores them (no object arrays: no pickle)."""
        return {
            # (the words are ASCII, _TOKEN_PATTERN's: one byte a letter, not numpy's four)
            "hashes": self.hashes, "vocabulary": self.vocabulary.astype("S"), "data": self.counts.data.astype(np.int32),
            "indices": self.counts.indices.astype(np.int32), "indptr": self.counts.indptr.astype(np.int64),
        }

    @classmethod
    def of_arrays(cls, arrays: dict[str, np.ndarray]) -> TermCounts | None:
        """Return the counts a memo stored, or None when they are not consistent."""
        try:
            hashes, vocabulary = arrays["hashes"], arrays["vocabulary"]
            data, indices, indptr = arrays["data"], arrays["indices"], arrays["indptr"]
        except KeyError:
            return None
        words = len(vocabulary)
        if (
            hashes.dtype != np.dtype("S16") or vocabulary.dtype.kind != "S" or data.dtype != np.int32
            or indices.dtype != np.int32 or indptr.dtype != np.int64 or indptr.shape != (len(hashes) + 1,)
            or len(data) != len(indices) or not len(indptr) or indptr[0] != 0 or indptr[-1] != len(data)
            or np.any(np.diff(indptr) < 0) or (len(indices) and (indices.min() < 0 or indices.max() >= words))
            or np.any(data <= 0) or (words > 1 and np.any(vocabulary[1:] <= vocabulary[:-1]))
        ):
            return None
        counts = sp.csr_matrix((data.astype(np.float64), indices, indptr), shape=(len(hashes), words))
        if not counts.has_sorted_indices:
            return None
        return cls(hashes, vocabulary.astype(str), counts)


def text_hashes(texts: list[str]) -> np.ndarray:
    """Return a 16-byte hash of each text."""
    return np.array(
        [hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest() for text in texts],
        dtype="S16",
    )


#: Past this share of texts not in the last run's counts, all are counted again (it is then about as fast).
RECOUNT_SHARE = 0.3


def count_terms(texts: list[str], last: TermCounts | None = None) -> TermCounts | None:
    """Return the texts' word counts (CountVectorizer's), or None when no text has a usable word.

    Texts counted in the `last` run are not tokenised again: their rows are
    taken from it, the new texts are counted, and the columns are merged into
    the sorted vocabulary of the words the texts use. The result is exactly
    what counting every text gives.
    """
    hashes = text_hashes(texts)
    rows = None
    if last is not None:
        where = {h: i for i, h in enumerate(last.hashes.tolist())}
        rows = np.array([where.get(h, -1) for h in hashes.tolist()], dtype=np.int64)
        fresh = np.flatnonzero(rows < 0)
        if len(fresh) > RECOUNT_SHARE * len(texts):
            rows = None
    if rows is None or last is None:
        counter = _counter()
        try:
            counts = counter.fit_transform(texts).tocsr()
        except ValueError:  # no usable word in any text
            return None
        counts.sort_indices()
        return TermCounts(hashes, np.array(counter.get_feature_names_out().tolist(), dtype=str), counts)
    parts, vocabularies = [last.counts[rows[rows >= 0]]], [last.vocabulary]
    if len(fresh):
        counter = _counter()
        try:
            parts.append(counter.fit_transform([texts[i] for i in fresh.tolist()]).tocsr())
            vocabularies.append(np.array(counter.get_feature_names_out().tolist(), dtype=str))
        except ValueError:  # the new texts have no usable word: empty rows
            parts.append(sp.csr_matrix((len(fresh), 0)))
            vocabularies.append(np.array([], dtype=str))
    union = np.unique(np.concatenate(vocabularies))
    moved = []
    for part, vocabulary in zip(parts, vocabularies, strict=True):
        columns = np.searchsorted(union, vocabulary)[part.indices] if len(vocabulary) else part.indices
        moved.append(sp.csr_matrix((part.data, columns, part.indptr), shape=(part.shape[0], len(union))))
    # Old rows first, then the new ones: put each back at its text's place.
    order = np.empty(len(texts), dtype=np.int64)
    kept = rows >= 0
    old = len(texts) - len(fresh)
    order[kept] = np.arange(old)
    order[~kept] = old + np.arange(len(fresh))
    stacked = sp.vstack(moved, format="csr")[order]
    # Words only gone texts used leave the vocabulary (CountVectorizer has only the texts' words).
    used = np.bincount(stacked.indices, minlength=len(union)) > 0
    if not used.any():
        return None
    remap = np.cumsum(used) - 1
    counts = sp.csr_matrix(
        (stacked.data.astype(np.float64), remap[stacked.indices].astype(np.int32), stacked.indptr),
        shape=(len(texts), int(used.sum())),
    )
    counts.sort_indices()
    return TermCounts(hashes, union[used], counts)


def vectorize(texts: list[str], memo: CountsMemo | None = None) -> Vectors | None:
    """Return the texts' TF-IDF rows and their keys, or None when no text has a usable word.

    Weights are (1 + log tf) x idf, idf = log((n + 1) / (df + 1)) + 1 with n
    the corpus's abstracts and df the corpus's count of the word, or the
    digest's for a word the corpus does not know. float64, and math.log rather
    than numpy's SIMD log: the same bits on every machine up to the norms,
    whose last bits the 6-decimal rounding of similarities absorbs.

    `memo` holds the last run's word counts (count_terms): texts found there
    are not tokenised again, and it receives this run's.
    """
    last = TermCounts.of_arrays(memo.arrays) if memo is not None and memo.arrays is not None else None
    terms = count_terms(texts, last)
    if terms is None:
        return None
    if memo is not None:
        memo.put(terms.arrays())
    counts = terms.counts
    vocabulary = terms.vocabulary.tolist()
    weights = load_term_weights()
    in_digest = np.bincount(counts.indices, minlength=len(vocabulary))
    known = [weights.frequencies.get(word, -1) for word in vocabulary]
    base = weights.documents + 1
    idf = np.array(
        [math.log(base / ((k if k >= 0 else int(d)) + 1)) + 1 for k, d in zip(known, in_digest, strict=True)]
    )
    tf = counts.data.astype(np.int64)
    logs = np.array([1.0 + math.log(n) if n else 0.0 for n in range(int(tf.max(initial=0)) + 1)])
    matrix = sp.csr_matrix((logs[tf] * idf[counts.indices], counts.indices, counts.indptr), shape=counts.shape)
    matrix = normalize(matrix, norm="l2", copy=False)
    unknown = np.array([k < 0 for k in known], dtype=bool)
    keys = []
    seen: dict[str, int] = {}
    for row, text in enumerate(texts):
        columns = counts.indices[counts.indptr[row] : counts.indptr[row + 1]]
        # A word the corpus does not know is weighed by the digest: its count is part of the row's key.
        local = ";".join(f"{vocabulary[c]}={in_digest[c]}" for c in columns[unknown[columns]])
        key = hashlib.blake2b(f"{text}\x1e{local}".encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
        # Two papers with the same text (abstracts that differ only in markup) have one vector:
        # the second and later get the key with their rank, so that each row has a key of its own.
        seen[key] = seen.get(key, 0) + 1
        keys.append(key if seen[key] == 1 else f"{key}.{seen[key]}")
    return Vectors(matrix, tuple(keys), tuple(vocabulary), tuple(idf.tolist()))


#: Words kept per paper for "papers like this abstract" at least: its strongest, which carry most of its similarities.
STRONGEST = 24
#: Words kept in all: a small digest keeps every word of every paper (so a paper's "more like this" ranks
#: exactly as its related papers), a large one its STRONGEST (20,000 papers: 24 each).
TERM_BUDGET = 480_000


def strongest_count(papers: int) -> int:
    """Return how many words each paper keeps for "papers like this abstract" in a digest of `papers`."""
    return max(STRONGEST, TERM_BUDGET // max(1, papers))


def strongest_terms(vectors: Vectors, count: int = STRONGEST) -> list[tuple[tuple[str, float, float], ...]]:
    """Return each row's `count` heaviest words as (word, weight, idf), heaviest first (weights rounded to 4 places)."""
    matrix = vectors.matrix
    result = []
    for row in range(matrix.shape[0]):
        start, end = matrix.indptr[row], matrix.indptr[row + 1]
        columns, weights = matrix.indices[start:end].tolist(), matrix.data[start:end].tolist()
        words = vectors.vocabulary
        ranked = sorted(zip(weights, columns, strict=True), key=lambda wc: (-round(wc[0], 6), words[wc[1]]))
        result.append(tuple(
            (vectors.vocabulary[c], round(w, 4), round(vectors.idf[c], 4)) for w, c in ranked[:count]
        ))
    return result


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
    # Each row of the product is computed on its own, in the order of its words:
    # a row computed alone has the same bits as in the whole product.
    product = sp_matmul_topn(
        part, matrix.T.tocsr(), top_n=keep, threshold=0.0, sort=False, n_threads=workers or os.cpu_count() or 1
    )
    pointers, columns, values = product.indptr.tolist(), product.indices.tolist(), product.data.tolist()
    result = []
    for at, row in enumerate(rows):
        span = range(pointers[at], pointers[at + 1])
        ranked = sorted((-round(values[k], 6), columns[k]) for k in span if columns[k] != row)
        result.append([(j, -negative) for negative, j in ranked if negative < 0])
    return result


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
