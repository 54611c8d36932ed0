"""End to end: the default corpus builds into a strict MkDocs site, incrementally."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from generator.build import build_site
from generator.build.fragments import unbundle
from generator.pipeline import generate
from generator.settings import Settings, load_settings
from tests.conftest import DEFAULT_CORPUS, copy_project, snapshot, write_tree

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, object]:
    project = copy_project(tmp_path_factory.mktemp("e2e") / "project")
    settings = load_settings(project)
    report = generate([DEFAULT_CORPUS], settings)
    build_site(settings, report.engine)
    return settings, report


def test_default_corpus_gives_57_paper_pages(built) -> None:
    settings, _ = built
    pages = sorted((settings.site_path / "papers").glob("*/index.html"))
    assert len(pages) == 57


def test_papers_json_has_57_complete_entries(built) -> None:
    settings, _ = built
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    assert len(records) == 57
    assert len({r["id"] for r in records}) == 57 and len({r["slug"] for r in records}) == 57
    for record in records:
        assert {"id", "slug", "url", "title", "title_inferred", "tags", "collection", "source", "abstract"} <= set(record)
        assert record["title"] and not record["title"].lower().startswith(("untitled", "paper "))
        assert record["tags"], f"{record['title']} has no tag"
        assert all({"name", "slug", "kind"} <= set(tag) for tag in record["tags"])
        assert (settings.site_path / record["url"] / "index.html").exists()


def test_every_tag_has_a_page_listing_its_papers(built) -> None:
    settings, _ = built
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    tags = {t["slug"]: t["name"] for r in records for t in r["tags"]}
    index = (settings.site_path / "tags" / "index.html").read_text(encoding="utf-8")
    for slug in tags:
        page = settings.site_path / "tags" / slug / "index.html"
        assert page.exists(), slug
        html = page.read_text(encoding="utf-8")
        members = [r for r in records if any(t["slug"] == slug for t in r["tags"])]
        assert all(f'/{r["slug"]}/' in html for r in members)
        assert f'href="{slug}/"' in index


def test_home_and_tag_pages_announce_their_atom_feeds(built) -> None:
    import re

    settings, _ = built
    site = settings.site_path
    home = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<link rel="alternate" type="application/atom\+xml" title="Atom feed" href="feed\.xml">', home)
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    slug = records[0]["tags"][0]["slug"]
    page = site / "tags" / slug / "index.html"
    href = re.search(r'<link rel="alternate" type="application/atom\+xml"[^>]*href="([^"]+)"', page.read_text("utf-8"))
    assert href and (page.parent / href.group(1)).resolve() == (site / f"feed-{slug}.xml").resolve()
    assert (site / f"feed-{slug}.xml").read_bytes().startswith(b"<?xml")


def test_nav_stays_small(built) -> None:
    settings, _ = built
    home = (settings.site_path / "index.html").read_text(encoding="utf-8")
    assert home.count('class="md-nav__link') < 20


def test_search_index_holds_paper_titles(built) -> None:
    settings, _report = built
    index = json.loads((settings.site_path / "search" / "search_index.json").read_text(encoding="utf-8"))
    titles = {doc["title"] for doc in index["docs"]}
    assert any(title.startswith("GRACE") for title in titles)


def test_search_finds_a_paper_by_its_own_page_not_by_the_lists_that_name_it(built) -> None:
    settings, report = built
    index = json.loads((settings.site_path / "search" / "search_index.json").read_text(encoding="utf-8"))
    own = next(p for p in report.papers if p.title.startswith("VisionReasoner"))
    naming = {d["location"].split("#")[0] for d in index["docs"] if "visionreasoner" in d["text"].lower()}
    # Tag pages list it by design; other papers' related lists and BibTeX blocks are not indexed.
    assert {loc for loc in naming if loc.startswith("papers/")} == {own.url}


def test_search_matches_a_paper_by_its_abstract_not_by_its_tag_evidence(built) -> None:
    settings, _report = built
    index = json.loads((settings.site_path / "search" / "search_index.json").read_text(encoding="utf-8"))
    papers = [d for d in index["docs"] if d["location"].startswith("papers/")]
    assert papers
    # The "Why these tags?" note lists confidences and evidence words: a result must show the abstract.
    shown = [d["location"] for d in papers if re.search(r"\((?:area|topic), confidence \d", d["text"])]
    assert not shown and not [d for d in papers if "Why these tags" in d["text"]]


def test_second_generate_writes_no_file_and_build_is_skipped(built) -> None:
    settings, _ = built
    docs_before = snapshot(settings.docs_path)
    site_before = snapshot(settings.site_path)
    report = generate([DEFAULT_CORPUS], settings)
    result = build_site(settings, report.engine)
    assert report.render.written == [] and report.render.deleted == []
    assert report.reused and report.paper_count == 57 and report.tag_count == built[1].tag_count
    assert result.skipped
    assert snapshot(settings.docs_path) == docs_before
    assert snapshot(settings.site_path) == site_before


def test_a_run_is_repeated_when_a_template_or_a_generated_page_changed(tmp_path: Path) -> None:
    settings = load_settings(copy_project(tmp_path / "project"))
    source = write_tree(tmp_path / "in", {"d.txt": "Reuse 2026 Papers\n\n" + "\n\n".join([
        "We introduce GRACE, a framework for contrastive policy optimization with reinforcement learning.",
        "We propose ReaPER, a prioritized experience replay for offline reinforcement learning agents.",
        "We propose ReaPER, a prioritized experience replay for offline reinforcement learning agents.",
    ])}) / "d.txt"
    first = generate([source], settings)
    again = generate([source], settings)
    # The reused report still tells what was merged: nothing is dropped silently.
    assert again.reused and [str(p) for p in again.problems] == [str(p) for p in first.problems]
    assert any(p.level == "info" for p in again.problems)

    page = settings.docs_path / first.papers[0].path
    page.write_text("edited by hand", encoding="utf-8")
    restored = generate([source], settings)
    assert not restored.reused and restored.render.written == [first.papers[0].path]

    template = settings.resolve(settings.templates_dir) / "paper.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n<!-- changed -->\n", encoding="utf-8")
    changed = generate([source], settings)
    assert not changed.reused and sorted(changed.render.written) == sorted(p.path for p in first.papers)


def test_generated_markdown_and_json_are_byte_identical_across_projects(built, tmp_path: Path) -> None:
    settings, _ = built
    other = load_settings(copy_project(tmp_path / "again"))
    generate([DEFAULT_CORPUS], other)
    first = {k: v[1] for k, v in snapshot(settings.docs_path).items() if k.endswith((".md", ".json"))}
    second = {k: v[1] for k, v in snapshot(other.docs_path).items() if k.endswith((".md", ".json"))}
    assert first == second


def test_removed_papers_lose_their_pages_and_hand_written_files_survive(project: Path) -> None:
    settings = load_settings(project)
    sources = write_tree(project / "in", {
        "a.txt": "We introduce GRACE, a framework for contrastive learning.\n\n"
                 "We propose ReaPER, a replay method for offline reinforcement learning.",
    })
    report = generate([sources], settings)
    (sources / "a.txt").write_text("We introduce GRACE, a framework for contrastive learning.", encoding="utf-8")
    report = generate([sources], settings)
    assert any(rel.startswith("papers/") for rel in report.render.deleted)
    assert len(list((settings.docs_path / "papers").glob("*.md"))) == 1
    assert (settings.docs_path / "about.md").exists()


def test_a_hand_written_file_in_the_way_is_never_overwritten(project: Path) -> None:
    settings = load_settings(project)
    (settings.docs_path / "index.md").write_text("my own home page", encoding="utf-8")
    from generator.errors import DigestError

    with pytest.raises(DigestError, match="hand-written"):
        generate([DEFAULT_CORPUS], settings)
    assert (settings.docs_path / "index.md").read_text(encoding="utf-8") == "my own home page"


def test_a_listing_template_reading_what_its_page_does_not_get_is_named_with_the_fix(project: Path) -> None:
    # Listing pages are reused when what they show is unchanged, so they get only that: a template of
    # before (the whole list of the tag's papers) would show stale counts; it fails, saying what to use.
    from generator.errors import DigestError

    template = project / "templates" / "tag.md.j2"
    template.write_text(template.read_text(encoding="utf-8").replace("listing.total", "group.papers | length"),
                        encoding="utf-8")
    with pytest.raises(DigestError, match=r"tag\.md\.j2: .*no attribute 'papers'.*listing\.total"):
        generate([DEFAULT_CORPUS], load_settings(project))


def test_editing_one_abstract_rewrites_only_the_pages_that_show_it(project: Path) -> None:
    settings = load_settings(project)
    texts = [
        "We introduce GRACE, a framework for contrastive policy optimization with reinforcement learning.",
        "We propose ReaPER, a prioritized experience replay for offline reinforcement learning agents.",
        "We study diffusion models for image generation and show that diffusion models memorize images.",
        "We present FastDiff, a distillation method for diffusion models that samples images in four steps.",
    ]
    source = write_tree(project / "in", {"d.txt": "Edit 2026 Papers\n\n" + "\n\n".join(texts)}) / "d.txt"
    first = generate([source], settings)
    before = {p.id: p for p in first.papers}
    texts[2] = texts[2].replace("memorize images", "memorize their training images")
    source.write_text("Edit 2026 Papers\n\n" + "\n\n".join(texts), encoding="utf-8")
    second = generate([source], settings)
    # The edited paper keeps its id (its address moves only if its title changed, leaving a redirect).
    edited = next(p for p in second.papers if "their training images" in p.abstract)
    old = before[edited.id]
    # Pages that show the paper: its own, its tags', the indexes, and the related lists that name it.
    showing = [p.path for p in second.papers if edited.id in p.related]
    showing += [p.path for p in first.papers if old.id in p.related]
    tags = {t.slug for t in (*edited.tags, *old.tags)}
    allowed = {edited.path, "papers.json", "papers.csv", "papers.bib", "papers.json.gz", "papers.csv.gz",
               "papers.bib.gz", "filter.json", "map.json", "index.md",
               "tags/index.md",
               "collections/index.md", "collections/edit-2026.md", *(f"tags/{s}.md" for s in tags),
               *(f"tags/{s}.bib" for s in tags), "feed.xml", *(f"feed-{s}.xml" for s in tags), *showing,
               f"{old.url}index.html"}
    # The All papers pages list it; papers like this hold its words, its chunk and its id.
    allowed |= {"all.md", "all.json", "all/title.md", "all/collection.md", "all/area.md", "similar/p-0.json", "similar/f-0.json",
                f"similar/i-{edited.id[:2]}.json", f"similar/i-{old.id[:2]}.json"}
    allowed |= {path for path in second.render.written if path.startswith("similar/t-")}
    assert edited.path in second.render.written
    assert set(second.render.written) <= allowed, set(second.render.written) - allowed
    assert [path for path in second.render.deleted if not path.startswith("similar/i-")] == (
        [old.path] if old.path != edited.path else []
    )
    for paper in second.papers:
        if paper.id != edited.id and paper.path not in showing:
            assert paper.path not in second.render.written


def test_stale_built_pages_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    from generator.build import remove_stale_pages

    docs, site = tmp_path / "docs", tmp_path / "site"
    for rel in ("papers/a.md", "tags/index.md", "tags/t.md", "tags/t/page/2.md", "tags/t.bib", "collections/c.md"):
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text("x", encoding="utf-8")
    built = [
        "papers/a/index.html", "papers/gone/index.html", "papers/a/stray.png", "tags/index.html",
        "tags/t/index.html", "tags/t/page/2/index.html", "tags/t/page/3/index.html", "tags/t.bib",
        "tags/old.bib", "tags/old/index.html", "collections/c/index.html", "assets/kept.css",
    ]
    for rel in built:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text("x", encoding="utf-8")
    removed = remove_stale_pages(site, docs)
    assert removed == [
        "papers/a/stray.png", "papers/gone/index.html", "tags/old.bib", "tags/old/index.html",
        "tags/t/page/3/index.html",
    ]
    left = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert left == sorted(set(built) - set(removed))
    assert not (site / "papers" / "gone").exists() and not (site / "tags" / "t" / "page" / "3").exists()


def test_the_built_files_of_docs_files_gone_since_the_last_build_are_removed(tmp_path: Path) -> None:
    from generator.build import remove_gone_pages

    site = tmp_path / "site"
    built = ["papers/a/index.html", "papers/gone/index.html", "feed-old-tag.xml", "feed.xml", "tags/t/index.html",
             "tags/t/page/2/index.html", "about/index.html", "assets/logo.png", "assets/kept.css"]
    for rel in built:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text("x", encoding="utf-8")
    before = ["papers/a.md", "papers/gone.md", "feed-old-tag.xml", "feed.xml", "tags/t.md", "tags/t/page/2.md",
              "about.md", "assets/logo.png"]
    # A paper, a tag's feed (at the root), a listing page and a hand-written page and image are gone;
    # a page that moved from about.md to about/index.md builds to the same file and stays.
    now = ["papers/a.md", "feed.xml", "tags/t.md", "about/index.md"]
    removed = remove_gone_pages(site, before, now)
    assert removed == ["assets/logo.png", "feed-old-tag.xml", "papers/gone/index.html", "tags/t/page/2/index.html"]
    left = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert left == sorted(set(built) - set(removed))
    assert not (site / "papers" / "gone").exists() and not (site / "tags" / "t" / "page").exists()


def test_an_edit_indexes_its_search_part_while_the_pages_render(tmp_path: Path, monkeypatch) -> None:
    import dataclasses

    import generator.build.search as build
    from generator.build import STAMP, EarlySearch

    project = copy_project(tmp_path / "project")
    source = project / "in" / "digest.txt"
    source.parent.mkdir()

    def write(texts: list[str]) -> Path:
        source.write_text("Parts 2026 Papers\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
        return source

    # The default corpus (57 papers) in parts of 20: the last paper is in the third part.
    settings = dataclasses.replace(load_settings(project), search="pagefind", search_part_size=20)
    texts = [p.abstract for p in generate([DEFAULT_CORPUS], settings).papers]
    build_site(settings, generate([write(texts)], settings).engine)
    # What the build itself indexes (the parts it did not get from the early start).
    built: list[str] = []
    index_part = build.index_part
    monkeypatch.setattr(build, "index_part", lambda part, out: (built.append(part.folder), index_part(part, out)))
    with EarlySearch(settings) as early:
        report = generate([write([*texts[:-1], texts[-1] + " We also report zorblaxian ablations."])], settings,
                          enriched=early.start)
        # Pagefind is already at work on the edited paper's part when the pages are written.
        assert early.started == ["pagefind-3"]
        result = build_site(settings, report.engine, early=early)
        assert early.started == []  # taken by the build
    assert result.incremental and built == []
    assert not any(p.name.startswith(".pagefind-early-") for p in settings.site_path.parent.iterdir())
    stamp = json.loads((project / STAMP).read_text(encoding="utf-8"))
    assert sorted(stamp["search"]) == ["pagefind", "pagefind-2", "pagefind-3"]
    bundles = (settings.site_path / "pagefind-3").rglob("*.pf_bundle")  # gzipped JSON, one per page, in bundles
    fragments = [fragment for path in bundles for fragment in unbundle(path.read_bytes()).values()]
    assert b"zorblaxian" in b"".join(gzip.decompress(fragment) for fragment in fragments)
    # Nothing changed: nothing starts early, and the build is skipped.
    with EarlySearch(settings) as early:
        report = generate([source], settings, enriched=early.start)
        assert early.started == []
        assert build_site(settings, report.engine, early=early).skipped
    # Many changed papers: MkDocs will render many pages, which hides the search; it runs beside MkDocs.
    with EarlySearch(settings) as early:
        report = generate([write([f"{t} Variant {n}." for n, t in enumerate(texts)])], settings,
                          enriched=early.start)
        assert early.started == []
        assert build_site(settings, report.engine, early=early).incremental
    assert sorted(built) == ["pagefind", "pagefind-2", "pagefind-3"]
    built.clear()
    # A forced build is a full one: nothing is indexed early, the build indexes every part itself.
    with EarlySearch(settings, force=True) as early:
        report = generate([source], settings, enriched=early.start)
        assert early.started == []
        assert not build_site(settings, report.engine, force=True, early=early).incremental
    assert sorted(built) == ["pagefind", "pagefind-2", "pagefind-3"]
