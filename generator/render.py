"""Render enriched papers into Markdown pages and papers.json: the output edge.

Every generated file is listed in a manifest inside the docs dir, so a later
run can delete what no longer belongs without touching hand-written files. A
file is rewritten only when its content changes.
"""

from __future__ import annotations

import html
import json
import logging
import multiprocessing
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from contextlib import contextmanager
from typing import Iterable, Iterator

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from slugify import slugify

from .errors import DigestError
from .charts import bar_chart
from .exports import bibtex_entry, bibtex_file, citation_key, code_fence, papers_csv
from .model import Collection, Paper, Progress, Tag, no_progress
from .pagefind import RECORDS_FILE, search_records
from .settings import Settings
from .stamps import files_digest
from .text import clean, escape_line, paragraphs_to_markdown, safe_url

log = logging.getLogger(__name__)

MANIFEST = ".paper-digest-manifest.json"
#: Written beside the pages (a dot file: MkDocs does not publish it) for the build stage.
SEARCH_ENGINE_FILE = ".paper-digest-search"
_ATTR_SAFE = re.compile(r"[^\w\s,.-]")


@dataclass
class RenderResult:
    """What rendering did to the docs dir."""

    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0

    @property
    def total(self) -> int:
        return len(self.written) + self.unchanged


@dataclass(frozen=True)
class TagGroup:
    """A tag with the papers that carry it, strongest first."""

    tag: Tag
    papers: tuple[Paper, ...]
    related: tuple[tuple[Tag, int], ...]


def front_matter_string(text: str) -> str:
    """Quote text for a front matter field, escaped for HTML.

    Material inserts `title` and `description` into the page unescaped (in
    <title>, the header and a <meta> attribute), so they are HTML-escaped here.
    A JSON string is a valid YAML double-quoted scalar; non-ASCII stays as is
    because YAML rejects the surrogate-pair escapes JSON would write for emoji.
    Splitting on whitespace also removes line and paragraph separators.
    """
    return json.dumps(html.escape(" ".join(clean(str(text)).split()), quote=True), ensure_ascii=False)


def attr_text(text: str) -> str:
    """Reduce text to characters safe inside a quoted attr_list value."""
    return _ATTR_SAFE.sub("", str(text))


def web_url(url: str) -> str:
    """Return an http(s) URL made safe for a Markdown link target, or '' for anything else."""
    url = str(url).strip()
    return safe_url(url) if re.match(r"https?://[^\s<>]+$", url, re.I) else ""


def make_environment(templates_dir: Path) -> Environment:
    """Return the Jinja2 environment for Markdown templates."""
    if not templates_dir.is_dir():
        raise DigestError(f"{templates_dir}: templates folder not found (run from the project folder)")
    env = Environment(
        loader=FileSystemLoader(templates_dir),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=StrictUndefined,
        # Markdown, not HTML: untrusted text goes through the md filters instead.
        autoescape=select_autoescape(enabled_extensions=(), default=False),
    )
    env.filters.update(
        md=paragraphs_to_markdown, md_text=escape_line, yaml=front_matter_string, attr=attr_text, web_url=web_url
    )
    return env


def collections_of(papers: list[Paper]) -> dict[str, Collection]:
    """Return each collection name's Collection, with unique slugs."""
    result: dict[str, Collection] = {}
    used: set[str] = set()
    for name in sorted({p.collection for p in papers}):
        slug = slugify(name, max_length=60) or "collection"
        base, n = slug, 2
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        result[name] = Collection(name, slug)
    return result


def group_by_tag(papers: list[Paper]) -> list[TagGroup]:
    """Return every tag with its papers (by confidence) and co-occurring tags."""
    members: dict[str, list[tuple[Tag, Paper]]] = defaultdict(list)
    for paper in papers:
        for tag in paper.tags:
            members[tag.slug].append((tag, paper))
    groups = []
    for slug, pairs in members.items():
        tag = pairs[0][0]
        ordered = tuple(p for _, p in sorted(pairs, key=lambda tp: (-tp[0].confidence, tp[1].title.casefold())))
        co: Counter[str] = Counter()
        names: dict[str, Tag] = {}
        for paper in ordered:
            for other in paper.tags:
                if other.slug != slug:
                    co[other.slug] += 1
                    names.setdefault(other.slug, other)
        related = tuple((names[s], n) for s, n in sorted(co.items(), key=lambda kv: (-kv[1], kv[0]))[:8])
        groups.append(TagGroup(tag, ordered, related))
    groups.sort(key=lambda g: (g.tag.kind != "area", -len(g.papers), g.tag.name))
    return groups


def filter_json(papers: list[Paper], groups: list[TagGroup]) -> str:
    """Return the tag filter's compact data: tags, and per paper its title, url and tag indexes."""
    tags = [{"slug": g.tag.slug, "name": g.tag.name, "kind": g.tag.kind, "count": len(g.papers)} for g in groups]
    index = {g.tag.slug: i for i, g in enumerate(groups)}
    rows = [[p.title, p.url, sorted(index[t.slug] for t in p.tags), citation_key(p), p.id] for p in papers]
    return json.dumps({"tags": tags, "papers": rows}, ensure_ascii=False, separators=(",", ":")) + "\n"


#: Colours of the map's areas, distinguishable on light and dark backgrounds.
MAP_COLOURS = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
    "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
    "#7f7f7f", "#aec7e8", "#ffbb78",
)


def map_json(papers: list[Paper], areas: list[TagGroup]) -> str:
    """Return the topic map's data: areas with colours, and per paper its place, area, title and url."""
    index = {g.tag.slug: i for i, g in enumerate(areas)}
    points = []
    for paper in papers:
        # A point takes the colour of the paper's first (most likely) area.
        area = next((index[t.slug] for t in paper.tags if t.kind == "area" and t.slug in index), -1)
        points.append([paper.position[0], paper.position[1], area, paper.title, paper.url])
    counts = Counter(point[2] for point in points)
    legend = [
        {"name": g.tag.name, "slug": g.tag.slug, "count": counts[i], "color": MAP_COLOURS[i % len(MAP_COLOURS)]}
        for i, g in enumerate(areas)
    ]
    return json.dumps({"areas": legend, "points": points}, ensure_ascii=False, separators=(",", ":")) + "\n"


def topic_pairs(papers: list[Paper], count: int = 15) -> list[tuple[Tag, Tag, int]]:
    """Return the topic pairs that share the most papers (linear in papers x topics per paper)."""
    pairs: Counter[tuple[str, str]] = Counter()
    names: dict[str, Tag] = {}
    for paper in papers:
        topics = sorted((t for t in paper.tags if t.kind == "topic"), key=lambda t: t.slug)
        for i, first in enumerate(topics):
            names[first.slug] = first
            for second in topics[i + 1 :]:
                pairs[(first.slug, second.slug)] += 1
    ranked = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:count]
    return [(names[a], names[b], n) for (a, b), n in ranked]


def topics_by_area(areas: list[TagGroup], topics: list[TagGroup]) -> dict[str, list[TagGroup]]:
    """Place each topic under the area that holds most of its papers (ties: area name)."""
    placed: dict[str, list[TagGroup]] = {group.tag.slug: [] for group in areas}
    for topic in topics:
        counts = Counter(t.slug for paper in topic.papers for t in paper.tags if t.kind == "area")
        if counts:
            home = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            placed.setdefault(home, []).append(topic)
    return placed


def papers_json(papers: list[Paper], collections: dict[str, Collection]) -> str:
    """Return papers.json: one object per paper, in input order, byte-stable."""
    records = [
        {
            "id": p.id,
            "slug": p.slug,
            "url": p.url,
            "title": p.title,
            "title_inferred": p.title_inferred,
            "title_source": p.title_source,
            "summary": p.summary,
            "tags": [
                {"name": t.name, "slug": t.slug, "kind": t.kind, "url": t.url, "confidence": t.confidence,
                 "evidence": list(t.evidence)}
                for t in p.tags
            ],
            "collection": p.collection,
            "collection_url": collections[p.collection].url,
            "source": _source_json(p.source),
            "also_in": [_source_json(s) for s in p.also_in],
            "authors": list(p.authors),
            "keywords": list(p.keywords),
            "given_area": p.given_area,
            "year": p.year,
            "source_url": p.link,
            "source_id": p.source_id,
            "related": list(p.related),
            "abstract": p.abstract,
        }
        for p in papers
    ]
    return json.dumps(records, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _source_json(source) -> dict:
    return {"file": source.file, source.unit: source.paragraph, "line": source.line}


def _utf8(text: str) -> bytes:
    return text.encode("utf-8")


def render_pages(papers: list[Paper], settings: Settings, progress: Progress = no_progress) -> dict[str, bytes]:
    """Render every generated file to UTF-8, keyed by path relative to the docs dir.

    Kept as bytes: a text with one emoji is stored at four bytes per character
    as a Python string, and 20,000 papers render to about 400 MB of Markdown.
    """
    env = make_environment(settings.resolve(settings.templates_dir))
    collections = collections_of(papers)
    groups = group_by_tag(papers)
    areas = [g for g in groups if g.tag.kind == "area"]
    topics = [g for g in groups if g.tag.kind == "topic"]
    by_collection: dict[str, list[Paper]] = defaultdict(list)
    for paper in papers:
        by_collection[paper.collection].append(paper)
    title = " + ".join(sorted(collections)) if collections else "Paper digest"
    engine = settings.search_engine(len(papers))
    common = {"digest_title": title, "collections": collections, "paper_count": len(papers), "search_engine": engine}

    files: dict[str, bytes] = {}
    # Each entry appears on its page, in papers.bib and in each of its tags' .bib files.
    entries = {paper.id: bibtex_entry(paper) for paper in papers}
    pages = _PaperPages(env.get_template("paper.md.j2"), common, collections, {p.id: p for p in papers}, entries)
    # The paper pages render (on other cores, for large digests) while this renders the rest.
    with _paper_pages_started(pages, papers, settings.forked_workers(len(papers))) as batches:
        progress("Rendering pages", 0, len(papers))
        files["index.md"] = _utf8(env.get_template("home.md.j2").render(
            **common, areas=areas, topics=topics, by_collection=by_collection, papers=papers
        ))
        files["tags/index.md"] = _utf8(env.get_template("tags_index.md.j2").render(
            **common, areas=areas, topics=topics, topics_by_area=topics_by_area(areas, topics)
        ))
        for group in groups:
            files[group.tag.path] = _utf8(env.get_template("tag.md.j2").render(**common, group=group))
        files["stats.md"] = _utf8(env.get_template("stats.md.j2").render(
            **common, areas=areas, topics=topics, by_collection=by_collection,
            area_chart=bar_chart([(g.tag.name, len(g.papers), f"../{g.tag.url}") for g in areas], "Papers per research area"),
            topic_chart=bar_chart([(g.tag.name, len(g.papers), f"../{g.tag.url}") for g in topics[:40]], "Papers per topic"),
            pairs=topic_pairs(papers),
        ))
        files["collections/index.md"] = _utf8(env.get_template("collections_index.md.j2").render(
            **common, by_collection=by_collection
        ))
        for name, collection in collections.items():
            files[collection.path] = _utf8(env.get_template("collection.md.j2").render(
                **common, collection=collection, papers=by_collection[name]
            ))
        files["papers.json"] = _utf8(papers_json(papers, collections))
        files["papers.csv"] = _utf8(papers_csv(papers))
        files["filter.md"] = _utf8(env.get_template("filter.md.j2").render(**common))
        files["starred.md"] = _utf8(env.get_template("starred.md.j2").render(**common))
        files["map.md"] = _utf8(env.get_template("map.md.j2").render(**common))
        files["map.json"] = _utf8(map_json(papers, areas))
        files["filter.json"] = _utf8(filter_json(papers, groups))
        files["papers.bib"] = _utf8(bibtex_file(papers, entries))
        for group in groups:
            files[f"tags/{group.tag.slug}.bib"] = _utf8(bibtex_file(list(group.papers), entries))
        done = 0
        for batch in batches:
            files.update(batch)
            done += len(batch)
            progress("Rendering pages", done, len(papers))
    # Read by the build stage: which engine indexes the site, and what Pagefind indexes.
    files[SEARCH_ENGINE_FILE] = _utf8(engine + "\n")
    if engine == "pagefind":
        files[RECORDS_FILE] = _utf8(search_records(papers))
    return files


@dataclass(frozen=True)
class _PaperPages:
    """What every paper page is rendered from besides its paper."""

    template: object
    common: dict
    collections: dict[str, Collection]
    by_id: dict[str, Paper]
    entries: dict[str, str]

    def render(self, paper: Paper) -> tuple[str, bytes]:
        own = {tag.slug for tag in paper.tags}
        related = [
            (self.by_id[pid], [tag for tag in self.by_id[pid].tags if tag.slug in own])
            for pid in paper.related if pid in self.by_id
        ]
        bibtex = self.entries[paper.id]
        text = self.template.render(
            **self.common, paper=paper, collection=self.collections[paper.collection], related=related,
            bibtex=bibtex, fence=code_fence(bibtex),
        )
        return paper.path, text.encode("utf-8")


_PAGES_PER_JOB = 500
# What the workers render from: set before they fork, read-only after.
_WORKER_PAGES: tuple[_PaperPages, list[Paper]] | None = None


def _render_batch(pages: _PaperPages, papers: list[Paper], start: int) -> list[tuple[str, bytes]]:
    return [pages.render(paper) for paper in papers[start : start + _PAGES_PER_JOB]]


def _render_range(start: int) -> list[tuple[str, bytes]]:
    return _render_batch(*_WORKER_PAGES, start)


@contextmanager
def _paper_pages_started(
    pages: _PaperPages, papers: list[Paper], workers: int
) -> Iterator[Iterable[list[tuple[str, bytes]]]]:
    """Start rendering every paper page; yield batches of (path, UTF-8 Markdown) in input order.

    With `workers` (forked processes sharing the papers and the compiled
    template), they start at once, so the caller renders the other pages meanwhile.
    """
    global _WORKER_PAGES
    starts = range(0, len(papers), _PAGES_PER_JOB)
    if not workers:
        yield (_render_batch(pages, papers, start) for start in starts)
        return
    _WORKER_PAGES = (pages, papers)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield pool.imap(_render_range, starts)
    finally:
        _WORKER_PAGES = None


def _sync_file(path: Path, data: bytes) -> bool:
    """Write `data` to `path` unless it already holds exactly that; return True when written."""
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.write_bytes(data)
    return True


def write_files(files: dict[str, bytes], docs_dir: Path) -> RenderResult:
    """Write generated files that changed; delete generated files no longer produced."""
    result = RenderResult()
    manifest_path = docs_dir / MANIFEST
    previous = _read_manifest(manifest_path)
    for rel in sorted(files):
        path = docs_dir / rel
        if rel not in previous and path.exists():
            raise DigestError(
                f"{path}: a hand-written file is in the way of a generated page; move it or rename it"
            )
    ordered = sorted(files)
    for folder in sorted({(docs_dir / rel).parent for rel in ordered}):
        folder.mkdir(parents=True, exist_ok=True)
    for rel in ordered:
        if _sync_file(docs_dir / rel, files[rel]):
            result.written.append(rel)
        else:
            result.unchanged += 1
    for rel in sorted(set(previous) - set(files)):
        path = docs_dir / rel
        if path.is_file():
            path.unlink()
            result.deleted.append(rel)
            _remove_empty_parents(path.parent, docs_dir)
    manifest = json.dumps(sorted(files), indent=0) + "\n"
    if not manifest_path.exists() or manifest_path.read_text(encoding="utf-8") != manifest:
        manifest_path.write_text(manifest, encoding="utf-8")
    return result


def render_site(papers: list[Paper], settings: Settings, progress: Progress = no_progress) -> RenderResult:
    """Render the papers into the docs dir; return what was written and deleted."""
    files = render_pages(papers, settings, progress)
    result = write_files(files, settings.docs_path)
    log.info("rendered %d files: %d written, %d deleted", result.total, len(result.written), len(result.deleted))
    return result


def generated_fingerprint(docs_dir: Path) -> str:
    """Return a hash of the generated files as they are on disk (names, sizes, times).

    It changes when a generated page is edited, deleted or rewritten by hand.
    """
    manifest = docs_dir / MANIFEST
    return files_digest([manifest, *(docs_dir / rel for rel in sorted(_read_manifest(manifest)))], root=docs_dir)


def _read_manifest(path: Path) -> set[str]:
    if not path.exists():
        return set()
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DigestError(f"{path}: the generator's manifest is damaged; delete it and build again") from exc
    # Only relative paths inside the docs dir: a tampered manifest cannot reach outside.
    return {e for e in entries if isinstance(e, str) and not e.startswith("/") and ".." not in e.split("/")}


def _remove_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
