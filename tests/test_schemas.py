"""The data files the site publishes and its scripts read match their JSON Schemas in docs/schemas/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import DEFAULT_CORPUS, ROOT, render_digest, write_tree

SCHEMAS = ROOT / "docs" / "schemas"


def validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def rendered(project: Path, sources: list[Path]) -> dict[str, object]:
    files = render_digest(project, sources)
    return {name: json.loads(files[name]) for name in ("papers.json", "filter.json", "map.json")}


@pytest.fixture(scope="module")
def default_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    from tests.conftest import copy_project

    return render_digest(copy_project(tmp_path_factory.mktemp("schemas") / "project"), [DEFAULT_CORPUS])


@pytest.fixture(scope="module")
def default_data(default_files: dict[str, bytes]) -> dict[str, object]:
    return {name: json.loads(default_files[name]) for name in ("papers.json", "filter.json", "map.json")}


@pytest.mark.parametrize("name", ["papers", "filter", "map"])
def test_the_default_digests_data_files_match_their_schemas(default_data: dict[str, object], name: str) -> None:
    errors = [error.message for error in validator(name).iter_errors(default_data[f"{name}.json"])]
    assert errors == []


#: similar/ file name prefix -> the definition in similar.schema.json that file follows.
SIMILAR_KINDS = {"index": "index", "t-": "shard", "p-": "chunk", "f-": "features", "i-": "ids"}


def test_every_like_this_data_file_matches_its_schema(default_files: dict[str, bytes]) -> None:
    schema = json.loads((SCHEMAS / "similar.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    names = sorted(name for name in default_files if name.startswith("similar/"))
    kinds = {}
    for name in names:
        stem = name.removeprefix("similar/")
        kind = next(kind for prefix, kind in SIMILAR_KINDS.items() if stem.startswith(prefix))
        kinds[kind] = kinds.get(kind, 0) + 1
        check = Draft202012Validator({**schema, "$ref": f"#/$defs/{kind}"})
        errors = [error.message for error in check.iter_errors(json.loads(default_files[name]))]
        assert errors == [], name
    assert set(kinds) == set(SIMILAR_KINDS.values())  # every kind of file was written and checked
    index = json.loads(default_files["similar/index.json"])
    assert kinds["shard"] == index["shards"] and index["papers"] == 57


def test_a_like_this_chunk_with_a_missing_url_fails_the_schema() -> None:
    schema = json.loads((SCHEMAS / "similar.schema.json").read_text(encoding="utf-8"))
    check = Draft202012Validator({**schema, "$ref": "#/$defs/chunk"})
    assert not check.is_valid([{"title": "T", "tags": []}])
    assert check.is_valid([{"title": "T", "url": "papers/t-abc/", "tags": []}])


def test_papers_json_has_one_shape_for_text_and_structured_sources(project: Path, tmp_path: Path) -> None:
    record = {"id": "r1", "title": "GRACE: A Test", "abstract": "We introduce GRACE, a method for tests of shape."}
    sources = write_tree(tmp_path / "in", {
        "a.txt": "We propose ReaPER, a replay method for offline reinforcement learning.",
        "b.jsonl": json.dumps(record) + "\n",
    })
    papers = rendered(project, [sources])["papers.json"]
    assert isinstance(papers, list)
    assert validator("papers").is_valid(papers)
    units = {paper["source"]["file"].rsplit("/", 1)[-1]: paper["source"]["unit"] for paper in papers}
    assert units == {"a.txt": "paragraph", "b.jsonl": "record"}
    assert {tuple(paper["source"]) for paper in papers} == {("file", "unit", "number", "line")}


def test_a_positional_row_would_fail_the_schema() -> None:
    # The scripts read fields by name: the schema must reject the old [title, url, tags, key, id] rows.
    row = ["Title", "papers/x-abc123/", [0], "key", "abc123abc123"]
    assert not validator("filter").is_valid({"tags": [], "papers": [row]})


def test_all_json_matches_its_schema_and_each_order_is_every_paper_once(default_files: dict[str, bytes]) -> None:
    data = json.loads(default_files["all.json"])
    assert [error.message for error in validator("all").iter_errors(data)] == []
    papers = json.loads(default_files["filter.json"])["papers"]
    assert set(data["orders"]) == {"title", "collection", "area"} and len(data["summaries"]) == len(papers)
    for order in data["orders"].values():
        assert sorted(order["papers"]) == list(range(len(papers)))
