"""Pagefind's input: the search records the generator writes and the pages the build indexes."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
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
    from generator.build.pagefind import read_parts

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


def test_a_parts_fragments_are_packed_into_bundles_each_fragment_whole_and_the_same_every_time(tmp_path) -> None:
    # Issue 43: Pagefind writes a fragment file per paper; 100,000 papers would be 100,000 files.
    from generator.build.fragments import BUCKETS, bucket_of, bundle_fragments, unbundle

    def part(where):
        fragments = where / "fragment"
        fragments.mkdir(parents=True)
        written = {}
        for n in range(3000):
            name = f"en_{hashlib.sha256(str(n).encode()).hexdigest()[:7]}"
            written[name] = gzip.compress(f'pagefind_dcd{{"url":"/papers/p{n}/"}}'.encode(), mtime=0)
            (fragments / f"{name}.pf_fragment").write_bytes(written[name])
        (fragments / "odd-name.txt").write_bytes(b"kept")
        return fragments, written

    fragments, written = part(tmp_path / "a")
    bundles = bundle_fragments(tmp_path / "a")
    assert bundles == len(list(fragments.glob("*.pf_bundle"))) <= BUCKETS
    assert not list(fragments.glob("*.pf_fragment"))
    assert (fragments / "odd-name.txt").read_bytes() == b"kept"  # not of Pagefind's shape: left alone
    found = {}
    for path in fragments.glob("*.pf_bundle"):
        for name, content in unbundle(path.read_bytes()).items():
            assert path.name == f"{bucket_of(name + '.pf_fragment')}.pf_bundle"
            found[name] = content
    assert found == written
    again, _ = part(tmp_path / "b")
    bundle_fragments(tmp_path / "b")
    assert {p.name: p.read_bytes() for p in again.iterdir()} == {p.name: p.read_bytes() for p in fragments.iterdir()}


def _index_twice(tmp_path, records: str) -> list[dict[str, bytes]]:
    """Index the same search records in two Pagefind runs, each installed as a build installs it; return each site's files."""
    from generator.build.pagefind import index_part, install_parts, parts_of

    sites = []
    for run in ("a", "b"):
        parts = parts_of(records, part_size=10_000)
        index_part(parts[0], tmp_path / run / "indexed" / parts[0].folder)
        (tmp_path / run / "site").mkdir()
        install_parts(tmp_path / run / "indexed", tmp_path / run / "site", parts)
        site = tmp_path / run / "site"
        sites.append({str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()})
    return sites


def test_the_same_records_give_the_same_index_files_though_pagefind_orders_filters_at_random(tmp_path) -> None:
    # Pagefind writes a filter's values in hash-map order, different each run (Pagefind/pagefind#638): the
    # filter file, the meta naming it and the entry naming the meta changed between two builds of one digest.
    import cbor2

    papers = [
        make_paper(f"We study problem {n}.", title=f"Paper {n}", slug=f"paper-{n}", plain=f"We study problem {n}.",
                   tags=(Tag(f"Topic {n % 37}", f"topic-{n % 37}", "topic"), Tag(f"Area {n % 5}", f"area-{n % 5}", "area")))
        for n in range(120)
    ]
    first, second = _index_twice(tmp_path, search_records(papers))
    assert first == second
    (filter_name,) = [name for name in first if name.endswith(".pf_filter")]
    item = cbor2.loads(gzip.decompress(first[filter_name]).removeprefix(b"pagefind_dcd"))
    values = [value for value, _pages in item[1]]
    assert item[0] == "tag" and values == sorted(values) and len(values) == 37 + 5
    assert {len(pages) for value, pages in item[1] if value.startswith("Area")} == {24}  # every page kept
    entry = json.loads(first["pagefind/pagefind-entry.json"])
    meta = gzip.decompress(first[f"pagefind/pagefind.{entry['languages']['en']['hash']}.pf_meta"])
    assert filter_name.removeprefix("pagefind/filter/").removesuffix(".pf_filter").encode() in meta
