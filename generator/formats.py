"""The input formats, in one registry: file endings, how each is read, and the names settings and the CLI accept."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Format:
    """One input format: its name, the file endings that select it, and how its reader takes the file."""

    name: str
    suffixes: tuple[str, ...]
    #: Read line by line as the file streams in (large exports); else the whole text at once.
    streamed: bool = False
    #: One record per abstract with named fields (everything but the plain-text digest).
    structured: bool = True
    #: What a reader of the site is told the papers came from.
    label: str = ""


FORMATS: tuple[Format, ...] = (
    Format("text", (".txt", ".text", ".md"), structured=False, label="plain-text abstract lists"),
    Format("jsonl", (".jsonl", ".ndjson"), streamed=True, label="JSON Lines exports"),
    Format("json", (".json",), label="JSON paper lists"),
    Format("csv", (".csv",), streamed=True, label="CSV paper lists"),
    Format("tsv", (".tsv",), streamed=True, label="TSV paper lists"),
    Format("bib", (".bib", ".bibtex", ".biblatex"), label="BibTeX bibliographies"),
    Format("arxiv", (".xml", ".atom"), label="arXiv Atom feeds"),
)
BY_NAME = {f.name: f for f in FORMATS}
BY_SUFFIX = {suffix: f for f in FORMATS for suffix in f.suffixes}
#: Every file ending a folder is searched for.
SUFFIXES = tuple(BY_SUFFIX)
#: The names the `input_format` setting and `--format` accept: auto picks by file ending.
INPUT_FORMATS = ("auto", *BY_NAME)


def format_of(path: Path, override: str = "auto") -> Format:
    """Return the format of a file: the override, or the one its ending names, or plain text."""
    if override != "auto":
        return BY_NAME[override]
    return BY_SUFFIX.get(path.suffix.lower(), BY_NAME["text"])
