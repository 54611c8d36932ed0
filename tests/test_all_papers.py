"""The All papers listing: every paper on numbered pages, newest first, by title, by collection, by first area."""

from __future__ import annotations

import json
import re
from pathlib import Path

from generator.model import Tag
from generator.render.all_papers import ORDERS, all_orders
from generator.render.feeds import newest_first
from generator.render.groups import group_by_tag
from tests.conftest import make_paper, render_digest, write_tree

AREA_A = Tag("Area A", "area-a", "area")
AREA_B = Tag("Area B", "area-b", "area")


def paper(title: str, number: int, **overrides):
    return make_paper(f"We introduce M{number}, a method numbered {number}.", title=title, **overrides)


def test_newest_first_puts_later_dates_first_and_later_input_first_within_a_date() -> None:
    old = paper("Old", 1, date="2024-01-02")
    new = paper("New", 2, date="2025-06-01")
    first_undated, second_undated = paper("First", 3), paper("Second", 4)
    ordered = newest_first([old, first_undated, new, second_undated], source_date_epoch="1700000000")
    # Undated papers share the build's date (2023-11-14): the dated 2024 and 2025 ones are newer.
    assert [p.title for p in ordered] == ["New", "Old", "Second", "First"]


def test_each_order_lists_every_paper_once() -> None:
    papers = [
        paper("Beta", 1, collection="ICLR 2025", tags=(AREA_B,)),
        paper("alpha", 2, collection="ICLR 2024", tags=(AREA_A, AREA_B)),
        paper("Gamma", 3, collection="ICLR 2024", tags=(AREA_A,)),
        paper("Delta", 4, collection="ICLR 2025"),
    ]
    areas = [g for g in group_by_tag(papers) if g.tag.kind == "area"]
    orders = {o.order.slug: o for o in all_orders(papers, newest_first(papers), areas)}
    assert list(orders) == [o.slug for o in ORDERS]
    for ordered in orders.values():
        assert sorted(p.id for p in ordered.papers) == sorted(p.id for p in papers)
    # Undated: the collection's year dates them (ICLR 2025 is newer), then the later in the digest first.
    assert [p.title for p in orders["newest"].papers] == ["Delta", "Beta", "Gamma", "alpha"]
    assert [p.title for p in orders["title"].papers] == ["alpha", "Beta", "Delta", "Gamma"]
    # Collections oldest first (by year), the newest papers first within each.
    assert [p.title for p in orders["collection"].papers] == ["Gamma", "alpha", "Delta", "Beta"]
    assert orders["collection"].headings(0, 4) == ("ICLR 2024", "", "ICLR 2025", "")
    # Areas largest first (both have two papers: by name), each paper under its first area only.
    assert [p.title for p in orders["area"].papers] == ["alpha", "Gamma", "Beta", "Delta"]
    assert orders["area"].groups == ("Area A", "Area A", "Area B", "No research area")
    # A page that opens inside a group names it again.
    assert orders["area"].headings(1, 3) == ("Area A (continued)", "Area B", "No research area")
    assert orders["title"].headings(0, 4) == ("", "", "", "")


def test_the_all_papers_pages_are_paginated_like_tag_pages_and_link_the_other_orders(project: Path, tmp_path: Path) -> None:
    abstracts = {f"a{i:02}.txt": f"We introduce METHOD{i}, a solver for problem {i} in graphs." for i in range(45)}
    files = render_digest(project, [write_tree(tmp_path / "in", abstracts)], listing_size=20)
    records = json.loads(files["papers.json"])
    orders = json.loads(files["all.json"])
    for rank, order in enumerate(ORDERS):
        stem = order.path.removesuffix(".md")
        pages = [order.path, f"{stem}/page/2.md", f"{stem}/page/3.md"]
        # Newest first is written whole; the other orders' first page only (the browser makes the rest).
        assert [path in files for path in pages] == ([True, True, True] if rank == 0 else [True, False, False])
        assert f"{stem}/page/4.md" not in files
        if rank:
            # The addresses those pages had before they were made in the browser still lead to them.
            for number in (2, 3):
                moved = files[f"{stem}/page/{number}/index.html"].decode("utf-8")
                assert f'url=../../../../{stem}/?page={number}"' in moved
            assert f"{stem}/page/4/index.html" not in files
        listed = []
        for path in pages[: 3 if rank == 0 else 1]:
            text = files[path].decode("utf-8")
            listed += re.findall(r'<a class="pd-paper-link" href="[./]*(papers/[^"]+/)">', text)
            assert ("page " in text and "of 3" in text) if rank == 0 else "Papers 1–20 of 45" in text
            for other in ORDERS:
                if other is not order:
                    assert f"({'../' * path.count('/')}{other.path})" in text
        if rank == 0:
            assert sorted(listed) == sorted(r["url"] for r in records)
        else:
            # all.json holds the whole order, as positions into the digest's papers, from the page's own first 20.
            positions = orders["orders"][order.slug]["papers"]
            assert sorted(positions) == list(range(len(records)))
            assert [records[i]["url"] for i in positions[:20]] == listed
    # By title: the first page starts with the alphabetically first title.
    titles = sorted((r["title"] for r in records), key=lambda t: (t.casefold()))
    first = files["all/title.md"].decode("utf-8")
    assert first.index(titles[0]) < first.index(titles[1])
    # Newest first (one undated source): the last paper of the digest opens the default page.
    assert records[-1]["url"] in files["all.md"].decode("utf-8").split("pd-paper-link", 2)[1]


def test_all_papers_is_in_the_navigation() -> None:
    from tests.conftest import ROOT

    assert "  - All papers: all.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
