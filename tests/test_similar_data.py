"""The data of "papers like this abstract": word shards, paper chunks, id index, the same hash as the browser's."""

from __future__ import annotations

import json
from pathlib import Path

from generator.render.similar_data import CHUNK, FOLDER, fnv1a, similar_files
from tests.conftest import DEFAULT_CORPUS, make_paper, render_digest


def test_the_word_hash_is_32_bit_fnv1a() -> None:
    # The published test vectors of FNV-1a (32 bit); similar.js computes the same.
    assert fnv1a("") == 0x811C9DC5
    assert fnv1a("a") == 0xE40C292C
    assert fnv1a("foobar") == 0xBF9CF968


def test_every_paper_and_word_is_in_exactly_one_place(project: Path) -> None:
    files = render_digest(project, [DEFAULT_CORPUS])
    records = json.loads(files["papers.json"])
    index = json.loads(files[f"{FOLDER}/index.json"])
    assert index["papers"] == len(records) and index["chunk"] == CHUNK
    assert "the" in index["stop"] and "graph" not in index["stop"]
    seen: dict[str, int] = {}
    postings = set()
    for n in range(index["shards"]):
        for word, row in json.loads(files[f"{FOLDER}/t-{n}.json"]).items():
            assert fnv1a(word) % index["shards"] == n  # the browser finds a word's shard from the word alone
            assert word not in seen
            seen[word] = row[0]
            postings |= set(row[1::2])
    assert postings == set(range(len(records)))  # every paper can be found
    chunk = json.loads(files[f"{FOLDER}/p-0.json"])
    assert [p["url"] for p in chunk] == [r["url"] for r in records[:CHUNK]]
    assert [t["name"] for t in chunk[0]["tags"]] == [t["name"] for t in records[0]["tags"]]
    for number, record in enumerate(records):
        assert json.loads(files[f"{FOLDER}/i-{record['id'][:2]}.json"])[record["id"]] == number


def test_a_paper_without_usable_words_still_has_its_chunk_entry() -> None:
    files = similar_files([make_paper("x y z")])
    assert json.loads(files[f"{FOLDER}/p-0.json"])[0]["url"].startswith("papers/")
    assert json.loads(files[f"{FOLDER}/f-0.json"]) == [[]]
