"""Stable ids: a paper keeps its id and address through edits; every address once published keeps working."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.errors import DigestError
from generator.identity import Lock, dump_lock, identify, parse_lock, publish
from generator.identity.sketch import THRESHOLD, similarity, sketch
from generator.pipeline import generate
from generator.settings import Settings, load_settings
from tests.conftest import make_paper, write_tree

A = ("We introduce GRACE, a framework for contrastive policy optimization that learns representations "
     "from rewards. GRACE improves sample efficiency on twelve control benchmarks by a wide margin.")
B = ("We propose ReaPER, a replay method for offline reinforcement learning that reweights transitions "
     "by their reliability. ReaPER reaches higher returns than prioritized replay on Atari.")
C = ("We study protein folding with language models trained on evolutionary sequences. Our model predicts "
     "contact maps more accurately than coevolution methods on difficult targets.")
D = ("We present a benchmark of graph neural networks for molecule property prediction, with a split by "
     "scaffold. Message passing models beat fingerprints on nine of twelve tasks.")


def digest(project: Path, *abstracts: str, header: str = "Test 2026") -> Path:
    write_tree(project, {"data/d.txt": header + "\n\n" + "\n\n".join(abstracts) + "\n"})
    return project / "data"


def published(project: Path) -> dict[str, dict]:
    """Return papers.json's rows by id."""
    rows = json.loads((project / "site_src" / "papers.json").read_text(encoding="utf-8"))
    return {row["id"]: row for row in rows}


def served(project: Path, url: str) -> str:
    """Return where a published address leads: the page's own URL, or a redirect's target ('' : home)."""
    docs = project / "site_src"
    if (docs / (url.rstrip("/") + ".md")).exists():
        return url
    page = docs / url / "index.html"
    assert page.exists(), f"{url} is no longer served"
    text = page.read_text(encoding="utf-8")
    assert 'name="robots" content="noindex"' in text and 'rel="canonical"' in text
    target = text.split('http-equiv="refresh" content="0; url=', 1)[1].split('"', 1)[0]
    return target.replace("../", "")


def every_old_url_is_served(project: Path, before: dict[str, dict]) -> None:
    now = published(project)
    for paper_id, row in before.items():
        target = served(project, row["url"])
        if paper_id in now:
            assert target == now[paper_id]["url"]


def test_a_typo_fixed_keeps_the_id_and_the_address(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B, C)], settings)
    before = published(project)
    generate([digest(project, A.replace("rewards", "rewrads"), B, C.replace("accurately", "acurately"))], settings)
    after = published(project)
    assert set(after) == set(before)
    assert {i: r["url"] for i, r in after.items()} == {i: r["url"] for i, r in before.items()}
    assert "rewrads" in next(r["abstract"] for r in after.values() if "GRACE" in r["abstract"])


def test_a_sentence_added_and_a_paragraph_joined_keep_the_id(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B, C)], settings)
    before = published(project)
    grace = next(i for i, r in before.items() if "GRACE" in r["abstract"])
    longer = A + " We also release an open-source implementation with tuned baselines."
    generate([digest(project, longer, B, C)], settings)
    assert grace in published(project)
    # "Code is available" goes on from the abstract before: joined to it, the paper keeps its id.
    generate([digest(project, longer + "\n\nCode is available at https://github.com/x/grace.", B, C)], settings)
    now = published(project)
    assert grace in now and "github.com/x/grace" in now[grace]["abstract"]
    every_old_url_is_served(project, before)


def test_reordered_papers_keep_their_ids_and_added_order(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B)], settings)
    generate([digest(project, C, B, A)], settings)
    lock = parse_lock((project / "paper-digest.lock").read_text(encoding="utf-8"), "lock")
    rows = published(project)
    added = {rows[e.id]["abstract"][:10]: e.added for e in lock.entries}
    assert added == {A[:10]: 1, B[:10]: 2, C[:10]: 3}


def test_a_new_title_moves_the_page_and_leaves_a_redirect(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B)], settings)
    before = published(project)
    grace = next(i for i, r in before.items() if "GRACE" in r["abstract"])
    write_tree(project, {"tag-overrides.yaml": f'titles:\n  "{grace}": "Contrastive Policy Learning"\n'})
    generate([digest(project, A, B)], settings)
    now = published(project)
    assert now[grace]["title"] == "Contrastive Policy Learning"
    assert now[grace]["url"] != before[grace]["url"] and now[grace]["url"].startswith("papers/contrastive-policy")
    assert served(project, before[grace]["url"]) == now[grace]["url"]
    every_old_url_is_served(project, before)


def test_a_removed_paper_leaves_a_redirect_to_the_home_page(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B)], settings)
    before = published(project)
    generate([digest(project, B)], settings)
    gone = next(r for r in before.values() if "GRACE" in r["abstract"])
    assert served(project, gone["url"]) == ""
    # It comes back with its id, edited or not.
    generate([digest(project, B, A.replace("wide", "large"))], settings)
    assert gone["id"] in published(project)


def test_two_abstracts_edited_into_one_leave_a_redirect_to_the_one_kept(project: Path) -> None:
    settings = load_settings(project)
    near = A.replace("twelve control benchmarks", "twelve control tasks")
    generate([digest(project, A, C, near)], settings)
    before = published(project)
    assert len(before) == 3
    generate([digest(project, A, C, A)], settings)
    now = published(project)
    assert len(now) == 2
    every_old_url_is_served(project, before)
    merged = next(r for i, r in before.items() if i not in now)
    assert served(project, merged["url"]) in {r["url"] for r in now.values()}


#: A paper list's record with an id of its own.
RECORD = {"id": "7007", "title": "Grace", "abstract": A, "venue": "NeurIPS", "year": 2016}


def generate_record(project: Path, settings: Settings, **fields: object) -> dict[str, dict]:
    """Generate a digest of RECORD (with `fields` changed) and return the papers published."""
    write_tree(project, {"data/p.jsonl": json.dumps({**RECORD, **fields}) + "\n"})
    generate([project / "data"], settings)
    return published(project)


def test_a_record_id_names_the_paper_and_an_edited_abstract_keeps_it(project: Path) -> None:
    settings = load_settings(project)
    first = generate_record(project, settings)
    (project / "paper-digest.lock").unlink()  # without a lock too: the id comes from the record's
    (project / "site_src" / "papers.json").unlink()
    assert set(generate_record(project, settings, abstract=C)) == set(first)


def test_the_lock_round_trips_and_the_same_input_writes_it_byte_for_byte(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B, C)], settings)
    path = project / "paper-digest.lock"
    text = path.read_text(encoding="utf-8")
    assert dump_lock(parse_lock(text, "lock")) == text
    json.loads(text)  # plain JSON
    # A file to commit and share: readable by others as any new file is (not private, as a temporary file is).
    umask = os.umask(0o22)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    mtime = path.stat().st_mtime_ns
    generate([digest(project, A, B, C)], settings)
    assert path.stat().st_mtime_ns == mtime


def test_locked_fails_on_a_stale_lock_and_says_why(project: Path) -> None:
    settings = load_settings(project)
    with pytest.raises(DigestError, match="no lock file yet"):
        generate([digest(project, A, B)], settings, locked=True)
    generate([digest(project, A, B)], settings)
    generate([digest(project, A, B)], settings, locked=True)  # up to date: fine
    lock = (project / "paper-digest.lock").read_bytes()
    with pytest.raises(DigestError, match=r"out of date \(--locked\)[\s\S]*is new"):
        generate([digest(project, A, B, C)], settings, locked=True)
    assert (project / "paper-digest.lock").read_bytes() == lock


def test_a_digest_without_a_lock_adopts_the_ids_it_published(project: Path) -> None:
    settings = load_settings(project)
    before = generate_record(project, settings)
    # As a digest published before lock files: its papers.json has ids made from the abstracts.
    old_id = "0123456789ab"
    rows = [{**row, "id": old_id, "url": f"papers/grace-{old_id[:6]}/"} for row in before.values()]
    (project / "site_src" / "papers.json").write_text(json.dumps(rows), encoding="utf-8")
    (project / "paper-digest.lock").unlink()
    generate([project / "data"], settings)
    assert list(published(project)) == [old_id]


def test_an_ambiguous_near_duplicate_gets_a_new_id() -> None:
    twin = A.replace("GRACE", "GRACE-2")
    lock = identify([make_paper(A), make_paper(twin)], Lock()).lock
    edited = make_paper(A.replace("GRACE", "GRACE-3"))
    result = identify([edited], lock)
    assert result.papers[0].id not in {e.id for e in lock.entries}


def test_sketches_tell_edits_from_other_abstracts() -> None:
    assert similarity(sketch(A), sketch(A.replace("wide", "large"))) >= 0.8
    assert similarity(sketch(A), sketch(A + " Code is at github.com/x/y.")) >= THRESHOLD
    for other in (B, C, D):
        assert similarity(sketch(A), sketch(other)) < 0.2


def test_publish_records_each_address_once_and_the_current_one_last() -> None:
    paper = make_paper(A, slug="grace-aaaaaa")
    lock = identify([paper], Lock()).lock
    paper = paper.__class__(**{**paper.__dict__, "id": lock.entries[0].id})
    first = publish(lock, [paper])
    moved = publish(first, [paper.__class__(**{**paper.__dict__, "slug": "new-aaaaaa"})])
    back = publish(moved, [paper])
    assert back.entries[0].urls == ("papers/new-aaaaaa/", "papers/grace-aaaaaa/")


def test_feed_entries_stars_and_pins_keep_their_id_through_an_edit(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B, C)], settings)
    grace = next(r for r in published(project).values() if "GRACE" in r["abstract"])
    write_tree(project, {"tag-overrides.yaml": f'pin:\n  "{grace["id"]}": [Protein Design]\n'})
    generate([digest(project, A.replace("wide", "large"), B, C)], settings)
    feed = (project / "site_src" / "feed.xml").read_text(encoding="utf-8")
    page = (project / "site_src" / (grace["url"].rstrip("/") + ".md")).read_text(encoding="utf-8")
    assert f"urn:paper-digest:paper:{grace['id']}" in feed
    assert f'data-pd-star="{grace["id"]}"' in page
    assert "Protein Design" in {t["name"] for t in published(project)[grace["id"]]["tags"]}


def test_the_default_digests_committed_lock_is_up_to_date(project: Path) -> None:
    import shutil

    from tests.conftest import DEFAULT_CORPUS, ROOT

    # CI builds the default digest with --locked: a change of its abstracts must come with its lock.
    shutil.copytree(DEFAULT_CORPUS, project / "data" / DEFAULT_CORPUS.name)
    shutil.copyfile(ROOT / "paper-digest.lock", project / "paper-digest.lock")
    report = generate([project / "data"], load_settings(project), locked=True)
    assert len(report.papers) == 57
