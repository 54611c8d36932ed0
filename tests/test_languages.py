"""Abstracts not written in English: detected, titled in their own script, marked with their language.

The abstracts in fixtures/languages/abstracts.jsonl were written for these tests (Chinese, German,
French, Spanish and Japanese, four each, in the shape of real machine learning abstracts).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.enrich.native import is_dense, native_text
from generator.errors import SettingsError
from generator.languages import MATERIAL_LANGUAGES, detect_language, dominant_language
from generator.pipeline import generate
from generator.project import ENGINE_CONFIG
from generator.settings import load_settings
from tests.conftest import FIXTURES, render_digest, write_tree

ABSTRACTS = [json.loads(line) for line in (FIXTURES / "languages" / "abstracts.jsonl").read_text("utf-8").splitlines()]
ENGLISH = [
    "Graph neural networks struggle to propagate information over long distances. We propose a rewiring method "
    "that adds edges along the spectral gap of the graph and improves accuracy on long-range benchmarks.",
    "We study the sample complexity of offline reinforcement learning with function approximation. Our analysis "
    "shows that a pessimistic value estimate suffices when the data covers a single good policy.",
    "Vision transformers are expensive at high resolution. We introduce a token merging scheme that halves the "
    "compute of ViT-B on ImageNet with no loss of accuracy and no retraining.",
]
#: A clause or sentence ends at one of these, in any of the languages of the fixture.
BOUNDARY = "。！？；，、：.!?;,:"


def abstract_of(lang: str, index: int = 0) -> str:
    return [row["abstract"] for row in ABSTRACTS if row["lang"] == lang][index]


def text_digest(name: str, abstracts: list[str]) -> str:
    return f"{name}\n\n" + "\n\n".join(abstracts) + "\n"


def page_of(files: dict[str, bytes], paper: dict) -> str:
    return files[paper["url"].rstrip("/") + ".md"].decode("utf-8")


@pytest.mark.parametrize("row", ABSTRACTS, ids=lambda row: f"{row['lang']}-{row['abstract'][:8]}")
def test_the_language_of_each_abstract_is_found_from_the_whole_or_its_first_words(row: dict) -> None:
    assert detect_language(row["abstract"]) == row["lang"]
    assert detect_language(row["abstract"][:40]) == row["lang"]


def test_english_abstracts_are_english_and_too_little_text_is_not_judged() -> None:
    assert [detect_language(text) for text in ENGLISH] == ["en"] * len(ENGLISH)
    # A few letters say nothing of a language: such an abstract stays on the English path.
    assert detect_language("GSM8K: 4.2%") == "en"


@pytest.mark.parametrize("fragment", [
    'Case 04 <iframe src="javascript:alert(1)"></iframe> framed javascript',
    "Case 10 [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) is a link",
    r"LaTeX url \url{javascript:alert(1)} and \href{javascript:alert(2)}{label}",
    "Supercalifragilistic" * 50,
])
def test_markup_and_code_fragments_are_no_other_language(fragment: str) -> None:
    # The detector names some language for anything; one that explains a fragment barely better than
    # English does ("la", "et", "zxx") is not taken.
    assert detect_language(fragment) == "en"


def test_english_abstracts_never_load_the_model_and_other_languages_always_reach_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from generator import languages

    def no_model() -> None:
        raise AssertionError("the model was asked")

    monkeypatch.setattr(languages, "_load", no_model)
    # The default digest is English: it pays microseconds an abstract, and never the model's load.
    assert [detect_language(text) for text in ENGLISH] == ["en"] * len(ENGLISH)
    for row in ABSTRACTS:
        with pytest.raises(AssertionError, match="model was asked"):
            detect_language(row["abstract"])


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], list[dict]]:
    """A text digest of the twenty abstracts in five languages and three English ones, rendered."""
    from tests.conftest import copy_project

    project = copy_project(tmp_path_factory.mktemp("languages") / "project")
    source = write_tree(project, {"in/mixed.txt": text_digest(
        "Mixed Papers 2025", [row["abstract"] for row in ABSTRACTS] + ENGLISH
    )}) / "in" / "mixed.txt"
    files = render_digest(project, [source])
    return files, json.loads(files["papers.json"])


def test_every_paper_of_a_mixed_digest_is_marked_with_its_language_in_papers_json(mixed) -> None:
    _files, papers = mixed
    assert [paper["lang"] for paper in papers] == [row["lang"] for row in ABSTRACTS] + ["en"] * len(ENGLISH)


def test_a_non_english_title_is_short_cut_from_its_own_text_at_a_boundary(mixed) -> None:
    _files, papers = mixed
    for paper in papers[: len(ABSTRACTS)]:
        title, abstract = paper["title"], paper["abstract"]
        limit = 110 * 2 // 7 if is_dense(abstract) else 110
        assert 0 < len(title) <= limit, title
        # Its own words, in its own script and case: no "Wir Stellen Ein Neues Verfahren … Vor".
        words = title.removesuffix("…")
        found = abstract.find(words) if abstract.find(words) >= 0 else abstract.find(words[0].lower() + words[1:])
        assert found >= 0, title
        if not title.endswith("…"):
            assert abstract[found + len(words)] in BOUNDARY, title
        if is_dense(abstract):
            assert is_dense(title), title


@pytest.mark.parametrize(("lang", "title"), [
    # The sentence stating the contribution, cut at its first comma: not the whole two-sentence abstract.
    ("zh", "本文提出了一种基于过程监督的强化学习方法"),
    # A whole sentence that fits, its nouns capitalised and nothing else.
    ("de", "Wir stellen ein neues Verfahren zur robusten Schätzung von Kausaleffekten aus Beobachtungsdaten vor"),
    # The lead-in "本研究では、" dropped.
    ("ja", "注意機構の計算量を線形に削減する新しい手法を提案する"),
    ("es", "Proponemos un algoritmo de agregación adaptativo y demostramos su convergencia bajo supuestos no convexos"),
    # The clause before the contribution's ("En nous appuyant sur la théorie des marges, ") dropped.
    ("fr", "Nous établissons une borne de généralisation qui dépend de la constante de Lipschitz du réseau"),
    # Chinese and Japanese start at the clause that proposes: a Japanese clause ends on its verb.
    ("zh", "我们提出一种知识蒸馏与结构化剪枝相结合的方法"),
    ("ja", "残差接続と正規化を組み合わせた新しいアーキテクチャを提案する"),
    ("ja", "学習データの記憶の度合いを定量化する指標を提案する"),
])
def test_titles_read_as_their_abstracts_write(mixed, lang: str, title: str) -> None:
    _files, papers = mixed
    assert title in [paper["title"] for paper in papers if paper["lang"] == lang]


def test_a_non_english_summary_is_a_sentence_of_its_own_within_the_limit(mixed) -> None:
    _files, papers = mixed
    for paper in papers[: len(ABSTRACTS)]:
        summary, abstract = paper["summary"], paper["abstract"]
        assert len(summary) <= (220 * 2 // 7 if is_dense(abstract) else 220), summary
        assert summary.removesuffix("…") in abstract, summary


def test_no_topic_or_area_is_inferred_for_a_non_english_abstract(mixed) -> None:
    _files, papers = mixed
    for paper in papers[: len(ABSTRACTS)]:
        assert paper["tags"] == [], (paper["title"], paper["tags"])
    # The English ones are tagged as ever.
    assert all(paper["tags"] for paper in papers[len(ABSTRACTS):])


def test_a_non_english_page_marks_its_title_and_abstract_with_the_language(mixed) -> None:
    files, papers = mixed
    for paper in papers:
        page = page_of(files, paper)
        if paper["lang"] == "en":
            assert "lang=" not in page
            continue
        heading = next(line for line in page.splitlines() if line.startswith("# "))
        assert heading.endswith(f' {{ lang="{paper["lang"]}" }}'), heading
        # The abstract sits in a block Python-Markdown parses as Markdown (md_in_html).
        opening = f'<div lang="{paper["lang"]}" markdown>\n\n'
        start = page.index(opening) + len(opening)
        assert page.index("\n\n</div>", start) > start


def test_listings_mark_a_non_english_title_and_summary_with_the_language(mixed) -> None:
    files, papers = mixed
    listing = files["all.md"].decode("utf-8")
    for paper in papers:
        link = f'href="../{paper["url"]}"' if f'href="../{paper["url"]}"' in listing else f'href="{paper["url"]}"'
        entry = listing[listing.index(link) :].split("</li>", 1)[0]
        if paper["lang"] == "en":
            assert "lang=" not in entry
        else:
            assert entry.count(f'lang="{paper["lang"]}"') == 2, entry


def test_english_papers_of_a_mixed_digest_are_titled_summarised_and_tagged_as_alone(
    mixed, tmp_path: Path
) -> None:
    from tests.conftest import copy_project

    _files, papers = mixed
    project = copy_project(tmp_path / "project")
    source = write_tree(project, {"in/en.txt": text_digest("Mixed Papers 2025", ENGLISH)}) / "in" / "en.txt"
    alone = json.loads(render_digest(project, [source])["papers.json"])
    fields = ("title", "title_source", "title_confidence", "summary", "tags", "slug", "lang")
    assert [{k: p[k] for k in fields} for p in papers[len(ABSTRACTS):]] == [{k: p[k] for k in fields} for p in alone]


def test_source_keywords_still_tag_a_non_english_abstract_and_its_given_area_is_shown(project: Path) -> None:
    record = {"abstract": abstract_of("zh", 2), "keywords": ["Federated Learning", "Optimization"],
              "area": "optimization", "venue": "测试会议 2025"}
    other = {"abstract": abstract_of("zh", 1), "keywords": ["Federated Learning"], "venue": "测试会议 2025"}
    source = write_tree(project, {"in/zh.jsonl": json.dumps(record, ensure_ascii=False) + "\n"
                                  + json.dumps(other, ensure_ascii=False) + "\n"}) / "in" / "zh.jsonl"
    files = render_digest(project, [source], min_topic_papers=1)
    paper = json.loads(files["papers.json"])[0]
    assert paper["lang"] == "zh"
    assert [tag["kind"] for tag in paper["tags"]] == ["topic"] * len(paper["tags"])
    assert "Federated Learning" in [tag["name"] for tag in paper["tags"]]
    assert "Area given by the source: optimization" in page_of(files, paper)


def test_a_first_clause_is_kept_when_no_contribution_follows_it() -> None:
    # Without the words of a contribution after it, a short first clause is the sentence's subject.
    text = "Transformer sind mächtig, benötigen aber viel Speicher für lange Kontexte. Das ist teuer."
    assert native_text(text, "de", 110, 220).title == (
        "Transformer sind mächtig, benötigen aber viel Speicher für lange Kontexte"
    )


def test_native_titles_never_run_past_a_runaway_sentence() -> None:
    # No sentence end in 5,000 characters: a title and summary are still cut, between two characters.
    text = "模型" * 2500
    cut = native_text(text, "zh", 110, 220)
    assert cut.title == "模型" * 15 + "…" and len(cut.summary) <= 62
    # A cut inside Chinese text never splits a Latin word or a number.
    assert native_text("我们" * 14 + "GSM8K基准测试" * 3, "zh", 110, 220).title == "我们" * 14 + "…"


def test_the_interface_follows_a_chinese_digest_and_the_setting_overrides_it(project: Path) -> None:
    source = write_tree(project, {"in/zh.txt": text_digest(
        "测试论文 2025", [row["abstract"] for row in ABSTRACTS if row["lang"] == "zh"]
    )}) / "in" / "zh.txt"
    generate([source], load_settings(project))
    assert "  language: zh\n" in (project / ENGINE_CONFIG).read_text("utf-8")
    (project / "paper-digest.toml").write_text('site_language = "ja"\n', encoding="utf-8")
    generate([source], load_settings(project))
    assert "  language: ja\n" in (project / ENGINE_CONFIG).read_text("utf-8")


def test_an_english_digest_leaves_the_interface_language_alone(project: Path) -> None:
    source = write_tree(project, {"in/en.txt": text_digest("Test 2025", [*ENGLISH, abstract_of("zh")])}) / "in" / "en.txt"
    generate([source], load_settings(project))
    assert "language:" not in (project / ENGINE_CONFIG).read_text("utf-8")


def test_a_language_material_does_not_speak_is_rejected_before_anything_is_read(project: Path) -> None:
    with pytest.raises(SettingsError, match="site_language"):
        load_settings(project, site_language="klingon")
    write_tree(project, {"paper-digest.toml": 'site_language = "xx"\n', "in/en.txt": text_digest("T 2025", ENGLISH)})
    result = CliRunner().invoke(main, ["build", "--project", str(project), str(project / "in" / "en.txt")])
    assert result.exit_code != 0
    assert "site_language" in result.output and "paper-digest.toml" in result.output
    assert not (project / "site_src" / "papers").exists()


def test_a_digest_in_many_languages_none_over_half_is_read_in_english() -> None:
    assert dominant_language(["zh", "zh", "de"]) == "zh"
    assert dominant_language(["zh", "de", "fr", "en"]) == "en"
    assert dominant_language(["zh", "zh", "en", "en"]) == "en"
    assert dominant_language([]) == "en"


def test_the_languages_material_speaks_are_those_of_the_installed_theme() -> None:
    material = pytest.importorskip("material")
    folder = Path(material.__file__).parent / "templates" / "partials" / "languages"
    assert sorted(MATERIAL_LANGUAGES) == sorted(p.stem for p in folder.glob("*.html"))


def test_the_title_stays_inert_with_its_language_mark(mixed) -> None:
    files, papers = mixed
    for paper in papers:
        heading = next(line for line in page_of(files, paper).splitlines() if line.startswith("# "))
        # One attribute list at most, at the end, written by the template.
        assert len(re.findall(r"\{ lang=", heading)) == (paper["lang"] != "en")


def test_hostile_text_in_a_non_english_abstract_stays_inside_its_language_block(project: Path) -> None:
    hostile = ("本文提出了一种新的攻击方法 </div> <script>alert(1)</script> { lang=\"en\" }，用于测试页面的安全性。"
               "我们在三个数据集上进行了实验，结果表明该方法能够有效地绕过现有的防御机制，并且不会被检测到。")
    source = write_tree(project, {"in/zh.txt": text_digest("测试 2025", [hostile])}) / "in" / "zh.txt"
    files = render_digest(project, [source])
    paper = json.loads(files["papers.json"])[0]
    page = page_of(files, paper)
    assert paper["lang"] == "zh"
    assert "<script>" not in page and page.count("</div>") == 1
    heading = next(line for line in page.splitlines() if line.startswith("# "))
    assert heading.count("{ lang=") == 1 and heading.endswith('{ lang="zh" }')


ARABIC = ("تعاني نماذج اللغة الكبيرة من صعوبة في فهم النصوص الطويلة. في هذا البحث، نقترح طريقة جديدة لضغط السياق "
          "تعتمد على التلخيص التدريجي، مما يسمح للنموذج بمعالجة وثائق أطول بعشر مرات دون فقدان ملحوظ في الدقة. "
          "تظهر التجارب على ثلاثة معايير أن طريقتنا تتفوق على الأساليب الحالية.")


def test_a_right_to_left_abstract_is_marked_so_and_cut_at_its_own_comma(project: Path) -> None:
    source = write_tree(project, {"in/ar.txt": text_digest("Test 2025", [ARABIC])}) / "in" / "ar.txt"
    files = render_digest(project, [source])
    paper = json.loads(files["papers.json"])[0]
    page = page_of(files, paper)
    assert paper["lang"] == "ar"
    # The sentence that proposes ("نقترح"), its lead-in "في هذا البحث، " dropped, cut at the Arabic comma.
    assert paper["title"] == "نقترح طريقة جديدة لضغط السياق تعتمد على التلخيص التدريجي"
    assert '{ lang="ar" dir="rtl" }' in page and '<div lang="ar" dir="rtl" markdown>' in page


def test_the_run_summary_counts_the_papers_of_each_language_when_some_are_not_english(project: Path) -> None:
    write_tree(project, {
        "in/mixed.txt": text_digest("Test 2025", [*ENGLISH, abstract_of("zh"), abstract_of("de")]),
        "in2/en.txt": text_digest("Test 2025", ENGLISH),
    })
    mixed = CliRunner().invoke(main, ["generate", "--project", str(project), str(project / "in" / "mixed.txt")])
    assert mixed.exit_code == 0, mixed.output
    assert "en 3, de 1, zh 1 (not English: 2" in " ".join(mixed.output.split())
    # `build` (here reusing the run above: its stamp keeps the languages) lets the papers go before the
    # site engine runs (issue 43): its summary says the same.
    built = CliRunner().invoke(main, ["build", "--project", str(project), str(project / "in" / "mixed.txt")])
    assert built.exit_code == 0, built.output
    rows = [line.split() for line in built.output.splitlines()]
    assert "en 3, de 1, zh 1 (not English: 2" in " ".join(built.output.split())
    assert [row[:5] for row in rows if row[:1] == ["Papers"]] == [["Papers", "5", "from", "1", "files"]]
    tags = [row for row in [line.split() for line in mixed.output.splitlines()] if row[:1] == ["Tags"]]
    assert tags and [row for row in rows if row[:1] == ["Tags"]] == tags
    english = CliRunner().invoke(main, ["generate", "--project", str(project), str(project / "in2" / "en.txt")])
    assert english.exit_code == 0, english.output
    assert "Languages" not in english.output


def test_a_feed_entry_in_another_language_says_so(mixed) -> None:
    import xml.etree.ElementTree as ET

    files, papers = mixed
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.fromstring(files["feed.xml"])
    langs = {entry.find(f"{atom}id").text.rsplit(":", 1)[-1]: entry.get("{http://www.w3.org/XML/1998/namespace}lang")
             for entry in feed.iter(f"{atom}entry")}
    assert langs and all(langs[p["id"]] == (None if p["lang"] == "en" else p["lang"]) for p in papers if p["id"] in langs)
    assert b'xml:lang="zh"' in files["feed.xml"]
