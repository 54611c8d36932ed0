"""Topic and area pages keep their addresses: the lock lists every listing published, and one that goes
leads to its new name's page, its broader topic's, or the topics index, on every build; its feed serves
the feed of where it leads."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import yaml

from generator.enrich.field_vocabulary import AREA_PREFIX, load_vocabulary
from generator.enrich.tags import load_topics, renamed_topics
from generator.errors import DigestError
from generator.identity import Lock, dump_lock, parse_lock, stale_reasons, tag_redirects
from generator.identity.tag_addresses import record_tags
from generator.model import PATHS, TagPage
from generator.pipeline import generate
from generator.render.redirects import redirect_page
from generator.settings import load_settings
from tests.conftest import copy_project
from tests.test_metadata import ABSTRACTS

PARSING = TagPage("tags/parsing/", "Parsing", "Syntax", pages=3)
SYNTAX = TagPage("tags/syntax/", "Syntax")


def test_the_lock_keeps_a_gone_topic_page_and_the_most_pages_a_listing_had() -> None:
    known = (PARSING,)
    smaller = dataclasses.replace(PARSING, pages=1)
    assert record_tags(known, [smaller, SYNTAX]) == (PARSING, SYNTAX)  # still 3 pages: pages 2 and 3 lead on
    assert record_tags(known, [SYNTAX]) == (PARSING, SYNTAX)  # gone, kept
    assert record_tags((), [dataclasses.replace(PARSING, pages=4)])[0].pages == 4


def test_a_gone_topic_page_leads_to_its_new_name_then_its_broader_topic_then_the_topics_index() -> None:
    renamed_page = TagPage("tags/dependency-parsing/", "Dependency Parsing")
    # Renamed (through a chain: Parsing -> Syntactic Parsing -> Dependency Parsing), with a page now.
    moved = tag_redirects([PARSING], [renamed_page, SYNTAX],
                          {"Parsing": "Syntactic Parsing", "Syntactic Parsing": "Dependency Parsing"})
    pages = ("tags/parsing/", "tags/parsing/page/2/", "tags/parsing/page/3/")
    assert moved == dict.fromkeys(pages, "tags/dependency-parsing/")
    # No page for the new name: its broader topic.
    assert tag_redirects([PARSING], [SYNTAX], {"Parsing": "Gone Too"})["tags/parsing/"] == "tags/syntax/"
    # The same name at another address is the same topic.
    moved_page = TagPage("tags/parsing-2/", "Parsing")
    assert tag_redirects([PARSING], [moved_page], {})["tags/parsing/"] == "tags/parsing-2/"
    # Neither: the topics index. A cycle of renames ends.
    assert tag_redirects([PARSING], [], {"Parsing": "A", "A": "Parsing"})["tags/parsing/"] == PATHS.tags_index_url


def test_a_listing_that_shrinks_sends_its_later_pages_to_its_first_and_a_live_page_is_never_redirected() -> None:
    live = [dataclasses.replace(PARSING, pages=1), SYNTAX]
    assert tag_redirects([PARSING, SYNTAX], live, {}) == {
        "tags/parsing/page/2/": "tags/parsing/", "tags/parsing/page/3/": "tags/parsing/",
    }
    # A page another listing now publishes (a renamed topic whose slug is the old one's) stays that page.
    assert tag_redirects([PARSING], [dataclasses.replace(PARSING, name="Parsing!")], {}) == {}


def test_the_lock_file_round_trips_its_topic_pages_and_an_older_lock_without_them_reads() -> None:
    lock = Lock((), (PARSING, SYNTAX), exists=True)
    text = dump_lock(lock)
    assert '{"url": "tags/parsing/", "name": "Parsing", "parent": "Syntax", "pages": 3},' in text.splitlines()
    assert parse_lock(text, "paper-digest.lock") == lock
    assert dump_lock(parse_lock(text, "x")) == text  # the same bytes again
    older = '{"lock": 1, "about": "",\n"papers": []}\n'
    assert parse_lock(older, "x").tags == ()
    assert stale_reasons(parse_lock(older, "x"), lock) == [
        "topic page tags/parsing/ (Parsing) is new", "topic page tags/syntax/ (Syntax) is new",
    ]


@pytest.mark.parametrize("item", ['{"url": "tags/x/"}', '{"url": "tags/x/", "name": "X", "pages": 0}', '"tags/x/"'])
def test_a_broken_topic_page_in_the_lock_is_an_error_naming_its_line(item: str) -> None:
    text = f'{{"lock": 1, "about": "",\n"papers": [],\n"tags": [\n{{"url": "tags/a/", "name": "A"}},\n{item}\n]}}\n'
    with pytest.raises(DigestError, match=r"^paper-digest.lock:5: a topic page of the lock file"):
        parse_lock(text, "paper-digest.lock")


def test_the_redirect_of_a_topic_no_longer_in_the_digest_says_so() -> None:
    page = redirect_page("tags/parsing/", PATHS.tags_index_url)
    assert 'url=../../tags/' in page and "this topic is no longer in the digest" in page
    assert "its new address" in redirect_page("tags/parsing/", "tags/syntax/")


def test_every_renamed_topic_leads_to_a_name_the_bundled_vocabularies_have() -> None:
    names = {topic.name for topic in load_topics()}
    names |= {area["name"] for area in yaml.safe_load(
        (Path(__file__).parents[1] / "generator/data/areas.yaml").read_text(encoding="utf-8"))}
    names |= {entry["name"].removeprefix(AREA_PREFIX) for entry in load_vocabulary().entries}
    renamed = renamed_topics()
    assert renamed and all(new in names for new in renamed.values()), sorted(set(renamed.values()) - names)
    assert not set(renamed) & set(renamed.values())  # one step each: no chain, no cycle


@pytest.mark.slow
def test_a_renamed_then_hidden_topic_keeps_its_addresses_on_every_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    source = project / "in" / "papers.jsonl"
    source.parent.mkdir()
    source.write_text("".join(json.dumps({"title": f"Paper {n}", "abstract": text, "venue": "Conf 2026"}) + "\n"
                              for n, text in enumerate(ABSTRACTS)), encoding="utf-8")
    settings = load_settings(project)
    first = generate([source], settings)
    topic = next(t for p in first.papers for t in p.tags if t.kind == "topic" and not t.parent)
    overrides = project / settings.overrides_file
    overrides.write_text(yaml.safe_dump({"rename": {topic.name: "My Own Name"}}), encoding="utf-8")
    generate([source], settings)
    page = (settings.docs_path / topic.url / "index.html").read_text(encoding="utf-8")
    assert 'url=../../tags/my-own-name/' in page
    assert (settings.docs_path / "tags/my-own-name.md").is_file()
    # Its feed cannot redirect: the old path serves the new topic's feed, which names its own address.
    feed = (settings.docs_path / topic.feed_path).read_bytes()
    assert feed == (settings.docs_path / "feed-my-own-name.xml").read_bytes() and b'href="feed-my-own-name.xml"' in feed
    # Hidden: neither name has a page; both addresses lead to the topics index, saying so.
    overrides.write_text(yaml.safe_dump({"hide": [topic.name]}), encoding="utf-8")
    generate([source], settings)
    for url in (topic.url, "tags/my-own-name/"):
        page = (settings.docs_path / url / "index.html").read_text(encoding="utf-8")
        assert 'url=../../tags/' in page and "no longer in the digest" in page, url
    # Their feeds serve the digest's feed.
    digest_feed = (settings.docs_path / "feed.xml").read_bytes()
    assert (settings.docs_path / topic.feed_path).read_bytes() == digest_feed
    assert (settings.docs_path / "feed-my-own-name.xml").read_bytes() == digest_feed
    lock = parse_lock((project / "paper-digest.lock").read_text(encoding="utf-8"), "lock")
    assert {topic.url, "tags/my-own-name/"} <= {page.url for page in lock.tags}
    # Shown again: its own page is back, not a redirect.
    overrides.unlink()
    generate([source], settings)
    assert not (settings.docs_path / topic.url / "index.html").exists()
    assert (settings.docs_path / topic.path).is_file()
    assert b"urn:paper-digest:tag:" + topic.slug.encode() in (settings.docs_path / topic.feed_path).read_bytes()
