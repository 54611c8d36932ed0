"""Pagefind's input: the search records the generator writes and the pages the build indexes."""

from __future__ import annotations

import dataclasses
import json

import pytest

from generator.build.pagefind import RECORDS_FILE, _page_path, record_page, search_records
from generator.errors import DigestError
from generator.model import Tag
from generator.pipeline import generate
from tests.conftest import make_paper, write_tree

HOSTILE = 'Text with <script>alert(1)</script> & <img src=x onerror="alert(2)"> and {{ 7*7 }}.'


def test_records_hold_each_papers_url_title_plain_text_and_tag_names_in_input_order() -> None:
    papers = [
        make_paper("We introduce FOO, a method. It uses $\\alpha$ heavily.", title="FOO: A Method", slug="foo-1",
                   plain="We introduce FOO, a method. It uses α heavily.",
                   tags=(Tag("Graph Learning", "graph-learning", "topic", 0.9, ()),)),
        make_paper("Second abstract here.", title="Second", slug="second-2", plain="Second abstract here."),
    ]
    lines = search_records(papers).splitlines()
    assert [json.loads(line) for line in lines] == [
        {"url": "papers/foo-1/", "title": "FOO: A Method", "text": "We introduce FOO, a method. It uses α heavily.",
         "tags": ["Graph Learning"]},
        {"url": "papers/second-2/", "title": "Second", "text": "Second abstract here.", "tags": []},
    ]
    assert search_records(papers) == search_records(list(papers))  # byte-stable


def test_a_record_page_shows_hostile_text_as_text() -> None:
    page = record_page({"url": "papers/x/", "title": f"T {HOSTILE}", "text": HOSTILE, "tags": ["<b>bold</b>"]})
    assert "<script>" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "{{ 7*7 }}" in page  # no template ever sees it
    assert page.count('data-pagefind-filter="tag"') == 1


@pytest.mark.parametrize("url", ["", "/etc/", "papers/../../x/", "papers//x/", "./x/"])
def test_a_damaged_record_url_cannot_reach_outside_the_index_folder(url: str) -> None:
    with pytest.raises(DigestError, match="unexpected page URL"):
        _page_path(url)


def test_records_are_written_for_pagefind_digests_only_and_never_published(settings, tmp_path) -> None:
    source = write_tree(tmp_path / "in", {"d.txt": "Conf 2026\n\nWe introduce FOO, a method for tests.\n\n"
                                                   "We propose BAR, a benchmark for tests.\n"})
    generate([source], dataclasses.replace(settings, search="material"))
    assert not (settings.docs_path / RECORDS_FILE).exists()
    pagefind = dataclasses.replace(settings, search="pagefind")
    generate([source], pagefind)
    records = [json.loads(line) for line in (settings.docs_path / RECORDS_FILE).read_text("utf-8").splitlines()]
    assert sorted(r["url"] for r in records) == sorted(
        p["url"] for p in json.loads((settings.docs_path / "papers.json").read_text("utf-8"))
    )
    generate([source], dataclasses.replace(settings, search="material"))  # switching back removes them
    assert not (settings.docs_path / RECORDS_FILE).exists()


def test_records_split_into_parts_in_order_and_an_edit_changes_one_parts_hash(tmp_path) -> None:
    from generator.build.pagefind import parts_of, read_records

    def read_parts(path, size):
        return parts_of(read_records(path), size)

    lines = [json.dumps({"url": f"papers/p{n}/", "title": f"T{n}", "text": "x", "tags": []}) for n in range(25)]
    records = tmp_path / RECORDS_FILE
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    parts = read_parts(records, 10)
    assert [p.folder for p in parts] == ["pagefind", "pagefind-2", "pagefind-3"]
    assert [len(p.lines) for p in parts] == [10, 10, 5] and parts[2].lines[-1] == lines[-1]
    assert read_parts(records, 10) == parts  # the hashes are stable
    lines[12] = lines[12].replace("T12", "T12 edited")
    records.write_text("\n".join(lines) + "\n", encoding="utf-8")
    edited = read_parts(records, 10)
    assert [a.digest == b.digest for a, b in zip(parts, edited, strict=True)] == [True, False, True]
    records.write_text("", encoding="utf-8")
    assert [p.folder for p in read_parts(records, 10)] == ["pagefind"]  # always one part
    records.unlink()
    with pytest.raises(DigestError, match="generate again"):
        read_records(records)


def _records(n: int, edited: dict[int, str] | None = None) -> str:
    edited = edited or {}
    return "".join(
        json.dumps({"url": f"papers/p{i}/", "title": f"P{i}", "text": edited.get(i, f"text {i}"), "tags": []}) + "\n"
        for i in range(n)
    )


def _state(records: str, part_size: int, site) -> dict:
    """The state a build leaves after indexing `records` in full (result ids made up: r<line>)."""
    from generator.build.pagefind import index_state, parts_of, plan_index, record_key

    plan = plan_index(records, part_size, None, site)
    indexed = {}
    for part in plan.index:
        (site / part.folder).mkdir(exist_ok=True)
        indexed[part.folder] = {"digest": part.digest, "keys": [record_key(line) for line in part.lines],
                                "ids": [f"r{json.loads(line)['url']}" for line in part.lines]}
    assert [p.folder for p in parts_of(records, part_size)] == list(plan.folders)
    return index_state(plan, indexed, part_size)


def test_an_edit_plans_a_delta_part_of_the_edited_record_and_hides_its_old_result(tmp_path) -> None:
    from generator.build.pagefind import DELTA_FOLDER, plan_index

    state = _state(_records(25), 10, tmp_path)
    assert sorted(state["parts"]) == ["pagefind", "pagefind-2", "pagefind-3"]
    plan = plan_index(_records(25, {13: "edited"}), 10, state, tmp_path)
    assert plan.folders == ("pagefind", "pagefind-2", "pagefind-3", DELTA_FOLDER)
    assert [(p.folder, len(p.lines)) for p in plan.index] == [(DELTA_FOLDER, 1)]
    assert plan.hidden == ("rpapers/p13/",)
    # Papers added and removed: the new ones join the delta part, the gone ones are hidden.
    plan = plan_index(_records(28)[len(_records(1)):], 10, state, tmp_path)
    assert plan.delta is not None and [json.loads(line)["url"] for line in plan.delta.lines] == [
        "papers/p25/", "papers/p26/", "papers/p27/"
    ]
    assert plan.hidden == ("rpapers/p0/",)
    # Nothing changed: nothing to index, nothing hidden.
    assert plan_index(_records(25), 10, state, tmp_path) == dataclasses.replace(
        plan_index(_records(25), 10, state, tmp_path), index=(), delta=None, hidden=()
    )
    # Another part size, another indexer or a damaged state: the records are cut into parts again.
    for other, size in ((state, 5), ({**state, "made_by": "0 pagefind 0.1"}, 10), ({"parts": 3}, 10),
                        ({**state, "parts": {"pagefind-x": {}}}, 10)):
        plan = plan_index(_records(25, {13: "edited"}), size, other, tmp_path)
        assert plan.delta is None and plan.hidden == () and DELTA_FOLDER not in plan.folders


def test_past_the_delta_limit_only_the_parts_whose_records_changed_are_indexed(tmp_path, monkeypatch) -> None:
    import generator.build.pagefind as pagefind

    state = _state(_records(25), 10, tmp_path)
    monkeypatch.setattr(pagefind, "DELTA_MAX", 2)
    plan = pagefind.plan_index(_records(25, {21: "a", 22: "b", 23: "c"}), 10, state, tmp_path)
    assert plan.delta is None and plan.hidden == ()
    assert [p.folder for p in plan.index] == ["pagefind-3"] and sorted(plan.kept) == ["pagefind", "pagefind-2"]
    # A part whose folder is gone from the site is indexed again.
    (tmp_path / "pagefind-2").rmdir()
    plan = pagefind.plan_index(_records(25, {21: "a", 22: "b", 23: "c"}), 10, state, tmp_path)
    assert [p.folder for p in plan.index] == ["pagefind-2", "pagefind-3"]


def test_a_delta_page_says_it_is_one_so_its_result_never_has_a_base_results_id() -> None:
    record = {"url": "papers/x/", "title": "T", "text": "Body", "tags": []}
    assert record_page(record, delta=True) != record_page(record)
    assert 'data-pagefind-meta="part:delta"' in record_page(record, delta=True)
