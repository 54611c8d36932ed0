"""Atom feeds: valid, newest first, dates from the sources (never the clock), stable ids, inert text."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest

from generator.dates import date_in, leading_date
from generator.render.feeds import ATOM, fallback_date, paper_date
from generator.settings import load_settings
from tests.conftest import make_paper, render_digest, write_tree

ABSTRACTS = [
    "We introduce GRACE, a framework for contrastive policy optimization in offline reinforcement learning.",
    "We propose ReaPER, a replay method for offline reinforcement learning with prioritized experience.",
    "We present FlowNet3D, a diffusion model for point cloud generation and 3D shape completion.",
]


def parse(data: bytes):
    feed = feedparser.parse(data)
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "atom10"
    return feed


def test_the_digest_feed_is_valid_atom_with_every_paper_and_its_tags(project: Path, tmp_path: Path) -> None:
    files = render_digest(project, [write_tree(tmp_path / "in", {"2026-11-30.txt": "\n\n".join(ABSTRACTS)})])
    feed = parse(files["feed.xml"])
    papers = json.loads(files["papers.json"])
    assert {e.id for e in feed.entries} == {f"urn:paper-digest:paper:{p['id']}" for p in papers}
    entry = next(e for e in feed.entries if e.title.startswith("GRACE"))
    paper = next(p for p in papers if p["title"] == entry.title)
    assert entry.link == paper["url"] and entry.summary == paper["summary"]
    assert {t.term for t in entry.tags} == {t["slug"] for t in paper["tags"]}
    # The file's name dates a daily digest's papers.
    assert entry.updated.startswith("2026-11-30") and feed.feed.updated.startswith("2026-11-30")


def test_every_tag_has_a_feed_of_its_own_papers_linked_from_its_page(project: Path, tmp_path: Path) -> None:
    files = render_digest(project, [write_tree(tmp_path / "in", {"d.txt": "\n\n".join(ABSTRACTS)})])
    papers = json.loads(files["papers.json"])
    for tag in {t["slug"] for p in papers for t in p["tags"]}:
        feed = parse(files[f"feed-{tag}.xml"])
        members = {p["id"] for p in papers if tag in {t["slug"] for t in p["tags"]}}
        assert {e.id.rsplit(":", 1)[1] for e in feed.entries} == members
        # Links are relative to the feed's own folder, the site root.
        assert all(e.link.startswith("papers/") for e in feed.entries)
        page = files[f"tags/{tag}.md"].decode()
        assert f"feed: feed-{tag}.xml" in page and f"[Atom feed](../feed-{tag}.xml)" in page
    assert "feed: feed.xml" in files["index.md"].decode()


def test_links_are_absolute_when_the_site_url_is_set(project: Path, tmp_path: Path) -> None:
    files = render_digest(project, [write_tree(tmp_path / "in", {"d.txt": ABSTRACTS[0]})], site_url="https://x.org/d/")
    feed = parse(files["feed.xml"])
    assert feed.entries[0].link.startswith("https://x.org/d/papers/")
    assert any(link.href == "https://x.org/d/feed.xml" and link.rel == "self" for link in feed.feed.links)


def test_ids_and_dates_stay_when_papers_are_added(project: Path, tmp_path: Path) -> None:
    before = render_digest(project, [write_tree(tmp_path / "a", {"d.txt": "\n\n".join(ABSTRACTS[:2])})],
                    source_date_epoch="1764460800")
    after = render_digest(project, [write_tree(tmp_path / "b", {"d.txt": "\n\n".join(ABSTRACTS)})],
                   source_date_epoch="1764460800")
    old = {e.id: e.updated for e in parse(before["feed.xml"]).entries}
    new = {e.id: e.updated for e in parse(after["feed.xml"]).entries}
    assert len(new) == len(old) + 1
    assert {k: new[k] for k in old} == old
    assert set(old.values()) == {"2025-11-30T00:00:00Z"}


def test_a_growing_digest_puts_the_newest_days_papers_first(project: Path, tmp_path: Path) -> None:
    days = write_tree(tmp_path / "daily", {
        "2026-11-28.txt": ABSTRACTS[0], "2026-11-29.txt": ABSTRACTS[1], "2026-11-30.txt": ABSTRACTS[2],
    })
    first = render_digest(project, [days])
    entries = parse(first["feed.xml"]).entries
    assert [e.updated[:10] for e in entries] == ["2026-11-30", "2026-11-29", "2026-11-28"]
    assert entries[0].title.startswith("FlowNet3D")
    # A rebuild of the same input writes the same bytes: no clock in the feed.
    assert render_digest(project, [days])["feed.xml"] == first["feed.xml"]


@pytest.mark.parametrize(
    ("fields", "fallback", "expected"),
    [
        ({"date": "2025-01-30"}, "", "2025-01-30"),
        ({"source_file": "digests/2026-11-30.txt"}, "", "2026-11-30"),
        ({"year": "2024"}, "", "2024-01-01"),
        ({}, "1764460800", "2025-11-30"),
        ({"collection": "ICLR 2026"}, "", "2026-01-01"),
        ({"collection": "My digest"}, "", "1970-01-01"),
    ],
)
def test_an_entrys_date_comes_from_its_source_first(fields: dict, fallback: str, expected: str) -> None:
    from generator.model import Source

    paper = make_paper(**{k: v for k, v in fields.items() if k != "source_file"})
    if "source_file" in fields:
        paper = dataclasses.replace(paper, source=Source(fields["source_file"], 1, 1))
    if "collection" not in fields:
        paper = dataclasses.replace(paper, collection="Notes")
    assert paper_date(paper, fallback) == expected


def test_dates_are_read_from_text_only_when_they_are_real_dates() -> None:
    assert date_in("arxiv-2026-11-30.txt") == "2026-11-30"
    assert date_in("2026-13-01.txt") == "" and date_in("12026-11-30") == ""
    assert fallback_date("not a number", "Venue 2031") == "2031-01-01"
    assert leading_date(" 2025-01-30T18:00:00Z") == "2025-01-30" and leading_date("on 2025-01-30") == ""


def test_hostile_text_stays_text_in_feeds(hostile_site) -> None:
    settings, _, records = hostile_site
    data = (settings.site_path / "feed.xml").read_bytes()
    root = ET.fromstring(data)  # well-formed XML whatever the abstracts held
    assert root.tag == f"{{{ATOM}}}feed"
    # Only Atom's own elements: no abstract text became an element or an attribute.
    allowed = {"feed", "id", "title", "updated", "link", "author", "name", "generator", "entry", "published",
               "category", "summary"}
    assert {element.tag.split("}")[1] for element in root.iter()} <= allowed
    feed = parse(data)
    titles = {r["title"] for r in records}
    assert {e.title for e in feed.entries} <= titles
    for entry in feed.entries:
        assert entry.summary_detail.type == "text/plain"


def test_a_daily_digest_grows_by_one_file_and_its_feed_leads_with_the_new_day(project: Path, tmp_path: Path) -> None:
    from generator.pipeline import generate

    settings = load_settings(project)
    days = write_tree(tmp_path / "daily", {"2026-11-28.txt": ABSTRACTS[0], "2026-11-29.txt": ABSTRACTS[1]})
    first = generate([days], settings)
    before = parse((settings.docs_path / "feed.xml").read_bytes())
    (days / "2026-11-30.txt").write_text("Daily 2026-11-30\n\n" + ABSTRACTS[2] + "\n", encoding="utf-8")
    second = generate([days], settings)
    after = parse((settings.docs_path / "feed.xml").read_bytes())
    assert len(second.papers) == len(first.papers) + 1
    new = next(p for p in second.papers if p.id not in {q.id for q in first.papers})
    assert after.entries[0].id == f"urn:paper-digest:paper:{new.id}"
    assert after.entries[0].updated.startswith("2026-11-30") and after.feed.updated.startswith("2026-11-30")
    assert [(e.id, e.updated) for e in after.entries[1:]] == [(e.id, e.updated) for e in before.entries]
    assert new.path in second.render.written


def test_a_paper_added_at_the_top_of_a_text_digest_comes_first_in_the_feed_and_all_papers(
    project: Path, tmp_path: Path
) -> None:
    from generator.pipeline import generate

    settings = load_settings(project, source_date_epoch="1764460800")
    source = write_tree(tmp_path / "in", {"d.txt": "\n\n".join(ABSTRACTS[1:])}) / "d.txt"
    generate([source], settings)
    # The next edit puts a new abstract above the others: one date for all, so the lock's order decides.
    source.write_text("\n\n".join(ABSTRACTS), encoding="utf-8")
    generate([source], settings)
    entries = parse((project / "site_src" / "feed.xml").read_bytes()).entries
    assert entries[0].title.startswith("GRACE"), [e.title for e in entries]
    listing = (project / "site_src" / "all.md").read_text(encoding="utf-8")
    assert listing.index("GRACE") < min(listing.index("ReaPER"), listing.index("FlowNet3D"))
