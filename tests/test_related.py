"""Related papers: nearest neighbours by TF-IDF, top matches only, deterministic."""

from __future__ import annotations

import pytest

from generator.enrich import related
from generator.enrich.related import related_papers

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


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_result_does_not_depend_on_the_number_of_threads(workers: int) -> None:
    matrix = related.vectorize(TEXTS * 50)
    assert related.nearest(matrix, 3, workers=workers) == related.nearest(matrix, 3, workers=1)


def test_equally_similar_papers_are_listed_in_input_order() -> None:
    # Twelve copies of one abstract: exact ties, all within the matches kept past `count`.
    others = [f"graph networks for molecules of kind {word}" for word in "abcdefghijklmn"]
    texts = ["offline reinforcement learning with value estimates"] * 12 + others
    result = related_papers(texts, count=5)
    assert result[0] == [1, 2, 3, 4, 5]
    assert result[7] == [0, 1, 2, 3, 4]
    assert all(j >= 12 for j in result[12])


def test_tiny_digests_have_no_related_papers() -> None:
    assert related_papers(["only one"]) == [[]]
    assert related_papers(["", ""]) == [[], []]
