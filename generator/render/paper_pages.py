"""Paper pages, rendered in fresh processes for large digests (page_processes.py) while this renders the rest.

A page whose inputs are the same as when it was last written (its key: the
paper, its related papers' titles and links, its BibTeX entry, the templates
and code) is left as it is in the docs dir instead of rendered, through a
`PageMemo` the output edge provides: an edit re-renders a few pages, not all.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from jinja2 import FileSystemLoader, Template

from ..model import Collection, Paper
from ..rows import RowMemo
from .page_processes import PageProcesses

#: What of `PaperPages.common` a paper page shows; the rest (the digest's size, every
#: collection) changes with any added paper and must not make every page render again.
PAGE_COMMON = ("digest_title", "paths", "search_engine")


class PageMemo(RowMemo, Protocol):
    """Pages written by the last run, by docs-dir path and key (and the rows of its digest-wide files)."""

    #: A hash of the templates and code the pages were rendered with: part of every key.
    fingerprint: str

    def kept(self, path: str, key: str) -> bool:
        """Return True if the file at `path` is as the last run wrote it, under the key `key` (it is not read)."""

    def record(self, path: str, key: str, reused: bool) -> None:
        """Note the key of the page at `path` as rendered (or `reused`: left as it is) now."""


def left_as_is(memo: PageMemo, path: str, key: str) -> bool:
    """Record the key of the file at `path` in `memo`; return True if the file there is still right (kept)."""
    kept = memo.kept(path, key)
    memo.record(path, key, kept)
    return kept


@dataclass(frozen=True)
class RelatedLink:
    """A related paper as a paper page shows it (the page's key covers both)."""

    title: str
    url: str


@dataclass(frozen=True)
class PaperPages:
    """What every paper page is rendered from besides its paper."""

    template: Template
    common: dict
    collections: dict[str, Collection]
    by_id: dict[str, Paper]
    entries: dict[str, str]

    #: Pages of the last run.
    memo: PageMemo | None = None
    #: Each paper's row key (rows.paper_keys: its whole record and its collection's URL), by id; with `memo`.
    record_keys: Mapping[str, str] = field(default_factory=dict)

    def render(self, paper: Paper) -> tuple[str, bytes | None, str, bool]:
        """Return the page's path, its UTF-8 Markdown, its key ('' without a memo) and whether it was reused.

        A reused page (the one in the docs dir is still right) is not read: its Markdown is None.
        """
        path, key, arguments = self.arguments(paper)
        if arguments is None:
            return path, None, key, True
        return path, self.text(arguments), key, False

    def arguments(self, paper: Paper) -> tuple[str, str, dict | None]:
        """Return the page's path, its key ('' without a memo) and its template's own arguments (None: reused)."""
        own = {tag.slug for tag in paper.tags}
        weak_from = len(paper.related) - paper.related_weak
        related = [
            (self.by_id[pid], [tag for tag in self.by_id[pid].tags if tag.slug in own], rank >= weak_from)
            for rank, pid in enumerate(paper.related) if pid in self.by_id
        ]
        key = ""
        if self.memo is not None:
            key = self._key(self.memo.fingerprint, self.record_keys[paper.id], related)
            if self.memo.kept(paper.path, key):
                return paper.path, key, None
        bibtex = citation(self.entries[paper.id])
        collection = self.collections[paper.collection]
        # A related paper is shown by its title and link: only those are sent (a whole paper, abstract
        # and all, pickled for a page process five times over cost the generator a minute at 100,000).
        links = [(RelatedLink(other.title, other.url), shared, weak) for other, shared, weak in related]
        return paper.path, key, {"paper": paper, "collection": collection, "related": links, "bibtex": bibtex}

    @property
    def shown_common(self) -> dict:
        """What of `common` the template is given: only what the page's key covers."""
        return {name: self.common[name] for name in PAGE_COMMON}

    def text(self, arguments: dict) -> bytes:
        """Return the page rendered from its template arguments (`arguments`), as UTF-8."""
        # Only what the key covers reaches the template (StrictUndefined: anything else fails loudly).
        return self.template.render(**self.shown_common, **arguments).encode("utf-8")

    def _key(self, fingerprint: str, record_key: str, related: list[tuple[Paper, list, bool]]) -> str:
        # Everything the page shows, and nothing it does not. The paper's record key covers the
        # paper, its collection and its BibTeX entry (made from the record): hashed once per run.
        shown = (
            record_key,
            [(other.title, other.path, [(t.name, t.path, t.kind) for t in shared], weak)
             for other, shared, weak in related],
            [(name, self.common[name]) for name in PAGE_COMMON],
        )
        digest = hashlib.blake2b(fingerprint.encode("utf-8"), digest_size=16)
        digest.update(repr(shown).encode("utf-8", "surrogatepass"))
        return digest.hexdigest()


#: An entry's abstract field: one line (BibTeX fields are written on one line each), the last field or not.
_ABSTRACT_LAST = re.compile(r",\n  abstract = [^\n]*(?=\n\}\n?$)")
_ABSTRACT = re.compile(r"\n  abstract = [^\n]*,(?=\n)")


def citation(entry: str) -> str:
    """Return a paper's BibTeX entry without its abstract, for the page's Cite block.

    The page shows the abstract just above, and a reference manager needs none; papers.bib and the
    topic exports keep it (issue 43: the abstract was stored on each page twice).
    """
    return _ABSTRACT.sub("", _ABSTRACT_LAST.sub("", entry))


_PAGES_PER_JOB = 500


def _render_batch(pages: PaperPages, papers: list[Paper], start: int) -> list[tuple[str, bytes | None, str, bool]]:
    return [pages.render(paper) for paper in papers[start : start + _PAGES_PER_JOB]]


@contextmanager
def paper_pages_started(
    pages: PaperPages, papers: list[Paper], workers: int
) -> Iterator[Iterable[list[tuple[str, bytes | None, str, bool]]]]:
    """Start rendering every paper page; yield batches of (path, UTF-8 Markdown or None, key, reused) in input order.

    With `workers` (fresh processes given each job's template arguments: page_processes.py), they
    start at once, so the caller renders the other pages meanwhile. Without a template from a folder
    (a FileSystemLoader's) to give them, the pages render here.
    """
    starts = range(0, len(papers), _PAGES_PER_JOB)
    loader = pages.template.environment.loader
    if not workers or not isinstance(loader, FileSystemLoader) or pages.template.name is None:
        yield (_render_batch(pages, papers, start) for start in starts)
        return
    metas: dict[int, list[tuple[str, str]]] = {}

    def prepare(k: int) -> list[dict | None]:
        # Run by a feeding thread per process: the keys and memo checks are made beside the caller's work.
        chosen = [pages.arguments(paper) for paper in papers[starts[k] : starts[k] + _PAGES_PER_JOB]]
        metas[k] = [(path, key) for path, key, _ in chosen]
        return [arguments for _, _, arguments in chosen]

    with PageProcesses(workers, list(loader.searchpath), pages.template.name, pages.shown_common, pages.text) as pool:
        yield (
            [(path, data, key, data is None) for (path, key), data in zip(metas.pop(k), _merged(job, rendered),
                                                                           strict=True)]
            for k, (job, rendered) in enumerate(pool.pages(len(starts), prepare))
        )


def _merged(job: list[dict | None], rendered: list[bytes]) -> list[bytes | None]:
    """Return each page of `job`: its rendered bytes in order, None where the memo kept it."""
    pages = iter(rendered)
    return [next(pages) if arguments is not None else None for arguments in job]
