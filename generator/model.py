"""The typed records that pass between the pipeline's stages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from .languages import RIGHT_TO_LEFT

#: Progress callback: (what is being done, items done, items in all). Stages call it now and then.
Progress = Callable[[str, int, int], None]


def no_progress(_what: str, _done: int, _total: int) -> None:
    """A progress callback that shows nothing."""

#: The docs-dir folders whose pages the generator writes, one page per paper, tag and collection.
PAPERS_FOLDER, TAGS_FOLDER, COLLECTIONS_FOLDER = "papers", "tags", "collections"
#: The All papers listing's other orders and pages (its first page is all.md, beside the folder).
ALL_FOLDER = "all"
GENERATED_FOLDERS = (PAPERS_FOLDER, TAGS_FOLDER, COLLECTIONS_FOLDER, ALL_FOLDER)


@dataclass(frozen=True)
class SitePaths:
    """The site's fixed generated files, relative to the docs dir: one name for render and the templates."""

    home: str = "index.md"
    about: str = "about.md"
    tags_index: str = f"{TAGS_FOLDER}/index.md"
    #: Its published address: where a topic no longer in the digest leads (identity/tag_addresses.py).
    tags_index_url: str = f"{TAGS_FOLDER}/"
    collections_index: str = f"{COLLECTIONS_FOLDER}/index.md"
    stats: str = "stats.md"
    filter: str = "filter.md"
    starred: str = "starred.md"
    #: The first page of the All papers listing (newest first; other orders and pages under all/).
    all_papers: str = f"{ALL_FOLDER}.md"
    #: "Papers like this abstract": a reader's text against the digest, in the browser.
    similar: str = "similar.md"
    #: Its published address, for the HTML links of paper pages (MkDocs rewrites only Markdown links).
    similar_url: str = "similar/"
    map: str = "map.md"
    papers_json: str = "papers.json"
    papers_csv: str = "papers.csv"
    papers_bib: str = "papers.bib"
    filter_json: str = "filter.json"
    map_json: str = "map.json"
    feed: str = "feed.xml"


#: Templates receive it as `paths`.
PATHS = SitePaths()


class _Page:
    """A generated page at `<FOLDER>/<slug>`: where its Markdown goes and where it is published."""

    FOLDER: ClassVar[str]
    slug: str

    @property
    def path(self) -> str:
        """Return the Markdown path of the page, relative to the docs dir."""
        return f"{self.FOLDER}/{self.slug}.md"

    @property
    def url(self) -> str:
        """Return the published URL of the page, relative to the site root."""
        return f"{self.FOLDER}/{self.slug}/"

    @property
    def site_root(self) -> str:
        """Return the relative prefix from the page's published address to the site root ("../../").

        For links the page writes as HTML, which MkDocs does not rewrite as it does Markdown links.
        """
        return "../" * self.url.count("/")


def page_path(path: str, number: int) -> str:
    """Return the docs-dir path of page `number` of the list whose first page is `path` (a .md file)."""
    return path if number == 1 else f"{path.removesuffix('.md')}/page/{number}.md"


def page_url(url: str, number: int) -> str:
    """Return the site URL of page `number` of the list whose first page is at `url` (ending in /)."""
    return url if number == 1 else f"{url}page/{number}/"


def page_count(papers: int, size: int) -> int:
    """Return how many pages a list of `papers` takes at `size` a page (an empty list has one)."""
    return max(1, -(-papers // size))


@dataclass(frozen=True)
class TagPage:
    """A topic's or area's listing as the site publishes it: what the lock keeps so its addresses last."""

    #: The first page's address ("tags/parsing/"); page n is at `page_url(url, n)`.
    url: str
    name: str
    #: The broader topic it is a sub-topic of, where a reader is sent if it goes ("" for none).
    parent: str = ""
    #: How many listing pages it has: in the lock, the most it ever had.
    pages: int = 1

    def addresses(self) -> tuple[str, ...]:
        """Return the address of each of its listing pages, the first first."""
        return tuple(page_url(self.url, n) for n in range(1, self.pages + 1))


#: How a name list's `and others` (et al.) is shown among a paper's authors (papers.bib writes `and others`).
ET_AL = "et al."

TagKind = Literal["area", "topic"]
TitleSource = Literal["given", "corrected", "named-method", "headline", "contribution", "llm"]


@dataclass(frozen=True)
class Source:
    """Where an abstract came from: a file, the paragraph number and its first line."""

    file: str
    paragraph: int
    line: int
    #: What `paragraph` counts: paragraphs of a text digest, or records of a structured file.
    unit: str = "paragraph"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where} ({self.unit} {self.paragraph})"


@dataclass(frozen=True)
class Tag(_Page):
    """A topic tag or research area attached to a paper."""

    FOLDER = TAGS_FOLDER

    name: str
    slug: str
    kind: TagKind
    confidence: float = 1.0
    evidence: tuple[str, ...] = ()
    #: The broader topic this one is a sub-topic of ("Deep RL Algorithms" for "Offline RL"): its page lists this
    #: topic's papers too, and names this topic among its sub-topics. Empty for areas and top-level topics.
    parent: str = ""

    @property
    def feed_path(self) -> str:
        """Return the path of the tag's Atom feed, relative to the docs dir.

        At the site root, as the digest's own feed: Material's instant
        navigation looks for a sitemap.xml beside every `rel=alternate` link,
        and only the root has one.
        """
        return self.feed_at(self.url)

    @staticmethod
    def feed_at(url: str) -> str:
        """Return the feed path of the tag whose page is published at `url` ("tags/x/" -> "feed-x.xml")."""
        return f"feed-{url.removeprefix(f'{TAGS_FOLDER}/').rstrip('/')}.xml"

    @property
    def bib_path(self) -> str:
        """Return the path of the tag's BibTeX export (its papers' entries), relative to the docs dir."""
        return f"{TAGS_FOLDER}/{self.slug}.bib"


@dataclass(frozen=True)
class Paper(_Page):
    """One abstract and everything the pipeline learns about it.

    The reader fills `abstract`, `collection` and `source` (and `tldr` when the source gives
    one), and sets `id` to the abstract's fingerprint; the identity stage (generator/identity)
    replaces it with the paper's stable id and sets `added`; enrichment adds the id-derived
    `slug`, the `title`, the `plain` text, its `summary` and the `tags`.
    """

    FOLDER = PAPERS_FOLDER

    id: str
    abstract: str
    collection: str
    source: Source
    title: str = ""
    title_source: TitleSource = "headline"
    #: How likely a strict reader would not call an inferred title bad (0 to 1; 1.0 for a given title).
    title_confidence: float = 1.0
    #: The language model that wrote the title (title_source "llm"; `paper-digest infer`), else "".
    title_model: str = ""
    slug: str = ""
    #: The abstract as plain prose (no markup, math as text), for exports.
    plain: str = ""
    summary: str = ""
    tags: tuple[Tag, ...] = ()
    also_in: tuple[Source, ...] = field(default=())
    #: Fields a structured source may give (JSON, CSV, BibTeX, arXiv); empty otherwise.
    authors: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    given_area: str = ""
    #: The paper's own address at its source (a PDF or abstract page), when the record gives one.
    source_url: str = ""
    year: str = ""
    #: The record's venue with its year ("NeurIPS 2016", a personal library's journal), when it gives one.
    venue: str = ""
    #: Classification the source gives (arXiv categories by name): shown as metadata, never topics.
    subjects: tuple[str, ...] = ()
    #: The source's bibliographic fields papers.bib writes back (read/metadata.py: CITATION_FIELDS), in order.
    citation: tuple[tuple[str, str], ...] = ()
    #: The record's own date (YYYY-MM-DD), when it gives one (arXiv `published`, a `date` field).
    date: str = ""
    source_id: str = ""
    #: The source's own one-line summary (a `tldr` / `TL;DR` field), used as the summary as given.
    tldr: str = ""
    #: The language the abstract is written in (ISO 639-1: "en", "zh", "de" ...), detected in enrich.
    lang: str = "en"
    #: Ids of the most similar papers of the digest, best first.
    related: tuple[str, ...] = ()
    #: How many of the last `related` are weak matches (below the similarity floor, shown only to fill the list).
    related_weak: int = 0
    #: The paper's strongest words as (word, TF-IDF weight, idf), for "papers like this abstract".
    terms: tuple[tuple[str, float, float], ...] = ()
    #: When the paper was first seen: 1 for the first paper the digest ever had, then 2, 3 ... in
    #: the order papers arrived (kept in the lock file; never reused). Sort by it, descending, for
    #: "newest first". 0 before the identity stage has run.
    added: int = 0

    @property
    def title_inferred(self) -> bool:
        return self.title_source not in ("given", "corrected")

    @property
    def text_direction(self) -> str:
        """Return "rtl" when the abstract's language is written right to left, else "" (the page's own)."""
        return "rtl" if self.lang in RIGHT_TO_LEFT else ""



@dataclass(frozen=True)
class Collection(_Page):
    """A named group of papers, usually one digest file or one venue."""

    FOLDER = COLLECTIONS_FOLDER

    name: str
    slug: str


@dataclass(frozen=True)
class Problem:
    """Something wrong or noteworthy in the input, reported to the user."""

    level: Literal["error", "warning", "info"]
    file: str
    line: int | None
    message: str
    #: What an "info" problem tells: "merged" (a duplicate abstract) or "joined" (a paragraph joined to the one before).
    kind: str = ""
    #: The abstracts a "bad-file" or "too-long" problem leaves out (an estimate for a file not read whole).
    lost: int = 0

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"
