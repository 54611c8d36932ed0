"""User overrides: added topics, renamed and hidden tags, pinned tags."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.enrich import enrich
from generator.errors import DigestError
from generator.settings import Settings
from tests.conftest import make_paper, write_tree

ABSTRACTS = [
    f"We study protein folding with language models. Protein folding matters. Variant {n}." for n in range(3)
] + ["We propose ReaPER, a replay method for offline reinforcement learning. Offline RL is hard."]


def tagged(tmp_path: Path, overrides: str) -> list:
    write_tree(tmp_path, {"tag-overrides.yaml": overrides})
    return enrich([make_paper(a) for a in ABSTRACTS], Settings(project_dir=tmp_path))


def names(paper) -> set[str]:
    return {t.name for t in paper.tags}


def test_an_added_topic_tags_matching_papers(tmp_path: Path) -> None:
    papers = tagged(tmp_path, "topics:\n  - name: Protein Folding\n    phrases: [protein folding]\n")
    assert all("Protein Folding" in names(p) for p in papers[:3])
    assert "Protein Folding" not in names(papers[3])


def test_rename_and_hide_change_every_paper(tmp_path: Path) -> None:
    plain = enrich([make_paper(a) for a in ABSTRACTS], Settings(project_dir=tmp_path))
    area = plain[0].tags[0].name
    papers = tagged(
        tmp_path,
        "topics:\n  - name: Protein Folding\n    phrases: [protein folding]\n"
        f"rename:\n  {area}: Renamed Area\nhide:\n  - Protein Folding\n",
    )
    assert papers[0].tags[0].name == "Renamed Area" and papers[0].tags[0].slug == "renamed-area"
    assert not any(area == t.name for p in papers for t in p.tags)
    assert not any("Protein Folding" in names(p) for p in papers)


def test_a_pinned_tag_shows_even_on_one_paper(tmp_path: Path) -> None:
    target = make_paper(ABSTRACTS[3])
    papers = tagged(tmp_path, f"pin:\n  {target.id}: [My Reading Group]\n")
    pinned = next(t for t in papers[3].tags if t.name == "My Reading Group")
    assert pinned.evidence == ("pinned in the overrides file",) and pinned.confidence == 1.0
    assert not any("My Reading Group" in names(p) for p in papers[:3])


def test_a_bad_overrides_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DigestError, match="unknown section 'colour'"):
        tagged(tmp_path, "colour: blue\n")
    with pytest.raises(DigestError, match="needs `phrases` or `acronyms`"):
        tagged(tmp_path, "topics:\n  - name: Empty\n")
