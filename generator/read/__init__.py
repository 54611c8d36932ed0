"""Read digest files into `Paper` records: the pipeline's input edge.

The plain-text digest format: an optional header line naming the collection
("ICLR 2026 Papers", "ICLR 2026 论文列表"), then abstracts separated by one or
more blank lines, or one abstract a line (layout.py). Hard-wrapped lines inside
an abstract are joined.

A file that cannot be read whole (cut off, broken quoting, not XML, not UTF-8)
gives nothing: the run stops naming it, unless `skip_bad` leaves it out and
counts the records lost. So does an abstract past the bounds (layout.py, the
`max_abstract_chars` setting), unless `skip_bad` leaves that one out.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..cache import entry_key
from ..errors import BadFile, DigestError
from ..formats import SUFFIXES, format_of
from ..model import Paper, Problem, Source
from ..settings import Settings
from .digest import (
    Paragraph,
    collection_from_header,
    collection_from_stem,
    join_lines,
    parse_digest,
    runaway,
    split_paragraphs,
    within_bounds,
)
from .grouping import Doubt, Memo, group
from .layout import has_case
from .metadata import venue_collections
from .paragraphs import PARAGRAPH_BREAK
from .records import NoAbstract, RawRecord, TooLong, build_paper, iter_records, to_paper

__all__ = ["Paragraph", "ReadResult", "collection_from_header", "collection_from_stem", "decode", "dedupe_key",
           "join_lines", "paper_id", "parse_digest", "read_sources", "split_paragraphs"]

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class Doubtful:
    """A paragraph decision of a text digest close to the model's threshold, to show the user.

    `paper` is the fingerprint of the paper holding the paragraph, `position` its place there (1: it starts it).
    """

    file: str
    line: int
    number: int
    onto: int
    joined: bool
    score: float
    paper: str
    position: int
    text: str


@dataclass
class ReadResult:
    """Everything read from the sources: papers, and problems to report."""

    papers: list[Paper] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    #: The (number, line) of each paragraph of each text paper, by the paper's fingerprint.
    parts: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    #: Paragraph decisions close to the threshold, in file order.
    doubts: list[Doubtful] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "error"]


def paper_id(abstract: str, key: str | None = None) -> str:
    """Return the stable id of an abstract: a short hash of its normalised text (`key`, if already made)."""
    key = dedupe_key(abstract) if key is None else key
    return hashlib.blake2b(key.encode("utf-8"), digest_size=6).hexdigest()


#: What paper_id returns (a value kept in a memo is used only if it is one).
_ID = re.compile(r"[0-9a-f]{12}")


def known_id(abstract: str, memo: Memo | None) -> str:
    """Return paper_id(abstract), taken from `memo` when an earlier run worked it out.

    (The normalised text behind an id takes 50 us an abstract to build: a
    second of a 20,000-paper digest that an edit of one abstract does not need.)
    """
    if memo is None:
        return paper_id(abstract)
    key = entry_key("paper-id", abstract)
    kept = memo.get(key)
    if isinstance(kept, str) and _ID.fullmatch(kept):
        return kept
    made = paper_id(abstract)
    memo.put(key, made)
    return made


def dedupe_key(abstract: str) -> str:
    """Return the text two abstracts share when they are the same paper."""
    text = unicodedata.normalize("NFKC", abstract).casefold()
    return " ".join(re.findall(r"\w+", text))


def has_words(abstract: str) -> bool:
    """Return True when `abstract` has a word, i.e. its dedupe_key is not empty (without building the key)."""
    return _WORD.search(unicodedata.normalize("NFKC", abstract).casefold()) is not None


_WORD = re.compile(r"\w")


def _not_utf8(file: str, line: int, offset: int, byte: int) -> BadFile:
    return BadFile(file, line, f"not valid UTF-8 at byte offset {offset} (byte 0x{byte:02x}); "
                   "save the file as UTF-8 and try again")


def decode(data: bytes, file: str) -> str:
    """Decode a digest file's bytes as UTF-8 (BOM allowed), or raise a clear error."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _not_utf8(file, line, exc.start, data[exc.start]) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


#: Files of a folder that are never read as sources, and not reported: they sit beside data.
_QUIET = re.compile(r"^(?:\.|readme|license|licence|copying|changelog|notice)", re.IGNORECASE)


def expand_sources(paths: Iterable[str | Path], ignored: list[Path] | None = None) -> list[Path]:
    """Return the digest files named by `paths`, expanding directories in name order.

    In a folder, only files of a known format are read; `ignored` receives the others, but for
    README*, LICENSE* and the like, and dotfiles or files in dot-folders, which are passed over quietly.
    """
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found: list[Path] = []
            other: list[Path] = []
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                if any(_QUIET.match(part) for part in file.relative_to(path).parts):
                    continue
                (found if file.suffix.lower() in SUFFIXES else other).append(file)
            if not found:
                raise DigestError(f"{path}: no digest files ({', '.join(SUFFIXES)}) in this folder")
            files.extend(found)
            if ignored is not None:
                ignored.extend(other)
        elif path.is_file():
            files.append(path)
        else:
            raise DigestError(f"{path}: no such file or folder")
    return files


def read_sources(paths: Iterable[str | Path], settings: Settings, memo: Memo | None = None) -> ReadResult:
    """Read every digest file under `paths` into papers, merging duplicate abstracts.

    `memo` (the analysis cache) keeps the paragraph-joining decisions of earlier runs; the result is the
    same without it.
    """
    result = ReadResult()
    seen: dict[str, int] = {}
    ignored: list[Path] = []
    files = expand_sources(paths, ignored)
    for path in ignored:
        result.problems.append(Problem("info", _display_name(path, settings), None, "not a known input format; "
                                       "not read", kind="ignored"))
    for path in files:
        name = _display_name(path, settings)
        result.files.append(name)
        try:
            added = _read_file(result, seen, path, name, settings, memo)
        except BadFile as bad:
            lost = f"about {bad.seen:,} records" if bad.seen else "the records in it"
            result.problems.append(Problem("error", name, bad.line, f"{bad.reason}; the file is not read ({lost})",
                                           kind="bad-file", lost=bad.seen))
            continue
        if not added and not any(p.file == name for p in result.problems):
            empty = not path.stat().st_size or not path.read_bytes().strip()
            result.problems.append(Problem("warning", name, None, "the file is empty" if empty
                                           else "no abstracts in this file"))
    stops = [p for p in result.problems if p.kind in STOPS]
    if stops and not settings.skip_bad:
        raise DigestError(stopped(stops))
    result.papers = venue_collections(result.papers)
    if settings.collection:
        result.papers = [replace(paper, collection=settings.collection) for paper in result.papers]
    log.info("read %d papers from %d files", len(result.papers), len(result.files))
    return result


#: Problems that stop a run unless `skip_bad` is set: a file not read whole, an abstract past the bounds.
STOPS = ("bad-file", "too-long")


def stopped(stops: list[Problem]) -> str:
    """Return the error that stops a run on bad files and runaway abstracts, naming each."""
    lost = sum(max(p.lost, 1) for p in stops)
    said = "1 problem in the input stops" if len(stops) == 1 else f"{len(stops)} problems in the input stop"
    return (f"{said} the build (nothing was written; the previous site is as it was):\n"
            + "\n".join(f"  {p}" for p in stops)
            + f"\nFix the input, or pass --skip-bad (the setting skip_bad) to publish without it (about {lost:,} "
            f"{'record' if lost == 1 else 'records'} left out).")


def _read_file(
    result: ReadResult, seen: dict[str, int], path: Path, name: str, settings: Settings, memo: Memo | None,
) -> int:
    """Read one file's abstracts into `result`, all or none: raise BadFile (adding nothing) when it breaks.

    Return how many papers it gave (merged duplicates included).
    """
    fmt = format_of(path, settings.input_format)
    collection = settings.default_collection or collection_from_stem(path.stem)
    if not fmt.structured:
        data = path.read_bytes()
        try:
            text = decode(data, name)
        except BadFile as bad:
            raise BadFile(name, bad.line, bad.reason, len(split_paragraphs(data.decode("utf-8", "replace")))) from None
        collection, paragraphs = parse_digest(text, collection)
        return _add_text(result, seen, paragraphs, name, collection, settings, memo)
    items: list[Paper | Problem] = []
    papers = 0
    try:
        if fmt.streamed:
            # Large exports are read line by line: the file is never held whole in memory.
            with path.open("rb") as handle:
                for item in iter_records(name, fmt.name, stream_lines(handle, name)):
                    papers += _convert(items, item, name, collection, settings)
        else:
            for item in iter_records(name, fmt.name, decode(path.read_bytes(), name)):
                papers += _convert(items, item, name, collection, settings)
    except BadFile as bad:
        # What was read before the break counts, when the reader could not count the file.
        raise BadFile(name, bad.line, bad.reason, max(bad.seen, papers)) from None
    for found in items:
        if isinstance(found, Problem):
            result.problems.append(found)
        else:
            _add(result, seen, found)
    return papers


def _add_text(
    result: ReadResult, seen: dict[str, int], paragraphs: list[Paragraph], name: str, collection: str,
    settings: Settings, memo: Memo | None = None,
) -> int:
    """Add a text digest's abstracts: its paragraphs, each joined to the one before when it goes on from it.

    A paragraph past the bounds (`max_abstract_chars`, `max_abstract_sentences`) is reported, not added; joins
    that would make an abstract past them are undone. Return how many papers were added.
    """
    kept = []
    for paragraph in paragraphs:
        if not has_words(paragraph.text):
            result.problems.append(Problem("warning", name, paragraph.line, "paragraph has no words; skipped"))
        elif past := runaway(paragraph, name, settings.max_abstract_chars, settings.max_abstract_sentences):
            result.problems.append(past)
        else:
            kept.append(paragraph)
    texts = [paragraph.text for paragraph in kept]
    doubts: list[Doubt] = []
    workers = settings.forked_workers(len(kept))
    groups, joins = (
        group(texts, memo=memo, workers=workers, doubts=doubts, cased=has_case(texts)) if settings.join_paragraphs
        else ([[i] for i in range(len(kept))], [])
    )
    alone = {i for i, paragraph in enumerate(kept) if paragraph.alone}
    groups, joins = within_bounds(groups, joins, texts, settings.max_abstract_chars, settings.max_abstract_sentences,
                                  alone)
    doubts = [doubt for doubt in doubts if doubt.index not in alone]
    place: dict[int, tuple[int, int]] = {index: (g, n) for g, indexes in enumerate(groups)
                                         for n, index in enumerate(indexes, start=1)}
    fingerprints: list[str] = []
    for joined in joins:
        this, onto = kept[joined.index], kept[joined.onto]
        result.problems.append(Problem(
            "info", name, this.line, f"paragraph {this.number} joined to paragraph {onto.number}: {joined.reason}",
            kind="joined",
        ))
    for indexes in groups:
        # The paragraphs stay paragraphs: the page shows each, and the source is the first one's.
        abstract = PARAGRAPH_BREAK.join(texts[i] for i in indexes)
        first = kept[indexes[0]]
        paper = Paper(
            id=known_id(abstract, memo),
            abstract=abstract,
            collection=collection,
            source=Source(name, first.number, first.line),
        )
        fingerprints.append(paper.id)
        result.parts.setdefault(paper.id, tuple((kept[i].number, kept[i].line) for i in indexes))
        _add(result, seen, paper)
    for doubt in doubts:
        this, onto = kept[doubt.index], kept[doubt.onto]
        number, position = place[doubt.index]
        result.doubts.append(Doubtful(name, this.line, this.number, onto.number, doubt.joined, doubt.score,
                                      fingerprints[number], position, this.text))
    return len(groups)


def stream_lines(handle, name: str) -> Iterator[str]:
    """Yield the decoded lines of a binary file (BOM and line ends removed), or raise a clear error."""
    offset = 0
    for number, raw in enumerate(handle, start=1):
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise _not_utf8(name, number, offset + exc.start, raw[exc.start]) from exc
        offset += len(raw)
        yield line.rstrip("\r\n")


def _convert(items: list[Paper | Problem], item: RawRecord | Problem, name: str, collection: str,
             settings: Settings) -> int:
    """Append a record's paper, or its problem, to `items`; return 1 for a paper, else 0."""
    if isinstance(item, Problem):
        items.append(item)
        return 0
    try:
        values, source = to_paper(item, name, collection, max_chars=settings.max_abstract_chars)
    except (ValueError, TypeError) as exc:
        kind = "no-abstract" if isinstance(exc, NoAbstract) else "too-long" if isinstance(exc, TooLong) else ""
        items.append(Problem("error", name, item.line or None, f"record {item.index}: {exc}"
                             + ("" if kind == "too-long" else "; skipped"), kind=kind, lost=int(kind == "too-long")))
        return 0
    items.append(build_paper(values, source, paper_id(values["abstract"])))
    return 1


def _add(result: ReadResult, seen: dict[str, int], paper: Paper) -> None:
    """Add a paper, or merge it into the earlier paper with the same abstract."""
    if paper.id in seen:
        index = seen[paper.id]
        first = result.papers[index]
        result.papers[index] = replace(first, also_in=(*first.also_in, paper.source))
        result.problems.append(
            Problem("info", paper.source.file, paper.source.line or None,
                    f"{paper.source.unit} {paper.source.paragraph}: same abstract as {first.source}; "
                    "merged into one page", kind="merged")
        )
        return
    seen[paper.id] = len(result.papers)
    result.papers.append(paper)


def no_abstracts(result: ReadResult) -> str:
    """Return the error for sources that gave no abstract, naming the files and why."""
    said = {p.file: p.message for p in result.problems
            if (p.level == "warning" or p.kind == "bad-file") and p.file in result.files}
    bare = Counter(p.file for p in result.problems if p.kind == "no-abstract")
    for name, count in bare.items():
        said.setdefault(name, f"{count} records without an abstract")
    named = [f"{name} ({said[name]})" if name in said else name for name in result.files[:3]]
    more = f" and {len(result.files) - 3} more files" if len(result.files) > 3 else ""
    return f"no abstracts found in {', '.join(named)}{more}; nothing to build"


def _display_name(path: Path, settings: Settings) -> str:
    """Name a file stably, never by an absolute path (pages and exports show it): relative to the
    project, else to the current folder, else its folder and file name."""
    resolved = path.resolve()
    for base in (settings.project_dir, Path.cwd()):
        try:
            return resolved.relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    if not path.is_absolute() and ".." not in path.parts:
        return path.as_posix()
    return "/".join(resolved.parts[-2:])
