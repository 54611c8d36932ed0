"""Render enriched papers into Markdown pages, feeds and data files: the output edge.

`render_pages` turns papers into every generated file (pure, in memory);
`render_site` writes them into the docs dir through `sync`.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from collections.abc import MutableMapping
from pathlib import Path

from ..build.pagefind import RECORDS_FILE, SEARCH_RECORDS, search_record
from ..enrich.maps import MapLayout
from ..formats import FORMATS, format_of
from ..model import PATHS, Collection, Paper, Progress, Tag, no_progress
from ..project import configured_identity, template_dirs
from ..rows import join_rows, paper_keys, render_rows
from ..settings import Settings
from ..spool import SpooledFiles
from .all_papers import ORDERS_FILE, all_orders, orders_json, paged_in_browser
from .charts import bar_chart, change_chart, share_chart
from .digest_exports import render_exports
from .exports import bibtex_entry, bibtex_file
from .feeds import atom_feed, newest, newest_first, paper_date
from .groups import TagGroup, area_sources, collections_of, group_by_tag, topic_pairs, topics_by_area
from .listing_pages import ListingGroup, ListingPages
from .listings import paginate
from .map_data import map_json
from .markdown import front_matter_string, make_environment
from .naming import digest_name
from .paper_pages import PageMemo, PaperPages, left_as_is, paper_pages_started
from .payloads import filter_json
from .redirects import redirect_files
from .similar_data import similar_files
from .sync import MANIFEST, PageStore, RenderResult, generated_fingerprint, write_files
from .trends import changes, collection_order, given_areas, shares, shows_trends

log = logging.getLogger(__name__)

__all__ = [
    "MANIFEST", "PageStore", "RenderResult", "front_matter_string", "generated_fingerprint", "render_pages",
    "render_site",
]


def formats_read(papers: list[Paper]) -> str:
    """Return what the papers were read from, in words: "BibTeX bibliographies and CSV paper lists"."""
    found = {format_of(Path(source.file)).name for p in papers for source in (p.source, *p.also_in)}
    labels = [f.label for f in FORMATS if f.name in found]
    return " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels) or "abstracts"


def site_title(settings: Settings, collections: list[str]) -> str:
    """Return the site's name: the `site_name` setting (or mkdocs.yml's), else one made from the collections."""
    return configured_identity(settings).name or digest_name(collections)


def _utf8(text: str) -> bytes:
    return text.encode("utf-8")


def _put(files: MutableMapping[str, bytes], path: str, data: bytes | None) -> None:
    """Add a rendered file; None is a page the memo kept (left as it is in the docs dir)."""
    if data is not None:
        files[path] = data


def render_pages(
    papers: list[Paper], layout: MapLayout, settings: Settings, progress: Progress = no_progress,
    memo: PageMemo | None = None, redirects: dict[str, str] | None = None,
) -> MutableMapping[str, bytes]:
    """Render every generated file to UTF-8, keyed by path relative to the docs dir.

    Kept as bytes: a text with one emoji is stored at four bytes per character
    as a Python string, and 20,000 papers render to about 400 MB of Markdown.
    `layout` gives the papers' places on the map; it is asked last, so that a
    layout drawn in another process is drawn while the rest renders.
    With `memo` (the pages of the last run), a paper or listing page or a feed
    whose inputs did not change is left as it is in the docs dir: it is recorded
    in the memo as reused, and is not in the result. `redirects` (old address:
    new address) adds a redirect page at each old address.
    """
    env = make_environment(template_dirs(settings))
    collections = collections_of(papers)
    groups = group_by_tag(papers)
    areas = [g for g in groups if g.tag.kind == "area"]
    topics = [g for g in groups if g.tag.kind == "topic"]
    by_collection: dict[str, list[Paper]] = defaultdict(list)
    for paper in papers:
        by_collection[paper.collection].append(paper)
    title = site_title(settings, list(collections))
    engine = settings.search_engine(len(papers))
    by_date = newest_first(papers, settings.source_date_epoch)
    # Small digests also write each topic's .bib file; a large one's are made in the browser (exports.js).
    topic_files = len(papers) <= settings.topic_files_max_papers

    # The files' bytes wait on disk, not in memory, until they are written (100,000 papers: 2.5 GB).
    files = SpooledFiles(settings.project_dir)
    # One key per paper for the rows of papers.json, papers.csv, papers.bib and the search records.
    keys = paper_keys(papers, collections, memo.fingerprint) if memo is not None else None
    record_keys = dict(zip((p.id for p in papers), keys, strict=True)) if keys is not None else {}
    # Each entry appears on its page, in papers.bib and in each of its tags' .bib files.
    bib_rows = render_rows(PATHS.papers_bib, papers, bibtex_entry, keys, memo)
    entries = {paper.id: row.decode("utf-8") for paper, row in zip(papers, bib_rows, strict=True)}
    # First, and one at a time: the pages link to each export as written (as it is, or gzipped once large).
    exports = render_exports(papers, collections, bib_rows, keys, memo, topic_files, settings, files)
    del bib_rows
    common = {
        "digest_title": title, "paths": PATHS, "collections": collections, "paper_count": len(papers),
        "search_engine": engine, "site_description": settings.site_description, "topic_files": topic_files,
        "exports": exports, "area_sources": area_sources(areas),
    }
    pages = PaperPages(
        env.get_template("paper.md.j2"), common, collections, {p.id: p for p in papers}, entries, memo, record_keys
    )
    # The paper pages render (on other cores, for large digests) while this renders the rest.
    with paper_pages_started(pages, papers, settings.forked_workers(len(papers))) as batches:
        progress("Rendering pages", 0, len(papers))
        files[PATHS.home] = _utf8(env.get_template("home.md.j2").render(
            **common, areas=areas, topics=topics, by_collection=by_collection, papers=papers
        ))
        files[PATHS.tags_index] = _utf8(env.get_template("tags_index.md.j2").render(
            **common, areas=areas, topics=topics, topics_by_area=topics_by_area(areas, topics)
        ))
        tag_template = env.get_template("tag.md.j2")
        # A paper is listed on its collection's pages and each of its tags' pages: its entry renders once.
        listings = ListingPages(env, common, memo)
        order = collection_order(collections)
        sizes = {name: len(members) for name, members in by_collection.items()}
        by_name = {group.tag.name: group.tag for group in topics}
        for group in groups:
            # With one collection there is no trend to show (nor one to read with hundreds): the chart is absent.
            trend = _trend_chart(group, collections, sizes, order) if shows_trends(order) else ""
            heading = ListingGroup(group.tag, group.related, group.children, by_name.get(group.tag.parent))
            for listing in paginate(group.papers, group.tag.path, settings.listing_size):
                # Only the first page shows the chart: the others' keys do not depend on it.
                shown = trend if listing.number == 1 else ""
                _put(files, listing.path, listings.tag_page(tag_template, listing, heading, shown))
        files[PATHS.stats] = _utf8(env.get_template("stats.md.j2").render(
            **common, areas=areas, topics=topics, by_collection=by_collection,
            area_chart=bar_chart(
                [(g.tag.name, len(g.papers), f"../{g.tag.url}") for g in areas], "Papers per research area"
            ),
            topic_chart=bar_chart(
                [(g.tag.name, len(g.papers), f"../{g.tag.url}") for g in topics[:40]], "Papers per topic"
            ),
            pairs=topic_pairs(papers), trends=_trends(papers, groups, sizes, order),
        ))
        files[PATHS.collections_index] = _utf8(env.get_template("collections_index.md.j2").render(
            **common, by_collection=by_collection
        ))
        collection_template = env.get_template("collection.md.j2")
        for name, collection in collections.items():
            for listing in paginate(by_collection[name], collection.path, settings.listing_size):
                _put(files, listing.path, listings.collection_page(collection_template, listing, collection))
        all_template = env.get_template("all.md.j2")
        orders = all_orders(papers, by_date, areas)
        for rank, ordered in enumerate(orders):
            listed = paginate(ordered.papers, ordered.order.path, settings.listing_size)
            # The first order is written whole; the others' first page only, the rest paged in the browser.
            for listing in listed if rank == 0 else listed[:1]:
                headings = ordered.headings(listing.first - 1, len(listing.papers))
                _put(files, listing.path, listings.all_page(all_template, listing, ordered.order, headings, rank > 0))
            if rank:
                files.update(redirect_files(paged_in_browser(listed), settings.site_url))
        files[ORDERS_FILE] = _utf8(orders_json(orders, papers, settings.listing_size))
        files[PATHS.about] = _utf8(env.get_template("about.md.j2").render(
            **common, formats_read=formats_read(papers), inferred_count=sum(p.title_inferred for p in papers),
            model_titles=sorted({p.title_model for p in papers if p.title_source == "llm"}),
            model_count=sum(p.title_source == "llm" for p in papers),
        ))
        files[PATHS.filter] = _utf8(env.get_template("filter.md.j2").render(**common))
        files[PATHS.starred] = _utf8(env.get_template("starred.md.j2").render(**common))
        files[PATHS.map] = _utf8(env.get_template("map.md.j2").render(**common))
        files[PATHS.similar] = _utf8(env.get_template("similar.md.j2").render(**common))
        files.update(similar_files(papers))
        files[PATHS.filter_json] = _utf8(filter_json(papers, groups))
        files.update(_feeds(papers, by_date, groups, title, settings, memo, feed_aliases(redirects or {}, groups)))
        for group in groups if topic_files else ():
            _put(files, group.tag.bib_path, _tag_bib(group, entries, record_keys, memo))
        done = 0
        for batch in batches:
            for path, data, key, reused in batch:
                _put(files, path, data)
                if memo is not None:
                    memo.record(path, key, reused)
            done += len(batch)
            progress("Rendering pages", done, len(papers))
    files[PATHS.map_json] = _utf8(map_json(papers, areas, topics, layout.positions()))
    # Read by the build stage: what Pagefind indexes.
    if engine == "pagefind":
        records = render_rows(RECORDS_FILE, papers, search_record, keys, memo)
        files[RECORDS_FILE] = join_rows(RECORDS_FILE, SEARCH_RECORDS, records, keys, memo)
    files.update(redirect_files(redirects or {}, settings.site_url))
    return files


def _tag_bib(
    group: TagGroup, entries: dict[str, str], record_keys: dict[str, str], memo: PageMemo | None
) -> bytes | None:
    """Return a tag's .bib file, or None when `memo` keeps it: its papers, in order, have the same rows."""
    path = group.tag.bib_path
    if memo is not None:
        # A paper's row key covers its BibTeX entry: the same keys in the same order, the same file.
        digest = hashlib.blake2b(f"{memo.fingerprint} {path}".encode("utf-8", "surrogatepass"), digest_size=16)
        for paper in group.papers:
            digest.update(record_keys[paper.id].encode("ascii"))
        if left_as_is(memo, path, digest.hexdigest()):
            return None
    return _utf8(bibtex_file(list(group.papers), entries))


def _trend_chart(group: TagGroup, collections: dict[str, Collection], sizes: dict[str, int], order: list[str]) -> str:
    """Return the SVG of a tag's share of each collection, for the first page of its listing."""
    rows = [
        (share.collection, share.percent, f"{share.count:,} of {share.total:,}",
         f"../../{collections[share.collection].url}")
        for share in shares(group.papers, sizes, order)
    ]
    return share_chart(rows, f"{group.tag.name}: share of each collection's papers")


def _trends(papers: list[Paper], groups: list[TagGroup], sizes: dict[str, int], order: list[str]) -> dict | None:
    """Return what the stats page shows of trends across collections, or None for a one-collection digest."""
    if not shows_trends(order):
        return None
    topics = [(g.tag, g.papers) for g in groups if g.tag.kind == "topic"]
    areas = [(g.tag, g.papers) for g in groups if g.tag.kind == "area"]
    grew, shrank = changes(topics, sizes, order)
    area_grew, area_shrank = changes(areas, sizes, order)
    moved = [*grew, *reversed(shrank)]
    return {
        "first": order[0], "last": order[-1], "order": order, "grew": grew, "shrank": shrank,
        "areas": [*area_grew, *reversed(area_shrank)],
        "chart": change_chart([(c.tag.name, c.points, f"../{c.tag.url}") for c in moved],
                              f"Topics whose share changed most from {order[0]} to {order[-1]}"),
        "given_areas": given_areas(papers, order),
    }


def feed_aliases(redirects: dict[str, str], groups: list[TagGroup]) -> dict[str, str]:
    """Return the feed of each topic page that now leads elsewhere, with the feed it serves: its successor's.

    A topic's Atom feed cannot redirect as its page does (a feed reader follows no meta refresh): its
    old path serves the feed of the topic its page leads to (whose `rel=self` link names the new path),
    or the digest's feed when it leads to the topics index.
    """
    feeds = {group.tag.url: group.tag.feed_path for group in groups}
    folder = PATHS.tags_index_url
    return {
        Tag.feed_at(old): feeds.get(new, PATHS.feed)
        for old, new in sorted(redirects.items())
        if old.startswith(folder) and old.count("/") == 2
    }


def _feeds(
    papers: list[Paper], by_date: list[Paper], groups: list[TagGroup], title: str, settings: Settings,
    memo: PageMemo | None = None, aliases: dict[str, str] | None = None,
) -> dict[str, bytes]:
    """Return the digest's Atom feed and one per tag, keyed by docs-dir path; `by_date` is `newest_first(papers)`.

    `aliases` (`feed_aliases`) adds a gone topic's feed path serving the feed it names. With `memo`, a
    feed whose entries and heading are those of the last run is left as it is (recorded in the memo, not
    returned): an edit changes the few feeds that list the paper.
    """
    dates = {paper.id: paper_date(paper, settings.source_date_epoch) for paper in papers}
    rank = {paper.id: index for index, paper in enumerate(by_date)}
    wanted = [("urn:paper-digest:digest", title, PATHS.feed, "", newest(papers, rank))]
    wanted += [
        (f"urn:paper-digest:tag:{g.tag.slug}", f"{title}: {g.tag.name}", g.tag.feed_path, g.tag.url,
         newest(g.papers, rank))
        for g in groups
    ]
    by_path = {item[2]: item for item in wanted}
    # Each feed at its own path, then each alias: the same feed at an old path.
    stored = [(item[2], item) for item in wanted]
    stored += [(old, by_path[new]) for old, new in (aliases or {}).items() if new in by_path]
    feeds = {}
    for at, (feed_id, feed_title, path, page, entries) in stored:
        if memo is not None:
            # Everything atom_feed writes, and nothing else.
            shown = (feed_id, feed_title, path, page, settings.site_url, [
                (p.id, p.title, p.url, p.authors, [(t.slug, t.name) for t in p.tags], p.summary, dates[p.id])
                for p in entries
            ])
            digest = hashlib.blake2b(memo.fingerprint.encode("utf-8"), digest_size=16)
            digest.update(repr(shown).encode("utf-8", "surrogatepass"))
            if left_as_is(memo, at, digest.hexdigest()):
                continue
        feeds[at] = atom_feed(feed_id, feed_title, path, page, entries, dates, settings.site_url)
    return feeds


def render_site(
    papers: list[Paper], layout: MapLayout, settings: Settings, progress: Progress = no_progress,
    pages: PageStore | None = None, redirects: dict[str, str] | None = None,
) -> RenderResult:
    """Render the papers (and their `layout` on the map) into the docs dir; return what was written and deleted.

    `pages` (the last run's paper and listing pages) spares rendering the pages whose inputs did not change.
    """
    files = render_pages(papers, layout, settings, progress, pages, redirects)
    result = write_files(files, settings.docs_path, pages.kept_now if pages else frozenset())
    if pages is not None:
        pages.save()
    log.info("rendered %d files: %d written, %d deleted", result.total, len(result.written), len(result.deleted))
    return result
