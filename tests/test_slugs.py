"""Paper slugs: readable, unique, safe in a path, and stable as the digest changes."""

from __future__ import annotations

import re

from generator.enrich import enrich, paper_slug
from generator.settings import Settings
from tests.conftest import make_paper

ABSTRACTS = [
    "We introduce GRACE, a framework for contrastive policy optimization of text encoders.",
    "We propose ReaPER, a reliability-adjusted prioritized experience replay method for offline RL.",
    "We study how diffusion models memorize training data and show that memorization grows with model size.",
]


def slugs(abstracts: list[str]) -> dict[str, str]:
    papers = enrich([make_paper(a) for a in abstracts], Settings())
    return {p.abstract: p.slug for p in papers}


def test_slugs_are_unique_even_for_identical_titles() -> None:
    same = [f"We introduce GRACE, a framework for contrastive policy optimization. Variant {n}." for n in range(5)]
    result = slugs(same)
    assert len(set(result.values())) == 5


def test_slug_does_not_change_when_a_paper_is_inserted_or_removed() -> None:
    before = slugs(ABSTRACTS)
    inserted = [*ABSTRACTS[:1], "We introduce GRACE, a framework for something else entirely.", *ABSTRACTS[1:]]
    after = slugs(inserted)
    assert all(after[a] == before[a] for a in ABSTRACTS)
    assert slugs(ABSTRACTS[1:]) == {a: before[a] for a in ABSTRACTS[1:]}


def test_slugs_are_path_safe_for_hostile_titles() -> None:
    for title in ["../../etc/passwd", "CON", "a/b\\c", "", "名前", "🙂" * 50, "x" * 500]:
        slug = paper_slug(title, "0123456789ab")
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*-[0-9a-f]{6}", slug), slug
        assert len(slug) <= 70 and ".." not in slug and "/" not in slug
