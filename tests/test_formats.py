"""Structured digests: JSON Lines, JSON, CSV/TSV, BibTeX and arXiv Atom."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.enrich import enrich
from generator.errors import DigestError
from generator.read import read_sources
from generator.settings import Settings
from tests.conftest import ROOT, write_tree

A1 = "We introduce GRACE, a framework for contrastive policy optimization of text encoders."
A2 = "We propose ReaPER, a replay method for offline reinforcement learning agents."


def read(tmp_path: Path, files: dict[str, str | bytes], **settings):
    write_tree(tmp_path / "in", files)
    return read_sources([tmp_path / "in"], Settings(project_dir=tmp_path, **settings))


def record(**fields) -> str:
    return json.dumps(fields)


GOOD = {
    "papers.jsonl": "\n".join([
        record(id="p1", title="GRACE: Contrastive Policies", abstract=A1, authors=["Ada Lovelace", "Alan Turing"],
               keywords=["Embeddings", "RL"], venue="ICLR 2025", primary_area="reinforcement learning"),
        "",
        record(id="p2", title="ReaPER: Replay", abstract=A2, venue="ICLR", year=2025),
    ]),
    "papers.json": json.dumps({"notes": [{"forum": "f1", "content": {"title": {"value": "GRACE: Contrastive Policies"},
                                                                    "abstract": {"value": A1}}}]}),
    "papers.csv": 'UID,title,authors,abstract,keywords\nu1,GRACE: Contrastive Policies,"Ada Lovelace|Alan Turing",'
                  f'"{A1}","embeddings|rl"\nu2,"ReaPER: Replay, with a comma","Grace Hopper","{A2}",\n',
    "papers.tsv": f"uid\ttitle\tabstract\nu1\tGRACE: Contrastive Policies\t{A1}\n",
    "refs.bib": "@inproceedings{grace2025,\n  title = {{GRACE}: Contrastive Policies},\n"
                "  author = {Lovelace, Ada and Turing, Alan},\n"
                f"  abstract = {{{A1}}},\n  booktitle = {{ICLR}},\n  year = {{2025}},\n  keywords = {{rl; embeddings}}\n}}\n",
    "feed.xml": '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">'
                "<entry><id>http://arxiv.org/abs/2501.00001v1</id><published>2025-01-01T00:00:00Z</published>"
                f"<title>GRACE: Contrastive\n Policies</title><summary>{A1}</summary>"
                "<author><name>Ada Lovelace</name></author><author><name>Alan Turing</name></author>"
                '<link href="http://arxiv.org/abs/2501.00001v1" rel="alternate" type="text/html"/>'
                '<arxiv:primary_category term="cs.LG"/><category term="cs.LG"/><category term="cs.AI"/></entry></feed>',
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_each_format_reads_titles_authors_and_abstracts(tmp_path: Path, name: str) -> None:
    result = read(tmp_path, {name: GOOD[name]})
    assert not [p for p in result.problems if p.level == "error"], result.problems
    first = result.papers[0]
    assert first.abstract == A1
    assert first.title == "GRACE: Contrastive Policies" and first.title_source == "given"


def test_given_fields_are_kept(tmp_path: Path) -> None:
    papers = {name: read(tmp_path / name, {name: GOOD[name]}).papers[0] for name in GOOD}
    assert papers["papers.jsonl"].authors == ("Ada Lovelace", "Alan Turing")
    assert papers["papers.jsonl"].keywords == ("Embeddings", "RL")
    assert papers["papers.jsonl"].given_area == "reinforcement learning"
    assert papers["papers.jsonl"].collection == "ICLR 2025"
    assert papers["refs.bib"].authors == ("Ada Lovelace", "Alan Turing")
    assert papers["refs.bib"].collection == "ICLR 2025"
    assert papers["feed.xml"].authors == ("Ada Lovelace", "Alan Turing")
    assert papers["feed.xml"].source_url == "http://arxiv.org/abs/2501.00001v1" and papers["feed.xml"].year == "2025"


def test_duplicates_across_formats_become_one_paper(tmp_path: Path) -> None:
    result = read(tmp_path, GOOD)
    assert len(result.papers) == 2
    merged = [p for p in result.problems if p.level == "info"]
    assert len(merged) == 6  # eight records, two abstracts


@pytest.mark.parametrize(
    ("fields", "attribute", "expected"),
    [
        ({"summary": A1}, "abstract", A1),
        ({"Abstract": A1}, "abstract", A1),
        ({"content": {"abstract": {"value": A1}}}, "abstract", A1),
        ({"abstract": A1, "Title": "T"}, "title", "T"),
        ({"abstract": A1, "content": {"title": {"value": "T"}}}, "title", "T"),
        ({"abstract": A1, "author": "Lovelace, Ada and Turing, Alan"}, "authors", ("Ada Lovelace", "Alan Turing")),
        ({"abstract": A1, "authors": "Ada Lovelace; Alan Turing"}, "authors", ("Ada Lovelace", "Alan Turing")),
        ({"abstract": A1, "authors": [{"name": "Ada Lovelace"}]}, "authors", ("Ada Lovelace",)),
        ({"abstract": A1, "tags": "rl, embeddings"}, "keywords", ("rl", "embeddings")),
        ({"abstract": A1, "UID": "x1"}, "source_id", "x1"),
        ({"abstract": A1, "forum": "f1"}, "source_id", "f1"),
        ({"abstract": A1, "pdf": "https://x.org/a.pdf"}, "source_url", "https://x.org/a.pdf"),
        ({"abstract": A1, "venue": "NeurIPS", "year": "2024"}, "collection", "NeurIPS 2024"),
        ({"abstract": A1, "Primary_Area": "optimization"}, "given_area", "optimization"),
    ],
)
def test_field_aliases(tmp_path: Path, fields: dict, attribute: str, expected) -> None:
    result = read(tmp_path, {"one.jsonl": json.dumps(fields)})
    assert getattr(result.papers[0], attribute) == expected


@pytest.mark.parametrize(
    ("name", "content", "line", "message"),
    [
        ("bad.jsonl", f"{record(abstract=A1)}\n{{not json\n", 2, "not valid JSON"),
        ("bad.jsonl", f"{record(abstract=A1)}\n[1, 2]\n", 2, "expected a JSON object"),
        ("bad.jsonl", f"{record(abstract=A1)}\n{record(title='no abstract')}\n", 2, "no abstract"),
        ("bad.jsonl", f"{record(abstract=A1)}\n{record(abstract=['a', 'list'])}\n", 2, "should be text"),
        ("bad.jsonl", f"{record(abstract=A1)}\n{record(abstract=A2, authors=7)}\n", 2, "`authors` should be"),
        ("bad.csv", f'title,abstract\nT,"{A1}"\nU,"{A2}",extra\n', 3, "more fields than the header"),
        ("bad.bib", f"@misc{{ok, abstract = {{{A1}}}}}\n@misc{{broken,\n  title = {{Oops\n@misc{{b, abstract={{{A1}}}}}\n", 2, "does not parse"),
        ("bad.bib", f"@misc{{ok, abstract = {{{A1}}}}}\n@misc{{noabs, title = {{Only a title}}}}\n", 2, "no abstract"),
        ("bad.json", f'[{record(abstract=A1)}, "text"]', None, "record 2: expected an object"),
    ],
)
def test_bad_records_are_reported_with_file_and_line_and_skipped(tmp_path, name, content, line, message) -> None:
    result = read(tmp_path, {name: content})
    assert [p.abstract for p in result.papers] == [A1]
    errors = [p for p in result.problems if p.level == "error"]
    assert len(errors) == 1, errors
    assert errors[0].file == f"in/{name}" and errors[0].line == line and message in errors[0].message


def test_invalid_xml_stops_the_read_naming_its_line(tmp_path: Path) -> None:
    with pytest.raises(DigestError, match=r"in/feed\.xml:3: not valid XML: mismatched tag"):
        read(tmp_path, {"feed.xml": "<feed>\n<entry>\n</feed>", "ok.txt": A1})


def test_format_override_reads_a_file_whatever_its_ending(tmp_path: Path) -> None:
    write_tree(tmp_path, {"export.dat": record(abstract=A1, title="T")})
    result = read_sources([tmp_path / "export.dat"], Settings(project_dir=tmp_path, input_format="jsonl"))
    assert result.papers[0].title == "T"


def test_a_mixed_folder_reads_every_format(tmp_path: Path) -> None:
    files = {
        "a.txt": f"Workshop 2026 Papers\n\n{A2}",
        "b.jsonl": record(abstract="We study bandits with regret bounds for online learning.", venue="COLT 2025"),
        "c.csv": 'title,abstract\n"Diffusion","We train diffusion models for image generation."\n',
    }
    result = read(tmp_path, files)
    assert sorted(p.collection for p in result.papers) == ["C", "COLT 2025", "Workshop 2026"]


def test_given_keywords_become_tags_and_given_titles_are_kept(tmp_path: Path) -> None:
    lines = [
        record(title=f"Paper {n}", abstract=f"{A1} Variant {n} about offline reinforcement learning, with a "
               "contrastive learning objective.", keywords=["Contrastive Learning", "Offline RL"])
        for n in range(3)
    ]
    result = read(tmp_path, {"k.jsonl": "\n".join(lines)})
    papers = enrich(result.papers, Settings(project_dir=tmp_path))
    for paper in papers:
        assert paper.title.startswith("Paper ") and paper.title_source == "given"
        topics = {t.name: t for t in paper.tags if t.kind == "topic"}
        assert "Offline RL" in topics and any("keyword: Offline RL" in e for e in topics["Offline RL"].evidence)
        # A keyword that is a vocabulary phrase joins that topic (the abstract bears it out).
        assert any("keyword: Contrastive Learning" in e for t in topics.values() for e in t.evidence)


def test_strict_makes_a_bad_record_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"in/bad.jsonl": f"{record(abstract=A1)}\n{{oops\n"})
    runner = CliRunner()
    lenient = runner.invoke(main, ["check", str(tmp_path / "in"), "--project", str(tmp_path)])
    # As `build` does on the same input: the bad record is skipped and reported, the rest builds.
    assert lenient.exit_code == 0 and "Skipped 1 bad record:" in lenient.output and "bad.jsonl:2" in lenient.output
    strict = runner.invoke(main, ["check", str(tmp_path / "in"), "--project", str(tmp_path), "--strict"])
    assert strict.exit_code == 1 and "strict mode" in strict.output
    from generator.pipeline import generate

    with pytest.raises(DigestError, match=r"bad\.jsonl:2"):
        generate([tmp_path / "in"], Settings(project_dir=tmp_path, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize(("corpus", "records"), [("iclr2024.jsonl", 7401), ("iclr2025.jsonl", 11661)])
def test_the_shared_corpora_read_as_they_are(corpus: str, records: int) -> None:
    path = ROOT.parent / "shared" / "corpora" / corpus
    if not path.exists():
        pytest.skip("the shared corpora are not beside this checkout")
    result = read_sources([path], Settings(project_dir=ROOT))
    merged = [p for p in result.problems if p.level == "info"]
    assert len(result.papers) + len(merged) == records
    assert not [p for p in result.problems if p.level == "error"]
    assert all(p.title_source == "given" and p.title for p in result.papers)


def test_a_streamed_file_with_a_bad_byte_names_its_line_and_offset(tmp_path: Path) -> None:
    good = record(abstract=A1).encode()
    write_tree(tmp_path, {"in/bad.jsonl": good + b"\n" + good + b"\n" + b'{"abstract": "caf\xe9"}\n'})
    with pytest.raises(DigestError, match=rf"bad.jsonl:3: not valid UTF-8 at byte offset {2 * len(good) + 2 + 17}"):
        read_sources([tmp_path / "in"], Settings(project_dir=tmp_path))


def test_every_format_has_a_reader_and_a_cli_choice() -> None:
    # (tests/test_docs.py checks that the README and the formats guide name each format and ending.)
    from generator.cli import main
    from generator.formats import BY_NAME, FORMATS, INPUT_FORMATS
    from generator.read.records import READERS

    assert set(READERS) == {f.name for f in FORMATS if f.structured}
    choices = next(p for p in main.commands["build"].params if p.name == "input_format").type.choices
    assert tuple(choices) == INPUT_FORMATS == ("auto", *BY_NAME)
