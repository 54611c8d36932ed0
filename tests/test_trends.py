"""A digest of several collections shows how each tag moves between them; one collection shows no trends."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from generator.enrich.tags import tag_slug
from generator.render.trends import collection_order, given_areas
from tests.conftest import DEFAULT_CORPUS, FIXTURES, copy_project, make_paper, render_digest

SAMPLES = FIXTURES / "trends"


@pytest.fixture(scope="module")
def three_years(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return render_digest(copy_project(tmp_path_factory.mktemp("trends") / "project"), [SAMPLES, DEFAULT_CORPUS])


def records_of(files: dict[str, bytes]) -> list[dict]:
    return json.loads(files["papers.json"])


def listed_under(record: dict) -> set[str]:
    """Return the slugs of the tag pages that list a paper: its tags' and their parent topics'."""
    return {t["slug"] for t in record["tags"]} | {tag_slug(t["parent"]) for t in record["tags"] if t["parent"]}


def test_collections_are_ordered_by_year_then_name() -> None:
    assert collection_order(["ICLR 2026", "ICLR 2024", "Notes", "ICLR 2025"]) == [
        "ICLR 2024", "ICLR 2025", "ICLR 2026", "Notes"]


def test_each_tag_page_charts_its_share_of_every_collection(three_years: dict[str, bytes]) -> None:
    records = records_of(three_years)
    sizes = Counter(r["collection"] for r in records)
    assert list(sizes) and set(sizes) == {"ICLR 2024", "ICLR 2025", "ICLR 2026"}
    tags = {t["slug"] for r in records for t in r["tags"]}
    for slug in tags:
        page = three_years[f"tags/{slug}.md"].decode()
        members = Counter(r["collection"] for r in records if slug in listed_under(r))
        shown = re.findall(r'<text class="pd-chart__value"[^>]*>([\d.]+)% \(([\d,]+) of ([\d,]+)\)</text>', page)
        assert len(shown) == 3, slug
        for (percent, count, total), name in zip(shown, ["ICLR 2024", "ICLR 2025", "ICLR 2026"], strict=True):
            assert int(count) == members[name] and int(total) == sizes[name]
            assert float(percent) == pytest.approx(100 * members[name] / sizes[name], abs=0.05)


def test_the_stats_page_lists_what_grew_and_shrank_with_counts_from_papers_json(three_years) -> None:
    records = records_of(three_years)
    sizes = Counter(r["collection"] for r in records)
    stats = three_years["stats.md"].decode()
    assert "## Trends from ICLR 2024 to ICLR 2026" in stats and "<svg class=\"pd-chart pd-chart--change\"" in stats
    rows = re.findall(
        r"\| \[([^\]]+)\]\(tags/([\w-]+)\.md\) \| ([\d.]+)% \(([\d,]+) of ([\d,]+)\) \| ([\d.]+)% \(([\d,]+) of ([\d,]+)\) \| ([+-][\d.]+) pt \|",
        stats,
    )
    assert rows
    for _, slug, _, before, total_before, _, after, total_after, points in rows:
        members = Counter(r["collection"] for r in records if slug in listed_under(r))
        assert (int(before), int(total_before)) == (members["ICLR 2024"], sizes["ICLR 2024"])
        assert (int(after), int(total_after)) == (members["ICLR 2026"], sizes["ICLR 2026"])
        expected = 100 * members["ICLR 2026"] / sizes["ICLR 2026"] - 100 * members["ICLR 2024"] / sizes["ICLR 2024"]
        assert float(points) == pytest.approx(expected, abs=0.05)
    grew = stats.split("### Grew most")[1].split("###")[0]
    assert all(float(p) > 0 for p in re.findall(r"\| ([+-][\d.]+) pt \|", grew))


def test_given_areas_of_two_taxonomies_meet_by_name_and_stay_apart_otherwise() -> None:
    papers = [
        make_paper("a one", collection="ICLR 2024", given_area="Reinforcement Learning"),
        make_paper("a two", collection="ICLR 2025", given_area="reinforcement  learning"),
        make_paper("a three", collection="ICLR 2024", given_area="representation learning for computer vision"),
        make_paper("a four", collection="ICLR 2025", given_area="applications to computer vision"),
    ]
    rows = dict(given_areas(papers, ["ICLR 2024", "ICLR 2025"]))
    assert rows["Reinforcement Learning"] == [1, 1]
    assert rows["representation learning for computer vision"] == [1, 0]
    assert rows["applications to computer vision"] == [0, 1]


def test_the_sources_areas_are_tabled_by_collection(three_years: dict[str, bytes]) -> None:
    stats = three_years["stats.md"].decode()
    assert "### Areas the sources give" in stats
    assert "| Given area | ICLR 2024 | ICLR 2025 | ICLR 2026 |" in stats


def test_one_collection_shows_no_trend_at_all(project: Path) -> None:
    files = render_digest(project, [DEFAULT_CORPUS])
    assert "Trends" not in files["stats.md"].decode()
    assert not any("pd-chart--share" in data.decode() for name, data in files.items() if name.startswith("tags/")
                   and name.endswith(".md"))


def test_hostile_collection_names_stay_text_in_charts() -> None:
    from generator.render.charts import change_chart, share_chart

    svg = share_chart([("<script>alert(1)</script>", 50.0, "1 of 2", "../../collections/x/")], "t")
    svg += change_chart([('"><img src=x onerror=alert(1)>', -3.0, "../tags/x/")], "t")
    assert "<script" not in svg and "<img" not in svg
    assert "&lt;script&gt;" in svg and "&quot;&gt;&lt;img" in svg


def test_a_digest_of_very_many_collections_draws_no_trend_charts(project, tmp_path) -> None:
    import json

    from generator.render.trends import MAX_TREND_COLLECTIONS, shows_trends
    from tests.conftest import render_digest, write_tree

    assert shows_trends(["A 2020", "A 2021"]) and not shows_trends(["A 2020"])
    # A bibliography: a collection per journal and year, one paper each.
    venues = MAX_TREND_COLLECTIONS + 1
    records = [json.dumps({"abstract": f"We study reinforcement learning for robots, case {n}. Robots learn.",
                           "venue": f"Journal {n}", "year": 2020}) for n in range(venues)]
    source = write_tree(tmp_path / "in", {"refs.jsonl": "\n".join(records) + "\n"}) / "refs.jsonl"
    files = render_digest(project, [source])
    assert not any(b"pd-chart" in data for path, data in files.items() if path.startswith("tags/"))
    assert b"## Trends" not in files["stats.md"]
