"""Paper vectors: each text's TF-IDF row, weighed by the shipped corpora's word counts.

Words are weighed by how many abstracts of the shipped corpora use them
(`data/term_df.json`, built by scripts/build_term_weights.py); a word those
corpora do not know is weighed by how many papers of the digest use it. So a
paper's vector depends on its own text (and on those few digest counts), not on
every other paper, and each row has a key of everything its weights depend on:
related papers (related.py) compute again only the rows whose key changed.
A memo of each text's word counts (`TermCounts`) spares tokenising the texts
the last run counted. "Papers like this abstract" ships each paper's heaviest
words (`strongest_terms`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Protocol

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import normalize

#: Document frequencies of the corpora's words (package data).
TERM_FILE = "data/term_df.json"
_TOKEN_PATTERN = r"(?u)\b[A-Za-z][A-Za-z0-9-]+\b"


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
