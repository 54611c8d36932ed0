"""Long tag and collection lists are split into numbered pages; the first page keeps its address."""

from __future__ import annotations

import dataclasses
import re

import pytest

from generator.build import build_site
from generator.pipeline import generate
from generator.render.listings import page_path, page_url, paginate
from generator.settings import load_settings
from tests.conftest import DEFAULT_CORPUS, make_paper


def papers(count: int):
    return [make_paper(f"We introduce M{i}, a method numbered {i}.") for i in range(count)]


def test_a_list_splits_into_full_pages_and_a_remainder_in_order() -> None:
    items = papers(45)
    pages = paginate(items, "tags/x.md", 20)
    assert [len(p.papers) for p in pages] == [20, 20, 5]
    assert [paper for page in pages for paper in page.papers] == items
    assert [p.path for p in pages] == ["tags/x.md", "tags/x/page/2.md", "tags/x/page/3.md"]
    assert (pages[1].first, pages[1].last, pages[1].total) == (21, 40, 45)
    assert (pages[0].previous, pages[0].next) == ("", "tags/x/page/2.md")
    assert (pages[2].previous, pages[2].next) == ("tags/x/page/2.md", "")
    assert [p.root for p in pages] == ["../", "../../../", "../../../"]


def test_a_short_list_is_one_page_at_the_lists_own_address() -> None:
    (page,) = paginate(papers(3), "collections/c.md", 150)
    assert page.path == "collections/c.md" and page.count == 1 and len(page.papers) == 3
    assert paginate([], "tags/empty.md", 150)[0].papers == ()


def test_page_links_show_the_ends_and_the_neighbourhood_with_gaps() -> None:
    pages = paginate(papers(400), "tags/x.md", 20)
    numbers = [n for n, _ in pages[9].links]
    assert numbers == [1, 0, 8, 9, 10, 11, 12, 0, 20]
    assert [n for n, _ in pages[0].links] == [1, 2, 3, 0, 20]


def test_paths_and_urls_of_pages_agree() -> None:
    assert page_path("tags/x.md", 1) == "tags/x.md" and page_url("tags/x/", 1) == "tags/x/"
    assert page_path("tags/x.md", 3) == "tags/x/page/3.md" and page_url("tags/x/", 3) == "tags/x/page/3/"


@pytest.mark.slow
def test_a_paginated_site_builds_strictly_and_its_pages_link_to_each_other(project) -> None:
    settings = dataclasses.replace(load_settings(project), listing_size=20)
    report = generate([DEFAULT_CORPUS], settings)
    build_site(settings, report.engine)  # strict: a broken page link fails the build
    site = settings.site_path
    collection = next(p for p in (site / "collections").iterdir() if p.is_dir() and p.name != "index.html")
    first = (collection / "index.html").read_text(encoding="utf-8")
    second = (collection / "page" / "2" / "index.html").read_text(encoding="utf-8")
    third = (collection / "page" / "3" / "index.html").read_text(encoding="utf-8")
    assert "page 1 of 3, papers 1–20 of 57" in first and "page 2 of 3" in second and "page 3 of 3" in third
    assert first.count('<p class="pd-pager">') == 2
    assert 'href="page/2/"' in first and 'href="../../"' in second and 'href="../3/"' in second
    listed = [len(re.findall(r'class="pd-paper-link"', html)) for html in (first, second, third)]
    assert listed == [20, 20, 17]
    # Paper links from a deeper page still reach the papers.
    link = re.search(r'class="pd-paper-link" href="([^"]+)"', third).group(1)
    assert link.startswith("../../../../papers/")
    assert (collection / "page" / "3" / link / "index.html").resolve().is_file()


def test_counts_agree_with_their_noun() -> None:
    from generator.render.markdown import counted

    assert [counted(n, "paper") for n in (0, 1, 2, 1234)] == ["0 papers", "1 paper", "2 papers", "1,234 papers"]
    assert counted(1, "research area") == "1 research area"


def test_a_topic_sits_under_its_usual_area_unless_the_digest_clearly_says_otherwise() -> None:
    from generator.enrich.area_gate import load_topic_areas
    from generator.model import Tag
    from generator.render.groups import group_by_tag, topics_by_area

    def tag(name: str, kind: str) -> Tag:
        return Tag(name, re.sub(r"\W+", "-", name.lower()).strip("-"), kind, 0.9)

    robotics = tag("Robotics & Manipulation", "topic")
    benchmarks, robotics_area = tag("Datasets & Benchmarks", "area"), tag("Robotics, Autonomy & Planning", "area")

    def digest(in_benchmarks: int, in_robotics: int):
        papers = [make_paper(f"Paper {n} about robots.", tags=(area, robotics))
                  for n, area in enumerate([benchmarks] * in_benchmarks + [robotics_area] * in_robotics)]
        groups = group_by_tag(papers)
        areas = [g for g in groups if g.tag.kind == "area"]
        placed = topics_by_area(areas, [g for g in groups if g.tag.kind == "topic"])
        return next(slug for slug, topics in placed.items() if topics)

    # The shipped shares (ICLR 2025's tune part) put most robotics papers in the robotics area.
    assert load_topic_areas()[robotics.name][robotics_area.name] > 0.5
    # Two benchmark papers against one robotics paper: the corpora's usual home wins.
    assert digest(2, 1) == robotics_area.slug
    # A digest whose papers of the topic clearly sit elsewhere keeps its own count.
    assert digest(6, 1) == benchmarks.slug
