"""Related papers: nearest neighbours by TF-IDF, chunked, deterministic."""

from __future__ import annotations

import pytest

from generator import related
from generator.related import related_papers

TEXTS = [
    "Offline reinforcement learning with conservative value estimates for robot control.",
    "Conservative offline reinforcement learning: value estimates and policy constraints for robots.",
    "Diffusion models generate images by denoising; we distil diffusion models into one step.",
    "One-step diffusion distillation for fast image generation with denoising models.",
    "Graph neural networks for molecule property prediction with message passing.",
    "Message passing graph networks predict molecular properties.",
]


def test_each_paper_gets_its_closest_papers_first_and_never_itself() -> None:
    result = related_papers(TEXTS, count=2)
    assert [r[0] for r in result] == [1, 0, 3, 2, 5, 4]
    assert all(i not in r for i, r in enumerate(result))


def test_unrelated_papers_are_not_listed() -> None:
    result = related_papers(["alpha beta gamma", "delta epsilon zeta", "alpha beta gamma delta"], count=5)
    assert 1 not in result[0] and 0 not in result[1]


@pytest.mark.parametrize("chunk", [1, 2, 4, 1024])
def test_the_result_does_not_depend_on_the_chunk_size(monkeypatch, chunk: int) -> None:
    expected = related_papers(TEXTS, count=3)
    monkeypatch.setattr(related, "CHUNK", chunk)
    assert related_papers(TEXTS, count=3) == expected


def test_tiny_digests_have_no_related_papers() -> None:
    assert related_papers(["only one"]) == [[]]
    assert related_papers(["", ""]) == [[], []]
