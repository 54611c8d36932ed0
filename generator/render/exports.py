"""Exports of the digest: BibTeX entries and files, and papers.csv."""

from __future__ import annotations

import csv
import io
import re
from functools import lru_cache

from slugify import slugify

from ..dates import YEAR
from ..model import ET_AL, Paper
from ..rows import RowLayout
from ..text import to_plain

_BIBTEX_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "%": r"\%", "&": r"\&", "#": r"\#",
    "$": r"\$", "_": r"\_", "^": r"\^{}", "~": r"\~{}",
}
_BIBTEX_SPECIAL = re.compile(r"[\\{}%&#$_^~]")


def bibtex_text(text: str) -> str:
    """Escape plain text for a BibTeX field: braces stay balanced, specials stay literal."""
    return _BIBTEX_SPECIAL.sub(lambda m: _BIBTEX_ESCAPES[m.group(0)], " ".join(text.split()))


def _escaped(text: str) -> str:
    """Escape BibTeX's specials in a piece of text, its spaces kept as they are."""
    return _BIBTEX_SPECIAL.sub(lambda m: _BIBTEX_ESCAPES[m.group(0)], text)


def citation_key(paper: Paper) -> str:
    """Return a stable BibTeX key: first author or title word, year, and the paper id."""
    first = paper.authors[0].split()[-1] if paper.authors else (paper.title.split() or ["paper"])[0]
    return f"{_key_word(first)}{year_of(paper)}{paper.id[:6]}"


@lru_cache(maxsize=8192)
def _key_word(first: str) -> str:
    # Memoized: each key is made twice per paper, and first words repeat ("We", "Large").
    return slugify(first, separator="")[:20] or "paper"


def year_of(paper: Paper) -> str:
    """Return the paper's year, from the source or the collection name ("ICLR 2026")."""
    if paper.year:
        return paper.year
    match = YEAR.search(paper.collection)
    return match.group(0) if match else ""


#: Entry types written back as the source gave them (BibTeX's and biblatex's); any other is @misc.
_ENTRY_TYPE = re.compile(r"^[a-z]{2,20}$")
#: A group a name list keeps in braces ("{Barnes and Noble}"): its text is escaped, its braces kept.
_NAME_GROUP = re.compile(r"(\{[^{}]*\})")


def bibtex_names(paper: Paper, field: str = "author") -> str:
    """Return a paper's persons as a BibTeX name list: the source's own (`von Last, Jr, First`) when it gave
    one, else the shown names, each one person (`et al.` as `and others`)."""
    written = dict(paper.citation).get(field, "")
    if written:
        return "".join(
            "{" + bibtex_text(part[1:-1]) + "}" if _NAME_GROUP.fullmatch(part) else _escaped(part)
            for part in _NAME_GROUP.split(written)
        )
    if field != "author":
        return ""
    names = ["others" if name == ET_AL else "{" + bibtex_text(name) + "}" if re.search(r"\sand\s", name, re.I)
             else bibtex_text(name) for name in paper.authors]
    return " and ".join(names)


def bibtex_entry(paper: Paper) -> str:
    """Return a BibTeX entry for one paper: the source's entry type and citation fields, else @misc."""
    citation = dict(paper.citation)
    kind = citation.get("entrytype", "")
    kind = kind if _ENTRY_TYPE.match(kind) else "misc"
    fields = [("title", "{" + bibtex_text(paper.title) + "}")]
    for name in ("author", "editor"):
        persons = bibtex_names(paper, name)
        if persons:
            fields.append((name, persons))
    where = [(name, bibtex_text(citation[name])) for name in ("journal", "booktitle") if citation.get(name)]
    fields.extend(where or [("howpublished", bibtex_text(paper.collection))])
    year = year_of(paper)
    if year:
        fields.append(("year", year))
    for name in ("volume", "number", "pages", "publisher", "eprint", "archiveprefix", "primaryclass"):
        if citation.get(name):
            # Page ranges read as an en dash ("1–10") are written back as BibTeX's "--".
            fields.append((name, bibtex_text(citation[name].replace("\u2013", "--") if name == "pages"
                                             else citation[name])))
    if citation.get("doi"):
        fields.append(("doi", _verbatim(citation["doi"])))
    if re.match(r"https?://\S+$", paper.source_url):
        fields.append(("url", _verbatim(paper.source_url)))
    fields.append(("keywords", bibtex_text(", ".join(tag.name for tag in paper.tags))))
    if paper.title_source == "llm":
        said = f"Title written from the abstract by a language model ({paper.title_model})"
        fields.append(("note", bibtex_text(said)))
    elif paper.title_inferred:
        fields.append(("note", "Title inferred from the abstract by paper-digest"))
    fields.append(("abstract", bibtex_text(paper.plain or to_plain(paper.abstract))))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{citation_key(paper)},\n{body}\n}}\n"


def _verbatim(address: str) -> str:
    # Written as it is (url and doi are read verbatim); only braces, which would end the field, are encoded.
    return " ".join(address.split()).replace("{", "%7B").replace("}", "%7D")


#: papers.bib and each tag's .bib: the entries, a blank line between two.
PAPERS_BIB = RowLayout(separator="\n")


def bibtex_file(papers: list[Paper], entries: dict[str, str] | None = None) -> str:
    """Return a .bib file holding an entry for each paper (`entries`: ready entries by paper id)."""
    return PAPERS_BIB.separator.join(entries[paper.id] if entries else bibtex_entry(paper) for paper in papers)


_CSV_COLUMNS = ("id", "title", "title_source", "authors", "collection", "venue", "year", "areas", "topics", "url",
                "source_file", "source_line", "abstract")


def _csv_line(values: list) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(values)
    return out.getvalue()


#: papers.csv: a header, then one row per paper (a row may span lines: an abstract's line breaks are quoted).
PAPERS_CSV = RowLayout(head=_csv_line(list(_CSV_COLUMNS)))


def csv_row(paper: Paper) -> str:
    """Return one paper's row of papers.csv (areas and topics as ;-separated lists), with its line end."""
    return _csv_line([
        paper.id, paper.title, paper.title_source, "; ".join(paper.authors), paper.collection, paper.venue,
        year_of(paper),
        "; ".join(t.name for t in paper.tags if t.kind == "area"),
        "; ".join(t.name for t in paper.tags if t.kind == "topic"),
        paper.url, paper.source.file, paper.source.line, paper.abstract,
    ])


def code_fence(text: str) -> str:
    """Return a backtick fence longer than any backtick run in `text`."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)
