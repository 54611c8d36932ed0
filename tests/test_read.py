"""The plain-text digest reader: every case of the input format."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import DigestError
from generator.read import collection_from_header, decode, parse_digest, read_sources
from generator.settings import Settings
from tests.conftest import write_tree

A1 = "We introduce GRACE, a framework for contrastive policy optimization."
A2 = "Deep Q-learning jointly learns representations and values."


def texts(raw: str, default: str = "default") -> tuple[str, list[str]]:
    collection, paragraphs = parse_digest(decode(raw.encode("utf-8"), "t.txt"), default)
    return collection, [p.text for p in paragraphs]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(f"ICLR 2026 Papers\n\n{A1}\n\n{A2}\n", ("ICLR 2026", [A1, A2]), id="english-header"),
        pytest.param(f"ICLR 2026 论文列表\n\n{A1}\n\n{A2}\n", ("ICLR 2026", [A1, A2]), id="chinese-header"),
        pytest.param(f"{A1}\n\n{A2}", ("default", [A1, A2]), id="no-header"),
        pytest.param(f"\ufeffICLR 2026 Papers\n\n{A1}", ("ICLR 2026", [A1]), id="utf8-bom"),
        pytest.param(f"ICLR 2026 Papers\r\n\r\n{A1}\r\n\r\n{A2}\r\n", ("ICLR 2026", [A1, A2]), id="crlf"),
        pytest.param(f"ICLR 2026 Papers\r\r{A1}\r\r{A2}\r", ("ICLR 2026", [A1, A2]), id="cr-only"),
        pytest.param(f"{A1}\n\n\n\n\n{A2}", ("default", [A1, A2]), id="many-blank-lines"),
        pytest.param(f"{A1}\n \t \n{A2}", ("default", [A1, A2]), id="blank-line-with-spaces"),
        pytest.param(
            "We introduce GRACE, a framework\nfor contrastive policy\noptimization.",
            ("default", [A1]),
            id="hard-wrapped",
        ),
        pytest.param("Better generaliza- tion of models.", ("default", ["Better generalization of models."]), id="pdf-hyphen-inline"),
        pytest.param("Better generaliza-\ntion of models.", ("default", ["Better generalization of models."]), id="pdf-hyphen-line-break"),
        pytest.param("A multi- modal model.", ("default", ["A multi-modal model."]), id="compound-kept"),
        pytest.param("Both pre- and post-training.", ("default", ["Both pre- and post-training."]), id="suspended-hyphen"),
        pytest.param("State-of-the-art results.", ("default", ["State-of-the-art results."]), id="real-hyphens-untouched"),
        pytest.param("We\tuse  tabs   and spaces.   \n\n", ("default", ["We use tabs and spaces."]), id="tabs-trailing-spaces"),
        pytest.param("", ("default", []), id="empty"),
        pytest.param("\n\n  \n", ("default", []), id="only-blank-lines"),
        pytest.param("ICLR 2026 Papers\n", ("ICLR 2026", []), id="header-only"),
    ],
)
def test_parse_digest(raw: str, expected: tuple[str, list[str]]) -> None:
    assert texts(raw) == expected


@pytest.mark.parametrize(
    ("line", "collection"),
    [
        ("ICLR 2026 Papers", "ICLR 2026"),
        ("ICLR 2026 论文列表", "ICLR 2026"),
        ("NeurIPS 2025 Accepted Papers", "NeurIPS 2025"),
        ("CVPR 2025", "CVPR 2025"),
        ("This is a one-line abstract that ends with a period.", None),
        ("x" * 200, None),
    ],
)
def test_header_line_names_the_collection(line: str, collection: str | None) -> None:
    assert collection_from_header(line) == collection


def test_a_long_single_line_abstract_is_not_a_header() -> None:
    assert texts(A1) == ("default", [A1])


def test_provenance_records_file_paragraph_and_line(tmp_path: Path) -> None:
    write_tree(tmp_path, {"d.txt": f"ICLR 2026 Papers\n\n{A1}\n\n\n{A2}\nwrapped.\n"})
    result = read_sources([tmp_path / "d.txt"], Settings(project_dir=tmp_path))
    assert [(p.source.file, p.source.paragraph, p.source.line) for p in result.papers] == [
        ("d.txt", 1, 3),
        ("d.txt", 2, 6),
    ]


def test_empty_file_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    write_tree(tmp_path, {"empty.txt": "", "full.txt": A1})
    result = read_sources([tmp_path], Settings(project_dir=tmp_path))
    assert len(result.papers) == 1
    assert [(p.level, p.file) for p in result.problems] == [("warning", "empty.txt")]


def test_duplicate_abstracts_across_files_become_one_page(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.txt": f"{A1}\n\n{A2}", "b.txt": f"X 2026 Papers\n\n{A1.upper()}"})
    result = read_sources([tmp_path], Settings(project_dir=tmp_path))
    assert len(result.papers) == 2
    merged = result.papers[0]
    assert merged.source.file == "a.txt"
    assert [(s.file, s.paragraph) for s in merged.also_in] == [("b.txt", 1)]
    assert any(p.level == "info" and p.file == "b.txt" and "a.txt" in p.message for p in result.problems)


def test_invalid_utf8_names_file_line_and_byte_offset(tmp_path: Path) -> None:
    write_tree(tmp_path, {"bad.txt": b"ICLR 2026 Papers\n\nGood text.\nBad \xff byte."})
    with pytest.raises(DigestError) as error:
        read_sources([tmp_path / "bad.txt"], Settings(project_dir=tmp_path))
    message = str(error.value)
    assert "bad.txt:4" in message and "byte offset 33" in message and "UTF-8" in message


def test_missing_source_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DigestError, match="no such file"):
        read_sources([tmp_path / "nope.txt"], Settings(project_dir=tmp_path))


def test_paper_ids_are_stable_and_ignore_whitespace_and_case(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.txt": A1, "b.txt": "  " + A1.replace(" ", "\n", 3)})
    first = read_sources([tmp_path / "a.txt"], Settings(project_dir=tmp_path)).papers[0]
    second = read_sources([tmp_path / "b.txt"], Settings(project_dir=tmp_path)).papers[0]
    assert first.id == second.id and len(first.id) == 12


def test_default_corpus_reads_57_abstracts() -> None:
    from tests.conftest import DEFAULT_CORPUS, ROOT

    result = read_sources([DEFAULT_CORPUS], Settings(project_dir=ROOT))
    assert len(result.papers) == 57
    assert {p.collection for p in result.papers} == {"ICLR 2026"}
    assert not result.problems


def test_an_id_kept_by_an_earlier_run_is_used_only_when_it_is_an_id() -> None:
    from generator.cache import entry_key
    from generator.read import known_id, paper_id

    class Memo(dict):
        def put(self, key, value) -> None:
            self[key] = value

    abstract = "We study the Ｆｕｌｌ-width transformer. It works."
    memo = Memo()
    assert known_id(abstract, memo) == paper_id(abstract) == known_id(abstract, None)
    assert memo == {entry_key("paper-id", abstract): paper_id(abstract)}
    # A value hand-edited into the cache (not twelve hex digits) is worked out again, never trusted.
    for bogus in ("<script>", "ABCDEF123456", 12, None, "0" * 13):
        memo[entry_key("paper-id", abstract)] = bogus
        assert known_id(abstract, memo) == paper_id(abstract)
