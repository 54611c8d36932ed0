"""The data of "papers like this abstract": each paper's strongest words, split so a query fetches little.

A reader's text is weighed as related papers weigh an abstract (the same
words, stop words, idf and (1 + log tf) weights, generator.enrich.vectors) and
scored against each paper's heaviest words (every word in a small digest,
the 24 heaviest at 20,000 papers: vectors.strongest_count). The files, under
similar/ (docs/schemas/similar.schema.json):

- `index.json`: how many papers, shards and chunks there are, and the stop words;
- `t-<n>.json`: the words whose FNV-1a hash falls in shard n, each with its idf
  (thousandths) and its postings: paper number, weight (thousandths), ...;
- `p-<n>.json`: what a result shows of papers n*CHUNK.. (title, URL, tags);
- `f-<n>.json`: the same papers' strongest words, to seed a query with a paper;
- `i-<xx>.json`: paper id -> number, for the ids starting with xx (the "more like this" links).

A query fetches the shards of its words, then the chunks of its ten best
papers: at 20,000 papers a few hundred KB, never the whole table.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from ..model import Paper

FOLDER = "similar"
#: Papers per p- and f- chunk.
CHUNK = 100
#: Bytes of postings aimed at per word shard (the number of shards follows from the digest's size).
_SHARD_BYTES = 4_000


def fnv1a(word: str) -> int:
    """Return the 32-bit FNV-1a hash of a word's UTF-8 bytes (similar.js computes the same)."""
    value = 0x811C9DC5
    for byte in word.encode("utf-8"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def _dump(data: object) -> bytes:
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n").encode("utf-8")


def similar_files(papers: list[Paper]) -> dict[str, bytes]:
    """Return the files of "papers like this abstract", keyed by docs-dir path."""
    postings: dict[str, list[int]] = defaultdict(list)
    idf: dict[str, int] = {}
    for number, paper in enumerate(papers):
        for word, weight, word_idf in paper.terms:
            postings[word] += [number, round(weight * 1000)]
            idf[word] = round(word_idf * 1000)
    size = sum(len(word) + 8 * len(rows) for word, rows in postings.items())
    shards = max(1, math.ceil(size / _SHARD_BYTES))
    by_shard: dict[int, dict[str, list[int]]] = defaultdict(dict)
    for word in sorted(postings):
        by_shard[fnv1a(word) % shards][word] = [idf[word], *postings[word]]
    files = {f"{FOLDER}/t-{n}.json": _dump(by_shard.get(n, {})) for n in range(shards)}
    chunks = max(1, math.ceil(len(papers) / CHUNK))
    for n in range(chunks):
        members = papers[n * CHUNK : (n + 1) * CHUNK]
        files[f"{FOLDER}/p-{n}.json"] = _dump([
            {"title": p.title, "url": p.url, "tags": [{"name": t.name, "kind": t.kind, "url": t.url} for t in p.tags]}
            for p in members
        ])
        files[f"{FOLDER}/f-{n}.json"] = _dump(
            [[[word, round(weight * 1000)] for word, weight, _ in p.terms] for p in members]
        )
    ids: dict[str, dict[str, int]] = defaultdict(dict)
    for number, paper in enumerate(papers):
        ids[paper.id[:2]][paper.id] = number
    for prefix, numbers in ids.items():
        files[f"{FOLDER}/i-{prefix}.json"] = _dump(numbers)
    files[f"{FOLDER}/index.json"] = _dump({
        "papers": len(papers), "shards": shards, "chunk": CHUNK, "stop": sorted(ENGLISH_STOP_WORDS),
    })
    return files
