"""Exports: BibTeX per paper, per tag and for the digest; papers.csv. They parse."""

from __future__ import annotations

import csv
import io
import json
import logging

import bibtexparser
import pytest

from generator.enrich.tags import tag_slug
from generator.render.exports import bibtex_entry, bibtex_text, code_fence
from tests.conftest import make_paper

pytestmark = pytest.mark.slow
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


def parse(text: str):
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks, [b.raw[:200] for b in library.failed_blocks]
    return library


def test_the_digest_bib_has_one_entry_per_paper_with_its_fields(default_site) -> None:
    site = default_site.site_path
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    library = parse((site / "papers.bib").read_text(encoding="utf-8"))
    assert len(library.entries) == len(records) == 57
    by_title = {e.fields_dict["title"].value.strip("{}"): e for e in library.entries}
    for record in records:
        entry = by_title[record["title"]]
        assert entry.entry_type == "misc"
        assert entry.fields_dict["howpublished"].value == "ICLR 2026"
        assert entry.fields_dict["year"].value == "2026"
        assert record["tags"][0]["name"].replace("&", r"\&") in entry.fields_dict["keywords"].value
        assert "inferred" in entry.fields_dict["note"].value
        assert entry.fields_dict["abstract"].value


def test_each_tag_has_a_bib_file_of_its_papers(default_site) -> None:
    site = default_site.site_path
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    sizes: dict[str, int] = {}
    for record in records:
        # A parent topic's file holds its sub-topics' papers too.
        for slug in {tag["slug"] for tag in record["tags"]} | {tag_slug(t["parent"]) for t in record["tags"] if t["parent"]}:
            sizes[slug] = sizes.get(slug, 0) + 1
    for slug, size in sizes.items():
        assert len(parse((site / "tags" / f"{slug}.bib").read_text(encoding="utf-8")).entries) == size


def test_papers_csv_has_a_row_per_paper(default_site) -> None:
    site = default_site.site_path
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    rows = list(csv.DictReader(io.StringIO((site / "papers.csv").read_text(encoding="utf-8"))))
    assert [row["title"] for row in rows] == [r["title"] for r in records]
    assert all(row["areas"] and row["abstract"] for row in rows)


def test_hostile_abstracts_still_give_parseable_bibtex(hostile_site) -> None:
    settings, _, records = hostile_site
    library = parse((settings.site_path / "papers.bib").read_text(encoding="utf-8"))
    assert len(library.entries) == len(records)


def test_bibtex_escaping_keeps_braces_balanced_and_specials_literal() -> None:
    text = r"50% {of} a_b & c#d $x$ ~y ^z \cmd } {"
    escaped = bibtex_text(text)
    assert escaped.count("{") - escaped.count(r"\{") == escaped.count("}") - escaped.count(r"\}")
    entry = bibtex_entry(make_paper(f"We introduce FOO. {text}", title=text, title_source="given"))
    assert len(parse(entry).entries) == 1


def test_the_code_fence_is_longer_than_any_backtick_run() -> None:
    assert code_fence("plain") == "```"
    assert code_fence("has ```` four") == "`````"


def test_a_small_digest_writes_no_gzipped_exports(default_site) -> None:
    # Below topic_files_max_papers the topic's own .bib files are written and nothing unpacks a .gz.
    site = default_site.site_path
    for name in ("papers.json", "papers.csv", "papers.bib"):
        assert (site / name).is_file()
        assert not (site / f"{name}.gz").exists()


def test_gzipped_exports_have_no_time_and_no_name_and_unpack_to_the_file() -> None:
    import gzip

    from generator.render.digest_exports import gzip_bytes

    data = ("@misc{a,\n  title = {A},\n}\n" * 200).encode()
    packed = gzip_bytes(data)
    assert gzip.decompress(packed) == data
    # Flags 0 (no file name, no comment), time 0, OS unknown: the same bytes on any day and OS.
    assert packed[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    assert len(packed) < len(data) / 2


def test_a_large_digest_writes_the_exports_past_the_size_setting_gzipped_only(tmp_path) -> None:
    # A digest too large for topic files (topic_files_max_papers = 0): an export of gzip_exports_min_mb
    # or more is written as .gz and not as it is (a 100,000-paper digest's: GitHub refuses a file over
    # 100 MiB), a smaller one as it is; the pages link to the file written (issue 43).
    import gzip

    from generator.pipeline import generate
    from generator.settings import load_settings
    from tests.conftest import DEFAULT_CORPUS, copy_project, write_tree

    project = copy_project(tmp_path / "project")
    names = ("papers.json", "papers.csv", "papers.bib")
    written = {}
    plain = {}
    for limit in ("100.0", "0.15", "0"):
        write_tree(project, {"paper-digest.toml": f"topic_files_max_papers = 0\ngzip_exports_min_mb = {limit}\n"})
        settings = load_settings(project)
        generate([DEFAULT_CORPUS], settings)
        docs = settings.docs_path
        written[limit] = {p.name for p in docs.glob("papers.*") if p.name.startswith(names)}
        if limit == "100.0":
            plain = {name: (docs / name).read_bytes() for name in names}
        home = (docs / "index.md").read_text(encoding="utf-8")
        tag_page = (docs / "tags" / "generative-models.md").read_text(encoding="utf-8")
        about = (docs / "about.md").read_text(encoding="utf-8")
        for name in names:
            shown = next(n for n in written[limit] if n.startswith(name))
            # Each page links to the file written, and never to the one that is not.
            assert f"]({shown})" in home
            assert (f"]({shown})" in about) == (name == "papers.json")
            if name != "papers.json":
                assert f"{shown}){{ data-pd-export=" in tag_page
            if shown.endswith(".gz"):
                # The same bytes as the file as it is, gzipped.
                assert gzip.decompress((docs / shown).read_bytes()) == plain[name]
                assert f"]({name})" not in home and f"{name}){{" not in tag_page
    sizes = {name: len(data) for name, data in plain.items()}
    assert written["100.0"] == set(names)  # the default: the 57 papers' files are far below 100 MB
    assert written["0.15"] == {f"{n}.gz" if size >= 150_000 else n for n, size in sizes.items()}
    assert written["0.15"] & set(names) and written["0.15"] - set(names)  # one of each form
    assert written["0"] == {f"{name}.gz" for name in names}


def test_a_digest_with_gzipped_exports_only_keeps_its_addresses_and_diffs(tmp_path) -> None:
    # Without a lock file, a run adopts the addresses its last run published: from papers.json.gz
    # when that is what it wrote. `paper-digest diff` reads the .gz of a docs dir too.
    from generator.diff import load_papers
    from generator.identity import LOCK_FILE
    from generator.pipeline import generate
    from generator.settings import load_settings
    from tests.conftest import DEFAULT_CORPUS, copy_project, write_tree

    project = copy_project(tmp_path / "project")
    write_tree(project, {"paper-digest.toml": "topic_files_max_papers = 0\ngzip_exports_min_mb = 0\n"})
    settings = load_settings(project)
    generate([DEFAULT_CORPUS], settings)
    docs = settings.docs_path
    assert not (docs / "papers.json").exists() and (docs / "papers.json.gz").is_file()
    rows = load_papers(docs)
    assert len(rows) == 57 and load_papers(docs / "papers.json.gz") == rows
    # Forget the lock, and say the last run published the first paper under another id (as a digest
    # published before lock files): the next run takes every paper's id from papers.json.gz.
    import gzip
    import json

    settings.resolve(LOCK_FILE).unlink()
    moved = dict(rows[0], id="0123456789ab")
    (docs / "papers.json.gz").write_bytes(gzip.compress(json.dumps([moved, *rows[1:]]).encode("utf-8")))
    generate([DEFAULT_CORPUS], settings)
    after = [row["id"] for row in load_papers(docs)]
    assert after == [moved["id"]] + [row["id"] for row in rows[1:]]
