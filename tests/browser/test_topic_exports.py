"""A large digest's topic exports, made in the browser from the digest's papers.bib and papers.csv (issue 43).

The site is the default corpus built with `topic_files_max_papers = 0`, as a digest larger than that
setting is: no tags/<slug>.bib file, each topic page's BibTeX and CSV links made by assets/exports.js;
and with `gzip_exports_min_mb = 0`, as a 100,000-paper digest's exports are: papers.bib.gz and
papers.csv.gz only. The entries must be those the files of a small digest hold (the session's default
site), byte for byte.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

import bibtexparser
import pytest

from generator.build import build_site
from generator.pipeline import generate
from generator.settings import load_settings
from tests.browser.conftest import serve, star_papers
from tests.conftest import DEFAULT_CORPUS, copy_project, write_tree

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def export_site(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("exports") / "project")
    write_tree(project, {"paper-digest.toml": "topic_files_max_papers = 0\ngzip_exports_min_mb = 0\n"})
    settings = load_settings(project)
    build_site(settings, generate([DEFAULT_CORPUS], settings).engine)
    server = serve(settings.site_path)
    yield settings.site_path, server
    server.stop()


def _unpacked(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def _largest_topic(site: Path) -> tuple[str, list[dict]]:
    return _largest_topic_of(json.loads(_unpacked(site / "papers.json.gz")))


def _largest_topic_of(papers: list[dict]) -> tuple[str, list[dict]]:
    counts: dict[str, int] = {}
    for paper in papers:
        for tag in paper["tags"]:
            counts[tag["slug"]] = counts.get(tag["slug"], 0) + 1
    slug = max(sorted(counts), key=lambda s: counts[s])
    return slug, [p for p in papers if any(t["slug"] == slug for t in p["tags"])]


def _entries(text: str) -> dict[str, str]:
    """Each BibTeX entry's text by its key."""
    chunks = ["@" + chunk for chunk in text.split("\n@")]
    chunks[0] = chunks[0][1:]
    return {chunk.split("{", 1)[1].split(",", 1)[0]: chunk.rstrip("\n") for chunk in chunks if chunk.strip()}


def _download(page, link) -> str:
    with page.expect_download() as info:
        link.click()
    return Path(info.value.path()).read_text(encoding="utf-8")


def test_a_topic_bibtex_export_downloads_parses_and_holds_the_entries_a_file_would(
    page, export_site, default_site
) -> None:
    site, server = export_site
    slug, members = _largest_topic(site)
    assert not (site / "tags" / f"{slug}.bib").exists()  # the topic's abstracts are not stored again
    page.goto(f"{server.url}tags/{slug}/")
    link = page.locator("a[data-pd-export=bib]")
    # Without JavaScript the link gives the whole digest's file, the one written.
    assert not (site / "papers.bib").exists()
    assert link.evaluate("a => new URL(a.href).pathname") == "/papers.bib.gz"
    text = _download(page, link)
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks and len(library.entries) == len(members) > 5
    assert all(entry["abstract"] for entry in library.entries)  # the abstracts are in the export
    # The same entries, byte for byte, as the small digest's own tags/<slug>.bib (same corpus and code).
    made = _entries(text)
    written = _entries((default_site.site_path / "tags" / f"{slug}.bib").read_text(encoding="utf-8"))
    assert made == written
    # In the digest's order, as papers.bib lists them.
    order = list(_entries(_unpacked(site / "papers.bib.gz")))
    assert list(made) == [key for key in order if key in made]
    assert page.watch.errors == [] and page.watch.outside == []


def test_a_topic_csv_export_holds_the_header_and_each_of_its_papers_rows(page, export_site) -> None:
    site, server = export_site
    slug, members = _largest_topic(site)
    page.goto(f"{server.url}tags/{slug}/")
    text = _download(page, page.locator("a[data-pd-export=csv]"))
    rows = list(csv.reader(io.StringIO(text)))
    whole = list(csv.reader(io.StringIO(_unpacked(site / "papers.csv.gz"))))
    assert rows[0] == whole[0]
    assert [row[0] for row in rows[1:]] == [p["id"] for p in members]
    assert all(row in whole for row in rows[1:])  # each row as papers.csv writes it, abstract and all
    assert page.watch.errors == [] and page.watch.outside == []


def test_a_digest_whose_exports_are_not_gzipped_makes_the_topic_export_from_papers_bib(page, tmp_path) -> None:
    # A digest over topic_files_max_papers whose files are below gzip_exports_min_mb (20,000 papers):
    # papers.bib as it is, no .gz to ask for.
    project = copy_project(tmp_path / "project")
    write_tree(project, {"paper-digest.toml": "topic_files_max_papers = 0\n"})
    settings = load_settings(project)
    build_site(settings, generate([DEFAULT_CORPUS], settings).engine)
    site = settings.site_path
    assert not list(site.glob("papers.*.gz"))
    slug, members = _largest_topic_of(json.loads((site / "papers.json").read_text(encoding="utf-8")))
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    server = serve(site)
    try:
        page.goto(f"{server.url}tags/{slug}/")
        link = page.locator("a[data-pd-export=bib]")
        assert link.evaluate("a => new URL(a.href).pathname") == "/papers.bib"
        text = _download(page, link)
    finally:
        server.stop()
    assert len(bibtexparser.parse_string(text).entries) == len(members)
    assert not [url for url in asked if url.endswith(".gz")]
    assert page.watch.errors == []


def test_the_starred_page_exports_its_papers_from_the_gzipped_papers_bib(page, export_site) -> None:
    site, server = export_site
    papers = json.loads(_unpacked(site / "papers.json.gz"))
    chosen = papers[2:5]
    star_papers(page, server.url, chosen)
    text = _download(page, page.get_by_role("button", name="Export BibTeX"))
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    assert sorted(e.fields_dict["title"].value.strip("{}") for e in library.entries) == sorted(
        p["title"] for p in chosen
    )
    assert page.watch.errors == [] and page.watch.outside == []
