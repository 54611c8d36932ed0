"""Exports in the shape real tools write them (Zotero biblatex, paper-list JSON, MiniConf papers.csv, a
folder beside other files): every entry with an abstract becomes one clean paper."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.read import read_sources
from generator.settings import Settings
from tests.conftest import write_tree
from tests.test_identity import A, B, C, D

# As Zotero's Better BibTeX writes biblatex: protected capitals, journaltitle and date, escaped URLs,
# a field given twice (Zotero notes), a key reused by a second entry, entries with no abstract.
ZOTERO = r"""
@article{zhang2021,
  title = {{RECcon}: Recognizing Emotion Causes in Conversations},
  author = {{Hehua Zhang} and M{\"u}ller, J{\"o}rg and Poria, Soujanya},
  date = {2021-05-03},
  journaltitle = {{EG}-{ICE} Proceedings},
  abstract = {ABSTRACT_A},
  keywords = {{BIM},Deep learning},
  url = {https://example.org/paper\_files/recon.pdf},
  annotation = {Read in May.},
  annotation = {Cited in chapter 2.}
}

@inproceedings{zhang2021,
  title = {Another Paper Reusing the Key},
  author = {Zhang, Hehua},
  eventtitle = {CVPR 2022},
  booktitle = {Proceedings of the {IEEE} Conference on Computer Vision},
  year = {2022},
  abstract = {ABSTRACT_B}
}

@book{nobody2020,
  title = {A Book With No Abstract},
  year = {2020}
}

@misc{nobody2021,
  title = {A Talk With No Abstract}
}
""".replace("ABSTRACT_A", A).replace("ABSTRACT_B", B)


def read(project: Path, files: dict[str, str | bytes]) -> tuple[list, list]:
    write_tree(project, files)
    result = read_sources([project / "data"], Settings(project_dir=project))
    return result.papers, result.problems


def test_a_zotero_biblatex_export_is_read_whole_and_clean(tmp_path: Path) -> None:
    papers, problems = read(tmp_path, {"data/library.bib": ZOTERO})
    assert len(papers) == 2
    first, second = papers
    assert first.title == "RECcon: Recognizing Emotion Causes in Conversations"
    assert first.authors == ("Hehua Zhang", "Jörg Müller", "Soujanya Poria")
    # A library of many venues is one collection (named from its file); each paper's journal is its venue.
    assert first.collection == "Library" and first.venue == "EG-ICE Proceedings 2021"
    assert first.year == "2021" and first.date == "2021-05-03"
    assert first.keywords == ("BIM", "Deep learning")
    assert first.source_url == "https://example.org/paper_files/recon.pdf"
    assert second.venue == "CVPR 2022" and second.title == "Another Paper Reusing the Key"
    said = [p.message for p in problems]
    assert any("field `annotation` given twice; the values were joined" in m for m in said)
    assert any("citation key `zhang2021` was used before" in m for m in said)
    assert sum(p.kind == "no-abstract" for p in problems) == 2
    for paper in papers:
        for text in (paper.title, paper.collection, *paper.authors, *paper.keywords, paper.abstract):
            assert "{" not in text and "}" not in text and "\\" not in text


def test_entries_without_an_abstract_are_one_summary_line_unless_verbose(tmp_path: Path) -> None:
    many = "\n".join(f"@book{{b{n}, title = {{Book {n}}}, year = {{2020}}}}" for n in range(40))
    project = write_tree(tmp_path, {"paper-digest.toml": "", "data/refs.bib": ZOTERO + many})
    quiet = CliRunner().invoke(main, ["check", "--project", str(project)], catch_exceptions=False)
    assert quiet.exit_code == 0, quiet.output
    assert "42 records without an abstract skipped (data/refs.bib); -v lists them" in quiet.output
    assert "Book 7" not in quiet.output and len(quiet.output.splitlines()) < 10
    loud = CliRunner().invoke(main, ["-v", "check", "--project", str(project)], catch_exceptions=False)
    assert loud.output.count("no abstract") >= 42


# As papercopilot/paperlists writes a conference: a list of records with track, status and tldr.
PAPERLIST = [
    {"id": "7007", "title": "Grace", "abstract": A, "track": "main", "status": "Poster", "site": "https://x.org/7007",
     "tldr": "Contrastive policy learning.", "primary_area": "reinforcement_learning", "author": "A. One; B. Two"},
    {"id": "7008", "title": "ReaPER", "abstract": B, "track": "Datasets and Benchmarks", "status": "Oral",
     "tldr": "", "author": "C. Three"},
]


def test_a_track_is_never_an_area_and_unknown_fields_are_kept(tmp_path: Path) -> None:
    from generator.read.records import RawRecord, iter_records

    papers, _ = read(tmp_path, {"data/nips2016.json": json.dumps(PAPERLIST)})
    assert [p.given_area for p in papers] == ["reinforcement_learning", ""]
    # The reader keeps every field of a record (the summaries take `tldr` from it).
    records = [r for r in iter_records("nips2016.json", "json", json.dumps(PAPERLIST)) if isinstance(r, RawRecord)]
    assert [r.fields["tldr"] for r in records] == ["Contrastive policy learning.", ""]
    # The collection comes from the file name when no venue or year is given ("nips2016": NIPS 2016).
    assert {p.collection for p in papers} == {"NIPS 2016"}


def test_the_collection_comes_from_venue_and_year_else_the_setting(tmp_path: Path) -> None:
    rows = [{**row, "venue": "NeurIPS", "year": 2016} for row in PAPERLIST]
    papers, _ = read(tmp_path, {"data/papers.json": json.dumps(rows)})
    assert {p.collection for p in papers} == {"NeurIPS 2016"}
    named = read_sources([tmp_path / "data"], Settings(project_dir=tmp_path, collection="My Reading List")).papers
    assert {p.collection for p in named} == {"My Reading List"}


# As MiniConf (the virtual conference sites) writes papers.csv.
MINICONF = (
    "UID,title,authors,abstract,keywords,sessions,pdf_url\n"
    f'1234,Grace,A. One|B. Two,"{A}",policy|contrastive,Session 1,https://x.org/1234.pdf\n'
    f'1235,Proteins,C. Three,"{C}",proteins,Session 2,https://x.org/1235.pdf\n'
)


def test_a_miniconf_papers_csv_gives_one_paper_per_row(tmp_path: Path) -> None:
    papers, problems = read(tmp_path, {"data/papers.csv": MINICONF})
    assert [p.title for p in papers] == ["Grace", "Proteins"]
    assert papers[0].authors == ("A. One", "B. Two") and papers[0].keywords == ("policy", "contrastive")
    assert papers[0].source_id == "1234" and not [p for p in problems if p.level != "info"]


def test_a_folder_reads_only_known_formats_and_names_the_others_in_one_line(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {
        "paper-digest.toml": "",
        "data/abstracts.txt": f"Test 2026\n\n{A}\n\n{D}\n",
        "data/README.md": "# Files were exported from Zotero and from the conference site\n",
        "data/LICENSE": "CC-BY 4.0",
        "data/.DS_Store": b"\x00\x01Bud1",
        "data/paper.pdf": b"%PDF-1.4",
        "data/notes.docx": b"PK\x03\x04",
    })
    result = CliRunner().invoke(main, ["generate", "--project", str(project)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Not read: 2 files of no known format (data/notes.docx, data/paper.pdf)" in result.output
    assert "2 from 1 files (2 other files not read)" in result.output
    assert "README" not in result.output and "DS_Store" not in result.output and "LICENSE" not in result.output
    titles = [row["title"] for row in json.loads((project / "site_src" / "papers.json").read_text())]
    assert not any("Exported" in title for title in titles)


def test_an_empty_file_is_named_in_the_error(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"paper-digest.toml": "", "data/a.txt": ""})
    for command in ("check", "generate"):
        result = CliRunner().invoke(main, [command, "--project", str(project)], catch_exceptions=False)
        assert result.exit_code == 1
        assert "no abstracts found in data/a.txt (the file is empty)" in result.output


def test_source_paths_outside_the_project_are_never_absolute(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "inputs", {"nips2016.json": json.dumps(PAPERLIST)})
    project = write_tree(tmp_path / "project", {"paper-digest.toml": ""})
    result = CliRunner().invoke(main, ["generate", str(outside / "nips2016.json"), "--project", str(project)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    for name in ("papers.json", "papers.csv", "papers.bib"):
        assert str(tmp_path) not in (project / "site_src" / name).read_text(encoding="utf-8")
    assert json.loads((project / "site_src" / "papers.json").read_text())[0]["source"]["file"] == "inputs/nips2016.json"


# As Papers 3 exports: one field a line, and a publisher with unbalanced braces.
BROKEN = r"""
@article{AGESCHEIDER:2009dk,
  title = {The Effects of Skin Temperature on {{Tactile}} Stimulation},
  author = {Gescheider, G A and THORPE, J M},
  year = 2009,
  publisher = {Taylor {{\&} Francis},
  abstract = {ABSTRACT_A},
  journal = {Somatosensory {{\&}} Motor Research},
  url = {https://example.org/a\_b}
}

@article{next2010,
  title = {Next},
  abstract = {ABSTRACT_B}
}
""".replace("ABSTRACT_A", A).replace("ABSTRACT_B", B)


def test_an_entry_with_unbalanced_braces_is_read_one_field_a_line_and_reported(tmp_path: Path) -> None:
    papers, problems = read(tmp_path, {"data/papers3.bibtex": BROKEN})
    assert [p.title for p in papers] == ["The Effects of Skin Temperature on Tactile Stimulation", "Next"]
    assert papers[0].venue == "Somatosensory & Motor Research 2009"
    assert papers[0].source_url == "https://example.org/a_b"
    assert [p.message for p in problems if p.level == "warning"] == [
        "entry 1 (AGESCHEIDER:2009dk): unbalanced braces; read one field a line (check its fields)"
    ]


def test_math_in_a_bibtex_title_becomes_text_and_stays_math_in_the_abstract() -> None:
    from generator.read.bibtex import bib_text

    assert bib_text("Exchange Effects in Cu$_{2}$O") == "Exchange Effects in Cu_2O"
    assert bib_text(r"We use $O(n^2)$ time and {BIM} with M{\"u}ller", keep_math=True) == (
        "We use $O(n^2)$ time and BIM with Müller"
    )


def test_a_bibtex_description_field_is_not_taken_for_an_abstract(tmp_path: Path) -> None:
    thesis = ('@PhdThesis{golden:thesis,\n  title = "Planning for softbots",\n  year = "1997",\n'
              '  description = "Vita.; Thesis (Ph. D.)--University of Washington, 1997.",\n}\n')
    papers, problems = read(tmp_path, {"data/refs.bib": thesis})
    assert papers == [] and [p.kind for p in problems] == ["no-abstract"]


# Zotero writes a DOI and often no URL (189 of 238 entries of a real biblatex export had a DOI, 155 a URL).
DOI_ONLY = r"""
@article{ai2019,
  title = {Recent Progress in Lab-on-a-Chip},
  doi = {10.1016/j.trac.2019.06.026},
  abstract = {ABSTRACT_A}
}

@article{both2020,
  title = {A Paper With Both},
  url = {https://example.org/both},
  doi = {10.1000/both},
  abstract = {ABSTRACT_B}
}

@article{odd2021,
  title = {A Paper With an Odd DOI},
  doi = {javascript:alert(1)},
  abstract = {ABSTRACT_C}
}
""".replace("ABSTRACT_A", A).replace("ABSTRACT_B", B).replace("ABSTRACT_C", C)


def test_a_doi_links_the_paper_when_its_entry_has_no_url(tmp_path: Path) -> None:
    papers, _ = read(tmp_path, {"data/library.bib": DOI_ONLY, "data/list.json": json.dumps(
        [{"title": "Listed", "abstract": D, "doi": "https://doi.org/10.5555/listed"}]
    )})
    links = {p.title: p.source_url for p in papers}
    assert links == {
        "Recent Progress in Lab-on-a-Chip": "https://doi.org/10.1016/j.trac.2019.06.026",
        "A Paper With Both": "https://example.org/both",
        "A Paper With an Odd DOI": "",
        "Listed": "https://doi.org/10.5555/listed",
    }


def test_a_bibliography_without_any_abstract_says_so_in_its_error(tmp_path: Path) -> None:
    # A real Mendeley export of 2,392 entries has no abstract at all: the error says why nothing was read.
    many = "\n".join(f"@book{{b{n}, title = {{Book {n}}}, year = {{2020}}}}" for n in range(40))
    project = write_tree(tmp_path, {"paper-digest.toml": "", "data/refs.bib": many})
    for command in ("check", "generate"):
        result = CliRunner().invoke(main, [command, "--project", str(project)], catch_exceptions=False)
        assert result.exit_code == 1
        assert "no abstracts found in data/refs.bib (40 records without an abstract)" in result.output, result.output
