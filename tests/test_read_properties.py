"""Property tests: every reader, fed random bytes and mutated real-shaped exports, gives records or a clear
error (DigestError, printed as one line), never another exception (a traceback)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import DigestError
from generator.read import read_sources
from generator.settings import Settings
from tests.conftest import FIXTURES

EXPORTS = FIXTURES / "exports"
_GOOD = json.loads((EXPORTS / "papers_good.json").read_text(encoding="utf-8"))


def _table(delimiter: str) -> bytes:
    rows = ["UID,title,authors,abstract,keywords".replace(",", delimiter)]
    for n, paper in enumerate(_GOOD):
        cells = [f"u{n}", paper["title"], "Ada Lovelace|Alan Turing", paper["abstract"], "agents|logic"]
        rows.append(delimiter.join('"' + c.replace('"', '""') + '"' if delimiter == "," else c for c in cells))
    return ("\n".join(rows) + "\n").encode("utf-8")


_BIB = "".join(
    f"@inproceedings{{key{n},\n  title = {{{{{p['title']}}}}},\n  author = {{Lovelace, Ada and Turing, Alan}},\n"
    f"  booktitle = {{{p['venue']}}},\n  year = {{2022}},\n  abstract = {{{p['abstract']} We use $O(n^2)$ "
    f"and \\emph{{M{{\\\"u}}ller}}'s method \\cite{{x}}.}}\n}}\n\n"
    for n, p in enumerate(_GOOD[:3])
)

#: Real-shaped exports of each format, to mutate.
SEEDS: dict[str, list[bytes]] = {
    "text": [(EXPORTS / name).read_bytes() for name in ("one_a_line.txt", "lowercase.txt")]
    + [b"ICLR 2024 Papers\n\n" + "\n\n".join(p["abstract"] for p in _GOOD).encode()],
    "jsonl": ["\n".join(json.dumps(p) for p in _GOOD).encode()],
    "json": [(EXPORTS / name).read_bytes() for name in ("papers_good.json", "miniconf_papers.json",
                                                        "openreview_v2.json")],
    "csv": [_table(",")],
    "tsv": [_table("\t")],
    "bib": [_BIB.encode()],
    "arxiv": [(EXPORTS / name).read_bytes() for name in ("arxiv_wrapped.xml", "oai_arxiv.xml", "oai_arxivraw.xml",
                                                         "oai_dc.xml")],
}
SUFFIX = {"text": "txt", "jsonl": "jsonl", "json": "json", "csv": "csv", "tsv": "tsv", "bib": "bib", "arxiv": "xml"}

# What breaks a structure: its delimiters, escapes, odd bytes and characters.
_PIECES = st.one_of(
    st.sampled_from([b"{", b"}", b"[", b"]", b'"', b"'", b",", b":", b"\\", b"\n", b"\n\n", b"\t", b"<", b">",
                     b"</entry>", b"<entry>", b"&", b"&amp;", b"@misc{", b"=", b"$", b"\\href(", b"\xff", b"\x00",
                     b"\r", b"\xef\xbb\xbf", b"null", b"[]", b"{}", b"1e999", b"-", b"2023-13-45"]),
    # LaTeX a BibTeX or arXiv abstract holds, whole and cut.
    st.sampled_from([b"\\href(https://a.org)(https://a.org)", b"{\\H o}", b"\\'", b"\\textasciicircum",
                     b"\\begin{", b"%", b"\\\\", b"\\url{", b"{\\", b"\\ ", b"~", b"--", b"$x^{2}$"]),
    st.binary(max_size=12),
    st.text(max_size=12).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


@st.composite
def mutated(draw: st.DrawFn, fmt: str) -> bytes:
    """A seed export of `fmt`, cut, with slices deleted, repeated or replaced by structural pieces."""
    data = draw(st.sampled_from(SEEDS[fmt]))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(data)))
        j = draw(st.integers(i, min(len(data), i + 200)))
        op = draw(st.sampled_from(["cut", "delete", "insert", "repeat", "replace", "inside"]))
        if op == "cut":
            data = data[:i]
        elif op == "delete":
            data = data[:i] + data[j:]
        elif op == "insert":
            data = data[:i] + draw(_PIECES) + data[i:]
        elif op == "repeat":
            data = data[:j] + data[i:j] + data[j:]
        elif op == "replace":
            data = data[:i] + draw(_PIECES) + data[j:]
        else:
            # Into the middle half of the file, mostly abstracts: the fields themselves, not the structure.
            k = draw(st.integers(len(data) // 4, 3 * len(data) // 4))
            data = data[:k] + draw(_PIECES) + data[k:]
    return data


def read_or_error(fmt: str, data: bytes, skip_bad: bool) -> None:
    """Read `data` as one file of `fmt`: records, or a DigestError; any other exception fails the test."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"input.{SUFFIX[fmt]}"
        path.write_bytes(data)
        try:
            result = read_sources([path], Settings(project_dir=Path(tmp), input_format=fmt, skip_bad=skip_bad))
        except DigestError as error:
            assert not skip_bad, f"skip_bad reads every file or leaves it out, but stopped: {error}"
            assert str(error).strip()
            return
    for paper in result.papers:
        assert paper.abstract.strip() and paper.source.file == "input." + SUFFIX[fmt]
    for problem in result.problems:
        assert problem.message.strip() and "at at" not in problem.message


PROPERTY = settings(max_examples=120, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("fmt", list(SEEDS))
def test_a_mutated_export_gives_records_or_a_clear_error(fmt: str) -> None:
    @PROPERTY
    @given(data=mutated(fmt), skip_bad=st.booleans())
    def check(data: bytes, skip_bad: bool) -> None:
        read_or_error(fmt, data, skip_bad)

    check()


@pytest.mark.parametrize("fmt", list(SEEDS))
def test_random_bytes_give_records_or_a_clear_error(fmt: str) -> None:
    @settings(max_examples=60, derandomize=True, deadline=None)
    @given(data=st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda t: t.encode("utf-8", "replace"))),
           skip_bad=st.booleans())
    def check(data: bytes, skip_bad: bool) -> None:
        read_or_error(fmt, data, skip_bad)

    check()


@pytest.mark.parametrize("fmt", list(SEEDS))
def test_every_seed_reads_whole(fmt: str) -> None:
    # The seeds themselves are good exports: each gives every abstract it holds.
    for data in SEEDS[fmt]:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"input.{SUFFIX[fmt]}"
            path.write_bytes(data)
            result = read_sources([path], Settings(project_dir=Path(tmp), input_format=fmt))
        assert result.papers and not [p for p in result.problems if p.level == "error"], result.problems


# An abstract's text as exports hold it: words, LaTeX commands (with and without their arguments), math,
# markup, dates and odd characters.
_TOKENS = st.sampled_from([
    "We", "propose", "a", "method", ".", " ", "\n", "\n\n", "$", "$x^{2}$", "{", "}", "\\", "\\href", "(", ")",
    "(https://a.org)", "{https://a.org}", "\\url", "\\emph", "\\cite", "{\\H o}", "\\'e", '\\"u', "\\textasciicircum",
    "\\ ", "\\%", "%", "~", "--", "&", "<b>", "</entry>", '"', ",", "\t", "2023-02-30", "\\begin{itemize}", "\\item",
    "@", "#", "é", "中文", "\u0000", "\ufeff",
])
ABSTRACTS = st.lists(st.one_of(_TOKENS, st.text(max_size=4)), min_size=1, max_size=30).map("".join)


def _one_record(fmt: str, abstract: str) -> bytes:
    """A well-formed file of `fmt` holding one record with `abstract`, escaped as the format escapes it."""
    from xml.sax.saxutils import escape

    if fmt == "text":
        return abstract.encode("utf-8", "surrogatepass")
    if fmt in ("jsonl", "json"):
        record = json.dumps({"title": "T", "abstract": abstract, "date": abstract[:12]})
        return (record if fmt == "jsonl" else f"[{record}]").encode("utf-8", "surrogatepass")
    if fmt == "csv":
        return ('title,abstract,date\nT,"' + abstract.replace('"', '""') + '",2023\n').encode("utf-8", "surrogatepass")
    if fmt == "tsv":
        return ("title\tabstract\nT\t" + " ".join(abstract.split()) + "\n").encode("utf-8", "surrogatepass")
    if fmt == "bib":
        return f"@article{{k,\n  title = {{T}},\n  abstract = {{{abstract}}},\n  date = {{{abstract[:10]}}}\n}}\n".encode(
            "utf-8", "surrogatepass")
    return (f'<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>T</title><summary>{escape(abstract)}</summary>'
            f"<published>{escape(abstract[:10])}</published></entry></feed>").encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("fmt", list(SEEDS))
def test_any_abstract_text_gives_records_or_a_clear_error(fmt: str) -> None:
    @settings(max_examples=150, derandomize=True, deadline=None)
    @given(abstract=ABSTRACTS)
    def check(abstract: str) -> None:
        read_or_error(fmt, _one_record(fmt, abstract), skip_bad=False)

    check()


_BOMB = ('<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">'
         + "".join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">' for a, b in zip("abcdefgh", "bcdefghi", strict=True))
         + ']><feed><entry><summary>&i;</summary></entry></feed>')


@pytest.mark.parametrize(("fmt", "data", "said"), [
    pytest.param("json", b"[" * 100_000 + b"]" * 100_000, "not valid JSON", id="json-nested-too-deep"),
    pytest.param("json", b'[{"abstract": "We study x.", "year": ' + b"1" * 5000 + b"}]", "not valid JSON",
                 id="json-number-too-long"),
    pytest.param("jsonl", b'{"abstract": "We study x.", "year": ' + b"1" * 5000 + b"}", "",
                 id="jsonl-number-too-long"),
    pytest.param("arxiv", _BOMB.encode(), "not valid XML", id="xml-entity-bomb"),
    pytest.param("csv", b'title,abstract\nT,"' + b"x" * 200_000 + b'"\n', "a runaway field", id="csv-field-too-long"),
    pytest.param("bib", b"@article{k, title={T}, abstract={See \\href(https://a.org)(https://a.org) now.}}", "",
                 id="bib-href-without-braces"),
    pytest.param("jsonl", json.dumps({"abstract": "We study x. " * 200_000}).encode(), "max_abstract_chars",
                 id="runaway-abstract"),
])
def test_hostile_inputs_give_records_or_a_one_line_error(fmt: str, data: bytes, said: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"input.{SUFFIX[fmt]}"
        path.write_bytes(data)
        try:
            result = read_sources([path], Settings(project_dir=Path(tmp), input_format=fmt))
        except DigestError as error:
            assert said and said in str(error), str(error)
            return
    assert not said, f"expected an error saying {said!r}"
    assert result.papers or [p for p in result.problems if p.level == "error"]
