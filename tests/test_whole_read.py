"""Every reader finds every record of a real export, or stops naming the file: arXiv responses however
wrapped, OAI-PMH harvests, MiniConf and OpenReview JSON, one abstract a line, text without case; a file
not read whole stops the build (or, with --skip-bad, is left out and counted); runaway abstracts stop it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import DigestError, SettingsError
from generator.read import read_sources
from generator.read.grouping import group
from generator.read.layout import has_case
from generator.settings import Settings, load_settings
from tests.conftest import FIXTURES, snapshot, write_tree

EXPORTS = FIXTURES / "exports"
GOOD = json.loads((EXPORTS / "papers_good.json").read_text(encoding="utf-8"))


def read(*names: str, **settings):
    return read_sources([EXPORTS / name for name in names], Settings(project_dir=EXPORTS, **settings))


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def errors(result) -> list:
    return [p for p in result.problems if p.level == "error"]


# arXiv


def test_an_arxiv_response_in_a_wrapper_with_the_namespace_on_its_first_entry_gives_every_entry() -> None:
    result = read("arxiv_wrapped.xml")
    assert len(result.papers) == 5 and not errors(result)
    first, last = result.papers[0], result.papers[-1]
    assert first.title == "RetGK: Graph Kernels based on Return Probabilities of Random Walks"
    assert first.authors == ("Ada Lovelace", "Alan Turing") and first.date == "2023-01-03"
    assert last.source_url == "http://arxiv.org/abs/2301.10005v1" and last.title_source == "given"


def test_all_548_entries_of_a_large_wrapped_response_are_found(tmp_path: Path) -> None:
    text = (EXPORTS / "arxiv_wrapped.xml").read_text(encoding="utf-8")
    head, rest = text.split("  <entry", 1)
    first = "  <entry" + rest.split("</entry>", 1)[0] + "</entry>\n"
    plain = first.replace(' xmlns="http://www.w3.org/2005/Atom"', "")
    entries = [first] + [plain.replace("</summary>", f" Variant {n}.</summary>") for n in range(1, 548)]
    write_tree(tmp_path, {"query.xml": head + "".join(entries) + "</arxiv_results>\n"})
    result = read_sources([tmp_path / "query.xml"], Settings(project_dir=tmp_path))
    assert len(result.papers) == 548 and not result.problems


def test_an_oai_pmh_harvest_of_arxiv_gives_each_record_in_each_metadata_format() -> None:
    arxiv = read("oai_arxiv.xml")
    # Two records; the third is deleted (a header, no metadata) and is no paper.
    assert len(arxiv.papers) == 2 and not arxiv.problems
    paper = arxiv.papers[0]
    assert paper.authors == ("Ada Lovelace", "Alan M. Turing") and paper.date == "2023-02-01"
    assert paper.source_url == "https://arxiv.org/abs/2302.20001" and paper.source_id == "2302.20001"
    assert paper.abstract.startswith("We outline a solution") and paper.title_source == "given"
    raw = read("oai_arxivraw.xml").papers
    assert [p.authors for p in raw] == [("Ada Lovelace", "Charles Babbage", "Alan Turing")]
    assert raw[0].date == "2023-03-01"
    dublin = read("oai_dc.xml").papers
    # Creators are "Last, First", one an element; the submitter's "Comment:" description is no abstract.
    assert [p.authors for p in dublin] == [("Ada Lovelace", "Alan Turing")]
    assert dublin[0].abstract.startswith("This paper proposes") and "Comment" not in dublin[0].abstract
    assert dublin[0].source_url == "http://arxiv.org/abs/2304.40001" and dublin[0].date == "2023-04-03"


def test_a_harvest_saved_without_its_format_element_is_read_as_dublin_core(tmp_path: Path) -> None:
    # As a harvesting script saves it: its own <ListRecords> root, the fields right under <metadata>.
    records = "".join(
        f"<record><header><identifier>oai:arXiv.org:hep-th/94060{n}</identifier></header><metadata>"
        f"<title>{p['title']}</title><description>  {p['abstract']}\n</description><date>1994-06-0{n + 1}</date>"
        "</metadata></record>" for n, p in enumerate(GOOD[:3]))
    write_tree(tmp_path, {"arXiv-meta-1994.xml": f'<?xml version="1.0" encoding="utf-8"?><ListRecords>{records}'
                          "</ListRecords>"})
    result = read_sources([tmp_path / "arXiv-meta-1994.xml"], Settings(project_dir=tmp_path))
    assert [p.title for p in result.papers] == [p["title"] for p in GOOD[:3]]
    assert result.papers[0].source_id == "oai:arXiv.org:hep-th/940600" and result.papers[2].date == "1994-06-03"


def test_xml_without_entries_says_what_was_looked_for(tmp_path: Path) -> None:
    write_tree(tmp_path, {"other.xml": "<rss><channel><item><title>x</title></item></channel></rss>"})
    result = read_sources([tmp_path / "other.xml"], Settings(project_dir=tmp_path))
    assert not result.papers
    assert any("Atom <entry>" in p.message and "OAI-PMH" in p.message for p in result.problems)


# JSON shapes


def test_a_miniconf_papers_json_keyed_by_paper_id_gives_every_paper() -> None:
    result = read("miniconf_papers.json")
    assert len(result.papers) == 3 and not errors(result)
    # The key is the id of a record that names none; a record's own id wins.
    assert [p.source_id for p in result.papers] == ["main.1000", "main.1001", "p2"]
    assert result.papers[0].authors == ("Ada Lovelace", "Alan Turing")
    assert result.papers[0].keywords == ("graphs", "kernels")


def test_an_openreview_v2_response_reads_the_nested_values() -> None:
    result = read("openreview_v2.json")
    assert len(result.papers) == 2 and not errors(result)
    paper = result.papers[0]
    assert paper.title == "Automated Synthesis of Mechanisms"
    assert paper.abstract.startswith("Mechanism Design aims") and paper.keywords == ("privacy", "queries")
    assert paper.authors == ("Ada Lovelace", "Alan Turing") and paper.source_id == "or0AbCdEf"


@pytest.mark.parametrize(("content", "shape"), [
    ({"p1": {"title": "One", "text": "x"}, "p2": {"title": "Two", "text": "y"}}, "keyed by id"),
    ({"papers": [{"title": "One", "body": "x"}], "count": 1}, "an object holding one list"),
    ([{"title": "One", "body": "x"}], "a list of records"),
])
def test_json_without_abstracts_names_the_shapes_tried_and_the_fields_found(tmp_path: Path, content, shape) -> None:
    write_tree(tmp_path, {"papers.json": json.dumps(content)})
    result = read_sources([tmp_path / "papers.json"], Settings(project_dir=tmp_path))
    hint = next(p.message for p in result.problems if p.level == "warning")
    assert shape in hint.split("(tried")[0] and "keyed by id" in hint and "content.abstract.value" in hint
    assert re.search(r"the first record's fields are: (id, )?title", hint)


# Text layouts


def test_one_abstract_a_line_gives_one_page_each() -> None:
    result = read("one_a_line.txt")
    lines = (EXPORTS / "one_a_line.txt").read_text(encoding="utf-8").splitlines()
    assert [p.abstract for p in result.papers] == [" ".join(line.split()) for line in lines[1:]]
    assert [p.source.line for p in result.papers] == list(range(2, 10))
    assert {p.collection for p in result.papers} == {"Workshop 2019"} and not result.problems


def test_lines_of_a_one_abstract_a_line_file_are_never_joined(tmp_path: Path) -> None:
    # A lowercase start, or the rare words of the line before, would join blank-line paragraphs; a line
    # of a one-abstract-a-line block is an abstract as its layout says.
    lines = [GOOD[0]["abstract"], GOOD[1]["abstract"][0].lower() + GOOD[1]["abstract"][1:],
             GOOD[2]["abstract"], GOOD[2]["abstract"].replace("We propose", "Here we extend")]
    write_tree(tmp_path, {"a.txt": "\n".join(lines), "b.txt": "\n\n".join(lines)})
    one_a_line = read_sources([tmp_path / "a.txt"], Settings(project_dir=tmp_path))
    assert [p.abstract for p in one_a_line.papers] == lines and not one_a_line.problems
    blank_lines = read_sources([tmp_path / "b.txt"], Settings(project_dir=tmp_path))
    assert any(p.kind == "joined" for p in blank_lines.problems)


def test_an_abstract_with_line_breaks_between_long_sentences_stays_one_abstract(tmp_path: Path) -> None:
    # Real abstracts break a block over up to 8 long lines: in a digest of blank-line separated abstracts
    # such a block is one abstract (one a line only where the file has no blank-line structure).
    sentences = GOOD[3]["abstract"].split(". ")
    broken = ".\n".join(" ".join([s] * 3) for s in sentences[:3])
    assert all(len(line) >= 200 for line in broken.split("\n"))
    write_tree(tmp_path, {"a.txt": f"Header 2020\n\n{GOOD[0]['abstract']}\n\n{broken}\n\n{GOOD[1]['abstract']}\n"})
    result = read_sources([tmp_path / "a.txt"], Settings(project_dir=tmp_path))
    assert len(result.papers) == 3 and result.papers[1].abstract == " ".join(broken.split())


def test_a_source_without_case_is_never_joined_on_a_lowercase_start() -> None:
    result = read("lowercase.txt")
    assert len(result.papers) == 8 and not [p for p in result.problems if p.kind == "joined"]
    texts = [p.abstract for p in result.papers]
    assert not has_case(texts) and has_case([t.capitalize() for t in texts])
    # The same paragraphs in a cased source: a lowercase start is a continuation there.
    groups, joins = group(texts)
    assert any(j.reason == "starts with a lowercase letter" for j in joins) and len(groups) < 8
    assert group(texts, cased=False)[0] == [[i] for i in range(8)]


def test_many_abstracts_on_one_line_stop_the_read_naming_file_and_line(tmp_path: Path) -> None:
    run_on = " ".join(f"{p['abstract']} Variant {n}." for n in range(3) for p in GOOD)
    write_tree(tmp_path, {"digest.txt": f"Workshop 2019\n\n{GOOD[0]['abstract']}\n\n{run_on}\n"})
    with pytest.raises(DigestError, match=r"digest\.txt:5: paragraph 2 is 90 sentences long, about 10 "
                       r"abstracts \(the 104,015 real abstracts measured have at most 4,650 characters"):
        read_sources([tmp_path / "digest.txt"], Settings(project_dir=tmp_path))
    # Twice as long again: past max_abstract_chars (20,000) too, said first.
    write_tree(tmp_path, {"long.txt": f"{run_on} {run_on}\n"})
    with pytest.raises(DigestError, match=r"long\.txt:1: paragraph 1 is 2\d,\d{3} characters long"):
        read_sources([tmp_path / "long.txt"], Settings(project_dir=tmp_path))
    left = read_sources([tmp_path / "digest.txt"], Settings(project_dir=tmp_path, skip_bad=True))
    assert [p.abstract for p in left.papers] == [GOOD[0]["abstract"]]
    assert [p.kind for p in left.problems] == ["too-long"]


# Runaway abstracts: max_abstract_chars


def test_a_runaway_abstract_stops_the_build_unless_the_setting_allows_it(tmp_path: Path) -> None:
    huge = " ".join([GOOD[0]["abstract"]] * 40)  # 27,039 characters: a whole paper's text
    write_tree(tmp_path, {"in/p.jsonl": "\n".join(json.dumps({"title": "T", "abstract": a}) for a in
                                                  (GOOD[1]["abstract"], huge))})
    result = run("check", str(tmp_path / "in"), "--project", str(tmp_path))
    assert result.exit_code == 1
    assert "in/p.jsonl:2: record 2: the abstract is 27,039 characters long, more than max_abstract_chars (20,000)" in result.output
    skipped = run("check", str(tmp_path / "in"), "--project", str(tmp_path), "--skip-bad")
    assert skipped.exit_code == 0 and "1 abstracts in 1 files" in skipped.output
    assert "Left out 1 runaway abstract (--skip-bad): about 1 abstract lost" in skipped.output
    write_tree(tmp_path, {"paper-digest.toml": "max_abstract_chars = 30_000\nmax_abstract_sentences = 400\n"})
    assert "2 abstracts in 1 files" in run("check", str(tmp_path / "in"), "--project", str(tmp_path)).output


@pytest.mark.parametrize(("value", "said"), [("10", "at least 1000"), ('"big"', "a whole number")])
def test_max_abstract_chars_is_checked_before_any_work(tmp_path: Path, value: str, said: str) -> None:
    write_tree(tmp_path, {"paper-digest.toml": f"max_abstract_chars = {value}\n"})
    with pytest.raises(SettingsError, match=f"max_abstract_chars.*{said}"):
        load_settings(tmp_path)


# Files not read whole


def test_a_cut_off_json_file_stops_naming_file_line_and_reason(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(EXPORTS / "papers_good.json", folder / "good.json")
    shutil.copy(EXPORTS / "papers_cut.json", folder / "cut.json")
    result = run("check", str(folder), "--project", str(tmp_path))
    assert result.exit_code == 1
    assert ("in/cut.json:29: not valid JSON: Unterminated string starting at column 17; the file ends in the middle "
            "of a record (cut off?); the file is not read (about 5 records)") in result.output
    assert "at at" not in result.output and "--skip-bad" in result.output
    skipped = run("check", str(folder), "--project", str(tmp_path), "--skip-bad")
    assert skipped.exit_code == 0 and "6 abstracts in 2 files" in skipped.output
    assert "Left out 1 file not read whole (--skip-bad): about 5 abstracts lost" in skipped.output
    strict = run("check", str(folder), "--project", str(tmp_path), "--skip-bad", "--strict")
    assert strict.exit_code == 1
    (folder / "good.json").unlink()
    alone = run("check", str(folder), "--project", str(tmp_path), "--skip-bad")
    assert alone.exit_code == 1 and "no abstracts found in in/cut.json (not valid JSON" in alone.output


def test_a_broken_csv_quote_stops_and_counts_every_record_of_the_file(tmp_path: Path) -> None:
    result = run("check", str(EXPORTS / "broken_quote.csv"), "--project", str(tmp_path))
    assert result.exit_code == 1
    assert "broken_quote.csv:4: broken CSV quoting in record 3" in result.output
    # Two records before the break, the broken one, three after it: the file's six records.
    assert "the file is not read (about 6 records)" in result.output
    write_tree(tmp_path, {"paper-digest.toml": "skip_bad = true\n", "other.jsonl": json.dumps(GOOD[0])})
    skipped = run("check", str(EXPORTS / "broken_quote.csv"), str(tmp_path / "other.jsonl"), "--project", str(tmp_path))
    assert skipped.exit_code == 0 and "about 6 abstracts lost" in skipped.output


def test_one_bad_record_inside_a_readable_file_is_still_skipped_and_reported(tmp_path: Path) -> None:
    lines = [json.dumps(GOOD[0]), '{"title": "cut", "abstract": "Unterminated', json.dumps(GOOD[1])]
    write_tree(tmp_path, {"p.jsonl": "\n".join(lines)})
    result = read_sources([tmp_path / "p.jsonl"], Settings(project_dir=tmp_path))
    assert len(result.papers) == 2
    assert [str(p) for p in errors(result)] == [
        "p.jsonl:2: record 2: not valid JSON: Unterminated string starting at column 30; the file ends in the "
        "middle of a record (cut off?)"]


@pytest.mark.slow
def test_a_cut_off_file_leaves_the_previous_site_and_skip_bad_publishes_without_it(project: Path) -> None:
    folder = project / "in"
    folder.mkdir()
    shutil.copy(EXPORTS / "papers_good.json", folder / "good.json")
    assert run("build", str(folder), "--project", str(project)).exit_code == 0
    site, docs = snapshot(project / "site"), snapshot(project / "site_src")
    shutil.copy(EXPORTS / "papers_cut.json", folder / "cut.json")
    failed = run("build", str(folder), "--project", str(project))
    assert failed.exit_code == 1 and "in/cut.json:29" in failed.output and "cut off" in failed.output
    assert snapshot(project / "site") == site and snapshot(project / "site_src") == docs
    published = run("build", str(folder), "--project", str(project), "--skip-bad")
    assert published.exit_code == 0, published.output
    assert "Left out 1 file not read whole (--skip-bad): about 5 abstracts lost" in published.output
    assert "6 from 2 files" in published.output
