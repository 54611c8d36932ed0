"""Clean metadata from real exports (issue 42): BibTeX persons, papers.bib round trips, LaTeX in every
shown field, keywords that are subjects (not workflow tags or codes), collections and the site's name."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import bibtexparser
import pytest

from generator.enrich.keywords import subject_keywords
from generator.model import Tag
from generator.read import read_sources
from generator.read.metadata import name_from_stem, subject_of
from generator.render.naming import digest_name
from generator.settings import Settings, load_settings
from generator.text import to_plain
from tests.conftest import write_tree

# Abstracts of unrelated subjects, for libraries whose workflow tags span them.
ABSTRACTS = [
    "We study the spectral gap of random regular graphs and show that it concentrates around its mean with "
    "exponential tails, using a new comparison between the adjacency matrix and a Gaussian ensemble.",
    "We present a recommender system for online book retail that models each reader's purchase history with "
    "a sequence model and improves sales in a six-month field trial with two million customers.",
    "Alpine glaciers have retreated over the last century. We measure the retreat of forty glaciers from aerial "
    "photographs taken since 1920 and relate it to summer temperature records of nearby stations.",
    "We train convolutional networks for image classification and show that a simple data augmentation, random "
    "erasing of patches, improves accuracy on ImageNet and on three fine-grained benchmarks.",
    "Protein structure prediction has advanced quickly. We introduce a diffusion model over backbone frames that "
    "designs binders for a given target, and validate ten of its designs in the wet lab.",
    "We prove lower bounds for the communication complexity of approximate set disjointness in the multi-party "
    "number-on-forehead model, closing a gap left open by earlier work on the problem.",
]

# As Zotero's Better BibTeX writes biblatex: journaltitle, date, workflow tags and codes in `keywords`.
ZOTERO_BBT = r"""
@article{akyarFractional2019,
  title = {Fractional Programming for {Erd{\H{o}}s}--{R}{\'e}nyi Graphs},
  author = {Akyar, Handan},
  date = {2019-03-01},
  journaltitle = {Journal of Applied Graphs},
  volume = {12},
  number = {3},
  pages = {101--120},
  doi = {10.1000/jag.2019.12},
  abstract = {A0 It holds for 50\% of graphs, i.e.\ graphs of the {\H o}ld model with x{\textasciicircum}2 edges.},
  keywords = {Viewed, Unreviewed, 60B20 15B52 46Txx, random graphs}
}

@inproceedings{nobleSelling2020,
  title = {Selling Books Online},
  author = {{Barnes and Noble} and Smith, John and others},
  booktitle = {Proceedings of the Conference on Retail},
  date = {2020},
  pages = {1--10},
  abstract = {A1},
  keywords = {To read, _tablet, Viewed}
}

@article{fontaineAlps2021,
  title = {Alps},
  author = {de la Fontaine, Jr., Jean and Erd{\H o}s, Paul},
  journaltitle = {Mountains},
  date = {2021},
  abstract = {A2 Data: \href(https://example.org/a_b)(https://example.org/a_b).},
  keywords = {Viewed, Unreviewed}
}
""".replace("A0", ABSTRACTS[0]).replace("A1", ABSTRACTS[1]).replace("A2", ABSTRACTS[2])

# As arXiv's "Export BibTeX citation" writes an entry, and Zotero's arXiv subjects as keywords.
ARXIV_BIB = r"""
@misc{lee2021deep,
  title = {Deep Vision},
  author = {Ann Lee and Bo Chen},
  year = {2021},
  eprint = {2101.00001},
  archivePrefix = {arXiv},
  primaryClass = {cs.CV},
  keywords = {Computer Science - Computer Vision and Pattern Recognition, Computer Science - Machine Learning,
              cs.LG, physics.hist-ph},
  abstract = {A3}
}
""".replace("A3", ABSTRACTS[3])


def project_with(tmp_path: Path, files: dict[str, str]) -> Path:
    return write_tree(tmp_path / "p", {"paper-digest.toml": "", **files})


def read(project: Path):
    result = read_sources([project / "data"], Settings(project_dir=project))
    return result.papers, result.problems


def generate(project: Path) -> dict[str, str]:
    from generator.pipeline import generate as run

    run([], load_settings(project))
    docs = project / "site_src"
    return {name: (docs / name).read_text(encoding="utf-8") for name in ("papers.json", "papers.csv", "papers.bib")}


def test_bibtex_persons_are_split_as_bibtex_defines_them(tmp_path: Path) -> None:
    papers, _ = read(project_with(tmp_path, {"data/library.bib": ZOTERO_BBT}))
    by_title = {p.title: p for p in papers}
    # `Last, First` alone is one person, not two ("Akyar" and "Handan").
    assert by_title["Fractional Programming for Erdős–Rényi Graphs"].authors == ("Handan Akyar",)
    assert by_title["Selling Books Online"].authors == ("Barnes and Noble", "John Smith", "et al.")
    assert by_title["Alps"].authors == ("Jean de la Fontaine Jr.", "Paul Erdős")
    # A company whose name has a comma stays one person, its name as written.
    company = "@misc{c, title = {C}, author = {{Google, Inc.} and Doe, Jane}, abstract = {A4}}\n".replace(
        "A4", ABSTRACTS[4])
    papers, _ = read(project_with(tmp_path / "c", {"data/c.bib": company}))
    assert papers[0].authors == ("Google, Inc.", "Jane Doe")


def test_papers_json_csv_and_bib_name_the_same_persons_and_bib_keeps_the_citation(tmp_path: Path) -> None:
    files = generate(project_with(tmp_path, {"data/library.bib": ZOTERO_BBT}))
    rows = {row["title"]: row for row in json.loads(files["papers.json"])}
    table = {row["title"]: row for row in csv.DictReader(io.StringIO(files["papers.csv"]))}
    entries = {e["title"].strip("{}"): e for e in bibtexparser.parse_string(files["papers.bib"]).entries}
    assert set(rows) == set(table) == set(entries) and len(rows) == 3
    graphs = "Fractional Programming for Erdős–Rényi Graphs"
    assert rows[graphs]["authors"] == ["Handan Akyar"] and table[graphs]["authors"] == "Handan Akyar"
    # Read back as BibTeX, the entry keeps its type, persons and citation fields.
    entry = entries[graphs]
    assert entry.entry_type == "article"
    assert entry["author"] == "Akyar, Handan"
    assert (entry["journal"], entry["volume"], entry["number"], entry["pages"], entry["doi"]) == (
        "Journal of Applied Graphs", "12", "3", "101--120", "10.1000/jag.2019.12")
    assert rows[graphs]["doi"] == "10.1000/jag.2019.12" and rows[graphs]["venue"] == "Journal of Applied Graphs 2019"
    books = entries["Selling Books Online"]
    assert books.entry_type == "inproceedings" and books["booktitle"] == "Proceedings of the Conference on Retail"
    assert books["author"] == "{Barnes and Noble} and Smith, John and others"
    assert rows["Selling Books Online"]["authors"] == ["Barnes and Noble", "John Smith", "et al."]
    assert table["Selling Books Online"]["authors"] == "Barnes and Noble; John Smith; et al."
    assert entries["Alps"]["author"] == "de la Fontaine, Jr., Jean and Erdős, Paul"
    # The feed names persons only: no author called "et al.".
    feed = (tmp_path / "p" / "site_src" / "feed.xml").read_text(encoding="utf-8")
    assert "<name>Barnes and Noble</name>" in feed and "<name>et al.</name>" not in feed


@pytest.mark.parametrize(("latex", "text"), [
    (r"{\H o}", "ő"),
    (r"Erd{\H{o}}s-R{\'e}nyi", "Erdős-Rényi"),
    (r"Erd\H{o}s", "Erdős"),
    (r"i.e.\ graphs", "i.e. graphs"),
    (r"x{\textasciicircum}2", "x^2"),
    (r"x\textasciicircum{}2", "x^2"),
    (r"50\% of them", "50% of them"),
    (r"Cram\'{e}r and na\"ive", "Cramér and naïve"),
    (r"\v{C}ech and \c{c}a", "Čech and ça"),
])
def test_latex_in_a_field_of_any_source_becomes_text(latex: str, text: str) -> None:
    assert to_plain(latex) == text


def test_latex_in_bibtex_title_abstract_and_names_becomes_text(tmp_path: Path) -> None:
    files = generate(project_with(tmp_path, {"data/library.bib": ZOTERO_BBT}))
    row = next(r for r in json.loads(files["papers.json"]) if r["authors"] == ["Handan Akyar"])
    assert row["title"] == "Fractional Programming for Erdős–Rényi Graphs"
    assert "50% of graphs, i.e. graphs of the őld model with x^2 edges" in row["abstract"]
    page = (tmp_path / "p" / "site_src" / row["url"].rstrip("/")).with_suffix(".md").read_text(encoding="utf-8")
    shown = page.split("## Cite")[0]  # the BibTeX below escapes its specials, as BibTeX must
    assert "őld model" in shown
    for leak in ("\\H", "{ő}", "ˆ", "i.e.\\ ", "\\%"):
        assert leak not in shown


def test_an_href_abstract_never_kills_the_build_and_a_failed_conversion_is_reported(tmp_path: Path) -> None:
    # `\href(url)(url)` made pylatexenc raise IndexError, and the whole build died with a traceback.
    files = generate(project_with(tmp_path, {"data/library.bib": ZOTERO_BBT}))
    alps = next(r for r in json.loads(files["papers.json"]) if r["title"] == "Alps")
    assert alps["abstract"].endswith("Data: https://example.org/a_b.")
    # LaTeX pylatexenc cannot read at all: the field is kept as written and the entry named.
    broken = "@article{k, title = {T}, abstract = {A4 See \\href(https://x.org/a b now.}}\n".replace(
        "A4", ABSTRACTS[4])
    papers, problems = read(project_with(tmp_path / "b", {"data/b.bib": broken}))
    assert len(papers) == 1 and papers[0].abstract.startswith(ABSTRACTS[4])
    assert any("entry 1 (k): field `abstract`" in p.message and "kept as written" in p.message for p in problems)


def test_workflow_tags_codes_and_arxiv_subjects_are_never_topics(tmp_path: Path) -> None:
    files = generate(project_with(tmp_path, {"data/library.bib": ZOTERO_BBT, "data/arxiv.bib": ARXIV_BIB}))
    rows = json.loads(files["papers.json"])
    topics = {t["name"] for r in rows for t in r["tags"]}
    shown = {k for r in rows for k in r["keywords"]}
    for tag in ("Viewed", "Unreviewed", "To read", "_tablet", "60B20 15B52 46Txx", "Physics.hist-Ph", "cs.LG",
                "Computer Science - Computer Vision and Pattern Recognition"):
        assert tag not in topics and tag.lower() not in {t.lower() for t in topics}
        assert tag not in shown or tag == "60B20 15B52 46Txx"
    vision = next(r for r in rows if r["title"] == "Deep Vision")
    arxiv = next(e for e in bibtexparser.parse_string(files["papers.bib"]).entries if e["title"] == "{Deep Vision}")
    assert (arxiv.entry_type, arxiv["eprint"], arxiv["archiveprefix"], arxiv["primaryclass"]) == (
        "misc", "2101.00001", "arXiv", "cs.CV")
    # arXiv subjects and codes show by their names, as metadata; the primary class is the given area.
    assert vision["subjects"] == ["Computer Vision and Pattern Recognition", "Machine Learning",
                                  "History and Philosophy of Physics"]
    assert vision["given_area"] == "Computer Vision and Pattern Recognition"
    graphs = next(r for r in rows if r["authors"] == ["Handan Akyar"])
    assert graphs["subjects"] == ["60B20 15B52 46Txx"] and graphs["keywords"] == ["random graphs"]
    page = (tmp_path / "p" / "site_src" / vision["url"].rstrip("/")).with_suffix(".md").read_text(encoding="utf-8")
    assert "Subjects: Computer Vision and Pattern Recognition, Machine Learning" in page


@pytest.mark.parametrize(("keyword", "kind"), [
    ("Viewed", "workflow"), ("Unreviewed", "workflow"), ("To read", "workflow"), ("_tablet", "workflow"),
    ("_tablet_modified", "workflow"), ("red", "workflow"), ("★★★", "workflow"), ("5 stars", "workflow"),
    ("60B20", "code"), ("46Txx", "code"), ("60B20 15B52 46Txx", "code"), ("MSC 60B20", "code"),
    ("Primary 60B20; Secondary 15B52", "code"), ("I.2.6", "code"), ("F.2.2, I.2.7", "code"), ("cs.XY", "code"),
    ("physics.hist-ph", "subject"), ("cs.CV", "subject"), ("hep-th", "subject"),
    ("Mathematics - Probability", "subject"), ("Statistics - Machine Learning", "subject"),
    ("random graphs", "topic"), ("GPT-4", "topic"), ("3D", "topic"), ("COVID-19", "topic"), ("Node.js", "topic"),
])
def test_what_a_keyword_is(keyword: str, kind: str) -> None:
    assert subject_of(keyword)[0] == kind


def test_a_zotero_arxiv_subject_cut_at_its_commas_is_one_subject() -> None:
    from generator.read.metadata import split_keywords

    # A BibTeX keyword list is cut at commas; Zotero drops some commas of a name and keeps others.
    keywords = ("Computer Science - Distributed", "Parallel", "and Cluster Computing",
                "Physics - Data Analysis Statistics and Probability", "Echo state network", "publication")
    assert split_keywords(keywords) == (
        ("Echo state network",),
        ("Distributed, Parallel, and Cluster Computing", "Data Analysis, Statistics and Probability"),
    )


@pytest.mark.parametrize(("area", "name"), [
    ("cs.CV", "Computer Vision and Pattern Recognition"), ("cs", "Computer Science"),
    ("cs, stat", "Computer Science, Statistics"), ("generative models", "generative models"),
])
def test_an_arxiv_primary_class_is_given_by_name(area: str, name: str) -> None:
    # Zotero writes `primaryclass = {cs}` (the archive only), arXiv's own export `primaryClass = {cs.CV}`.
    from generator.read.metadata import area_name

    assert area_name(area) == name


def _tag(name: str) -> Tag:
    return Tag(name, name.lower().replace(" ", "-"), "topic", 0.9, (f"keyword: {name}",))


def test_a_keyword_topic_needs_three_papers_and_a_subject_by_measurement() -> None:
    from generator.enrich.vectors import vectorize

    plains = [*ABSTRACTS, ABSTRACTS[0].replace("random regular graphs", "random graphs of high girth"),
              ABSTRACTS[0].replace("spectral gap", "second eigenvalue")]
    # "Chapter Two" (a reader's own tag no word list knows) spans six unrelated papers that never say it.
    # "Random graphs" is said by three abstracts; "Recommender" by one paper only: no topic either.
    candidates = [[_tag("Chapter Two")] for _ in range(6)] + [[], []]
    for index in (0, 6, 7):
        candidates[index].append(_tag("Random Graphs"))
    candidates[1].append(_tag("Recommender"))
    vectors = vectorize(plains)
    assert vectors is not None
    kept = subject_keywords(candidates, plains, vectors.matrix, set(), 3)
    names = [{tag.name for tag in tags} for tags in kept]
    assert names[0] == names[6] == names[7] == {"Random Graphs"}
    assert all("Chapter Two" not in found and "Recommender" not in found for found in names)


def test_a_one_paper_keyword_is_never_a_topic(tmp_path: Path) -> None:
    records = [{"title": f"T{i}", "abstract": text, "keywords": ["Glacier retreat"] if i == 2 else []}
               for i, text in enumerate(ABSTRACTS)]
    files = generate(project_with(tmp_path, {"data/a.json": json.dumps(records)}))
    rows = json.loads(files["papers.json"])
    assert not any(t["name"] == "Glacier Retreat" or t["name"] == "Glacier retreat" for r in rows for t in r["tags"])


@pytest.mark.parametrize(("stem", "name"), [
    ("acl2020_papers", "ACL 2020"), ("nips2016", "NIPS 2016"), ("CogSci_2019_abstracts", "CogSci 2019"),
    ("iclr2024_workshop", "ICLR 2024 Workshop"), ("di-proposal_arxiv", "Di-proposal (arXiv)"),
    ("my_library", "My library"), ("zotero", "Zotero library"), ("zotero_export", "Zotero library"),
])
def test_a_collection_is_named_from_a_file_as_a_reader_names_it(stem: str, name: str) -> None:
    assert name_from_stem(stem) == name


def test_the_site_is_named_acl_2020_from_acl2020_papers_csv(tmp_path: Path) -> None:
    rows = "\n".join(f'"{i}","T{i}","{text}"' for i, text in enumerate(ABSTRACTS[:3]))
    project = project_with(tmp_path, {"data/acl2020_papers.csv": "UID,title,abstract\n" + rows + "\n"})
    generate(project)
    from generator.project import engine_config, read_config

    assert read_config(engine_config(load_settings(project)))["site_name"] == "ACL 2020"


def test_a_personal_library_is_one_collection_its_journals_venues(tmp_path: Path) -> None:
    entries = "\n".join(
        f"@article{{k{i}, title = {{T{i}}}, author = {{Doe, Jane}}, journal = {{Journal {i}}}, year = {{2020}},"
        f" abstract = {{{text}}}}}" for i, text in enumerate(ABSTRACTS)
    )
    project = project_with(tmp_path, {"data/My Library.bib": entries})
    papers, _ = read(project)
    assert {p.collection for p in papers} == {"My Library"}
    assert sorted(p.venue for p in papers) == [f"Journal {i} 2020" for i in range(6)]
    files = generate(project)
    from generator.project import engine_config, read_config

    assert read_config(engine_config(load_settings(project)))["site_name"] == "My Library"
    assert all(r["collection"] == "My Library" for r in json.loads(files["papers.json"]))


def test_a_list_of_a_few_venues_has_a_collection_per_venue(tmp_path: Path) -> None:
    lines = [json.dumps({"abstract": f"{text} Variant {n}.", "venue": venue, "year": 2024})
             for n in range(20) for text, venue in ((ABSTRACTS[0], "COLT"), (ABSTRACTS[1], "KDD"))]
    papers, _ = read(project_with(tmp_path, {"data/venues.jsonl": "\n".join(lines) + "\n"}))
    assert {p.collection for p in papers} == {"COLT 2024", "KDD 2024"}


def test_the_default_site_name_is_never_a_count() -> None:
    journals = [f"Journal of Something Rather Long Number {n} 2020" for n in range(252)]
    assert "collections" not in digest_name(journals) and len(digest_name(journals)) < 60


def test_a_track_named_as_a_keyword_is_no_topic() -> None:
    from generator.enrich.keywords import keyword_tags
    from generator.enrich.tags import load_topics

    topics = load_topics()
    assert keyword_tags(("Journal Track", "Special Track on AI for Good"), topics) == []
    assert [t.name for t in keyword_tags(("Motion and Tracking",), topics)] == ["Motion and Tracking"]
