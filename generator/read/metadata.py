"""What a record says about its paper besides its text: its citation, its subjects, and its collection.

- The citation: the bibliographic fields papers.bib writes back (entry type, persons as BibTeX
  writes them, `doi`, `journal`, `booktitle`, `volume`, `number`, `pages`, `publisher`, and an
  arXiv entry's `eprint`, `archivePrefix` and `primaryClass`).
- Subjects: a source's keywords that are classification, not topics. arXiv category codes
  (`cs.CV`, `physics.hist-ph`) and Zotero's arXiv subjects ("Computer Science - Computer Vision and
  Pattern Recognition") become the category's name; classification codes (MSC `60B20`, `46Txx`;
  ACM CCS `I.2.6`; PACS `05.45.-a`) and reference-manager workflow tags ("Viewed", "To read",
  "_tablet", colours, star ratings) are taken out of the keywords, so they never become topics.
- Collections: a file whose records come from a few venues (a conference list, a multi-venue
  export) has a collection per venue; a personal library (many journals, a few papers each) is one
  collection, and each paper's journal is its `venue`.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import Any

from ..model import Paper

#: The fields papers.bib writes back from a source, in this order (`author`: as BibTeX writes the persons).
CITATION_FIELDS = ("entrytype", "author", "editor", "doi", "journal", "booktitle", "volume", "number", "pages",
                   "publisher", "eprint", "archiveprefix", "primaryclass")
#: Where each citation field may be found in a record (lower-case names; biblatex's first).
_CITATION_SOURCES = {
    "entrytype": ("entrytype",),
    "author": ("bibtex_author",),
    "editor": ("bibtex_editor",),
    "doi": ("doi",),
    "journal": ("journaltitle", "journal"),
    "booktitle": ("booktitle",),
    "volume": ("volume",),
    "number": ("number", "issue"),
    "pages": ("pages",),
    "publisher": ("publisher",),
    # An arXiv entry's identity, as arXiv's own BibTeX export writes it.
    "eprint": ("eprint",),
    "archiveprefix": ("archiveprefix", "eprinttype"),
    "primaryclass": ("primaryclass", "eprintclass"),
}
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def citation_of(fields: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Return the citation fields a record gives (its field names in lower case), as (name, text) pairs."""
    found = []
    for name in CITATION_FIELDS:
        for key in _CITATION_SOURCES[name]:
            value = fields.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                value = str(value)
            if isinstance(value, str) and value.strip():
                text = " ".join(value.split())
                found.append((name, _DOI_PREFIX.sub("", text) if name == "doi" else text.lower()
                              if name == "entrytype" else text))
                break
    return tuple(found)


@lru_cache(maxsize=1)
def _arxiv() -> tuple[dict[str, str], dict[str, str]]:
    """Return arXiv's category names by code, and by the names Zotero gives them (lower case)."""
    data = json.loads(resources.files("generator").joinpath("data/arxiv_categories.json").read_text("utf-8"))
    categories: dict[str, str] = data["categories"]
    archives: dict[str, str] = data["archives"]
    by_name: dict[str, str] = {}
    for code, name in categories.items():
        archive = code.split(".")[0]
        if "." in code and archive in archives:
            by_name[_folded(f"{archives[archive]} - {name}")] = name
        else:  # an archive without subjects: "Quantum Physics", "High Energy Physics - Theory"
            by_name[_folded(name)] = name
    return {code.casefold(): name for code, name in categories.items()}, by_name


def _folded(name: str) -> str:
    """Return the key of a subject's name: Zotero writes "Physics - Data Analysis Statistics and Probability"."""
    return " ".join(name.replace(",", " ").casefold().split())


#: An arXiv category code not in the table ("cs.XX", "math-ph"): the archives' prefixes.
_ARXIV_CODE = re.compile(
    r"^(?:cs|math|stat|physics|q-bio|q-fin|econ|eess|astro-ph|cond-mat|nlin|hep|nucl|gr)[.-][A-Za-z]+(?:-[A-Za-z]+)?$"
)
#: One classification code: MSC ("60B20", "15B52", "46Txx", "05-01", "68T05"), ACM CCS 1998 ("I.2.6", "G.3"),
#: PACS ("05.45.-a"), optionally with its scheme before it ("MSC 60B20", "MSC2020: 60B20").
_CODE = re.compile(
    r"(?:\d{2}[A-Z](?:\d{2}|xx)|\d{2}-(?:XX|xx|\d{2})|[A-K]\.\d{1,2}(?:\.\d{1,2})?|[A-K]\.m|\d{2}\.\d{2}\.[-+]?[\w]{1,2})"
)
_CODES = re.compile(
    r"^(?:(?:MSC|AMS|ACM|CCS|PACS|Primary|Secondary)[\s\d]*[:(]?\s*)?" + _CODE.pattern
    + r"(?:\s*[,;)]?\s*(?:(?:Primary|Secondary)\s*)?" + _CODE.pattern + r")*\)?$"
)
#: Reference-manager workflow tags (Zotero, Mendeley, JabRef, Zotfile): a state of the reader's copy, not a subject.
_WORKFLOW = frozenset({
    "viewed", "unviewed", "reviewed", "unreviewed", "read", "unread", "reading", "to read", "toread", "to-read",
    "read later", "skimmed", "to skim", "done", "todo", "to do", "to review", "needs review", "inbox", "later",
    "important", "priority", "high priority", "low priority", "favorite", "favourite", "favorites", "starred",
    "printed", "to print", "cited", "to cite", "duplicate", "imported", "archived", "ok", "checked", "unchecked",
    "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "gray", "grey", "black", "white",
    "no pdf", "pdf", "has pdf", "notes", "untagged", "new", "own", "mine", "not read", "not relevant", "relevant",
    "publication", "publications", "my publication", "my publications", "my papers", "own work",
})
#: Tags that are workflow by their shape: a leading `_`, `/`, `#` or `@` (Zotfile's "_tablet", "/unread",
#: "#toread", a colour code "#ff0000"), star ratings ("★★★", "5 stars", "rating: 4").
_WORKFLOW_SHAPE = re.compile(r"^(?:[_/#@!].*|[★☆⭐*+]{1,5}|\d\s*stars?|rating\s*[:=]?\s*\d.*)$", re.IGNORECASE)


@lru_cache(maxsize=65536)
def subject_of(keyword: str) -> tuple[str, str]:
    """Return what a source's keyword is: ("topic", keyword), ("subject", arXiv name), or ("code" | "workflow", it)."""
    text = " ".join(keyword.split()).strip(" ;,")
    codes, names = _arxiv()
    folded = text.casefold()
    if folded in codes:
        return "subject", codes[folded]
    if _folded(text) in names:
        return "subject", names[_folded(text)]
    if _ARXIV_CODE.match(text) or _CODES.match(text):
        return "code", text
    if folded in _WORKFLOW or _WORKFLOW_SHAPE.match(text):
        return "workflow", text
    return "topic", text


def split_keywords(keywords: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return a record's keywords that may be topics, and its subjects (arXiv categories by name, other
    classification codes as given); workflow tags are neither."""
    kept: list[str] = []
    subjects: list[str] = []
    for keyword in _rejoined(keywords):
        kind, text = subject_of(keyword)
        if kind == "topic":
            kept.append(keyword)
        elif kind in ("subject", "code"):
            subjects.append(text)  # classification: shown as the paper's subjects (a reference-manager tag is not)
    return tuple(kept), tuple(dict.fromkeys(subjects))


def _rejoined(keywords: tuple[str, ...]) -> list[str]:
    """Return the keywords with an arXiv subject cut at its commas made whole again.

    A list cut at commas reads Zotero's "Computer Science - Distributed, Parallel, and Cluster
    Computing" as three keywords; the pieces that make a subject's name together are one.
    """
    out: list[str] = []
    index = 0
    while index < len(keywords):
        for end in range(min(len(keywords), index + 4), index + 1, -1):
            whole = ", ".join(k.strip() for k in keywords[index:end])
            if subject_of(whole)[0] == "subject":
                out.append(whole)
                index = end
                break
        else:
            out.append(keywords[index])
            index += 1
    return out


def area_name(area: str) -> str:
    """Return a given area as a reader knows it: arXiv codes as their names ("cs.CV": "Computer Vision and
    Pattern Recognition"; Zotero's archive-only "cs, stat": "Computer Science, Statistics")."""
    archives = _archives()
    names = []
    for part in (p.strip() for p in area.split(",")) if area else ():
        kind, text = subject_of(part)
        if kind != "subject" and part.casefold() not in archives:
            return area
        names.append(text if kind == "subject" else archives[part.casefold()])
    return ", ".join(dict.fromkeys(names)) or area


@lru_cache(maxsize=1)
def _archives() -> dict[str, str]:
    """Return arXiv's archive names by code, lower case ("cs": "Computer Science")."""
    data = json.loads(resources.files("generator").joinpath("data/arxiv_categories.json").read_text("utf-8"))
    return {code.casefold(): name for code, name in data["archives"].items()}


#: A file's venues are its collections when they hold this many papers each, on average (a conference
#: list: hundreds; a personal library of 440 papers in 252 journals: under 2).
MIN_PAPERS_PER_VENUE = 20


def venue_collections(papers: list[Paper]) -> list[Paper]:
    """Return the papers with their collections: per venue for a file of a few venues, else the file's one.

    Each paper's `collection` is its file's (from the file's name or header) and `venue` its record's.
    A file whose venues hold `MIN_PAPERS_PER_VENUE` papers each on average (or one venue for all) is a
    list of venues: each paper goes to its venue's collection. Any other (a personal library: many
    journals, a few papers each) stays one collection, its journals shown as each paper's venue.
    """
    venues: dict[str, Counter[str]] = defaultdict(Counter)
    counts: Counter[str] = Counter()
    for paper in papers:
        counts[paper.source.file] += 1
        if paper.venue:
            venues[paper.source.file][paper.venue] += 1
    listed = {
        file for file, found in venues.items()
        if (len(found) == 1 and sum(found.values()) == counts[file])
        or counts[file] >= MIN_PAPERS_PER_VENUE * len(found)
    }
    return [replace(paper, collection=paper.venue) if paper.venue and paper.source.file in listed else paper
            for paper in papers]


#: A venue and year at the start of a file's name ("nips2016", "acl2020_papers", "ICLR-2024-accepted").
_VENUE_STEM = re.compile(r"^([A-Za-z]{2,12})[-_ ]?((?:19|20)\d\d)(?:[-_ .]+(.*))?$")
#: Words of a file's name that say what the file is, not what it holds ("acl2020_papers", "library_export").
_FILE_WORDS = frozenset({
    "paper", "papers", "abstract", "abstracts", "accepted", "list", "all", "data", "export", "exported", "dump",
    "bib", "bibtex", "biblatex", "json", "jsonl", "csv", "tsv", "xml", "txt", "atom", "final", "full", "raw",
    "metadata", "records", "entries", "output", "results", "response", "query", "api", "file",
})
#: How a word of a file's name is written in a name ("arxiv" -> "arXiv").
_WORD_SPELLINGS = {"arxiv": "arXiv", "zotero": "Zotero", "openreview": "OpenReview", "mendeley": "Mendeley"}
#: What a file named only for its source holds: a reference manager's export is a library ("zotero.bib").
_SOURCE_NAMES = {"Zotero": "Zotero library", "Mendeley": "Mendeley library", "arXiv": "arXiv papers",
                 "OpenReview": "OpenReview papers"}


def name_from_stem(stem: str) -> str:
    """Return the collection a file's name gives.

    A venue and year ("nips2016", "acl2020_papers") is "NIPS 2016", "ACL 2020" (with any other
    words after: "ICLR 2024 Workshop"); any other name is read as words, without those that
    say what the file is ("di-proposal_arxiv" is "Di-proposal (arXiv)", "my_library" "My library",
    "zotero" "Zotero library").
    """
    match = _VENUE_STEM.match(stem)
    if match:
        rest = [w for w in re.split(r"[-_ .]+", match.group(3) or "") if w and w.lower() not in _FILE_WORDS]
        venue = match.group(1)
        # A venue written in lower case is an acronym ("acl"); one with capitals is as its authors write it ("CogSci").
        venue = venue.upper() if venue.islower() else venue
        return " ".join([venue, match.group(2), *(w[:1].upper() + w[1:] for w in rest)])
    words = [w for w in re.split(r"[_\s.]+", stem) if w]
    kept = [w for w in words if w.lower() not in _FILE_WORDS and w.lower() not in _WORD_SPELLINGS]
    sources = [_WORD_SPELLINGS[w.lower()] for w in words if w.lower() in _WORD_SPELLINGS]
    if not kept:
        return _SOURCE_NAMES.get(" ".join(sources), " ".join(sources)) or stem[:1].upper() + stem[1:]
    name = " ".join(kept)
    name = name[:1].upper() + name[1:]
    return f"{name} ({', '.join(sources)})" if sources else name
