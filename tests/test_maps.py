"""The topic map's layout: every paper gets a place, similar papers lie close, the same input gives the same map."""

from __future__ import annotations

import math
import random

from generator.enrich.maps import map_coordinates
from generator.enrich.related import MAP_NEIGHBOURS, nearest
from generator.enrich.vectors import vectorize

TOPICS = {
    "rl": "reinforcement learning agent reward policy environment exploration offline critic",
    "vision": "image segmentation convolutional pixels object detection camera scenes",
    "graphs": "graph neural network nodes edges message passing molecules",
}


def corpus(per_topic: int) -> tuple[list[str], list[str]]:
    rng = random.Random(7)
    shared = [f"common{i}" for i in range(40)]
    texts, labels = [], []
    for label, words in TOPICS.items():
        for _ in range(per_topic):
            # Five words of its topic and three words any paper may use.
            texts.append(" ".join(rng.sample(words.split(), 5) + rng.sample(shared, 3)))
            labels.append(label)
    return texts, labels


def layout(texts: list[str]) -> list[tuple[float, float]]:
    vectors = vectorize(texts)
    assert vectors is not None
    return map_coordinates(nearest(vectors.matrix, MAP_NEIGHBOURS))


def spread(points, labels) -> tuple[float, float]:
    """Return the mean distance between papers of the same topic and of different topics."""
    same, other = [], []
    for i in range(0, len(points), 3):
        for j in range(i + 1, len(points), 5):
            distance = math.dist(points[i], points[j])
            (same if labels[i] == labels[j] else other).append(distance)
    return sum(same) / len(same), sum(other) / len(other)


def test_every_paper_gets_its_own_place_in_the_unit_square_and_topics_cluster() -> None:
    texts, labels = corpus(60)
    points = layout(texts)
    assert len(points) == len(texts)
    assert all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for x, y in points)
    assert len(set(points)) > 170  # not stacked on a few spots
    same, other = spread(points, labels)
    assert same * 2 < other


def test_the_same_input_gives_the_same_map() -> None:
    texts, _ = corpus(30)
    assert layout(texts) == layout(texts)


def test_a_paper_with_no_similar_paper_still_gets_a_place() -> None:
    texts, _ = corpus(20)
    points = layout([*texts, "zyxwv qwerty uiop"])
    assert len(points) == len(texts) + 1
    assert all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for x, y in points)


def test_tiny_digests_are_centred() -> None:
    assert map_coordinates([[(1, 0.5)], [(0, 0.5)]]) == [(0.5, 0.5), (0.5, 0.5)]
    assert map_coordinates([[], [], []]) == [(0.5, 0.5)] * 3


def test_two_linked_papers_and_one_alone_get_finite_places() -> None:
    # The graph has too few parts for two spectral axes: the second one must not divide by zero.
    neighbours = [[(1, 0.161174)], [(0, 0.161174)], []]
    points = map_coordinates(neighbours)
    assert all(math.isfinite(v) and 0.0 <= v <= 1.0 for point in points for v in point)
    assert points[0] != points[2] and points[1] != points[2]


def test_a_map_drawn_in_a_process_of_its_own_is_the_map_drawn_here(monkeypatch) -> None:
    import generator.enrich.maps as maps

    texts, _ = corpus(40)
    vectors = vectorize(texts)
    assert vectors is not None
    neighbours = nearest(vectors.matrix, MAP_NEIGHBOURS)
    here = map_coordinates(neighbours)
    assert maps.MapLayout(neighbours).positions() == here

    # Drawn by the process (started fresh: it never shares the generator's heap), not here.
    def not_here(_neighbours) -> None:
        raise AssertionError("drawn in the generator")

    monkeypatch.setattr(maps, "map_coordinates", not_here)
    assert maps.MapLayout(neighbours, fork=True).positions() == here
    monkeypatch.undo()

    # A process that dies sends nothing: the map is drawn here instead, not lost.
    dying = maps.MapLayout(neighbours, fork=True)
    assert dying._process is not None
    dying._process.kill()
    assert dying.positions() == here


def test_a_few_outliers_do_not_squeeze_the_map_into_a_corner() -> None:
    import numpy as np

    from generator.enrich.maps import _robust_scale

    rng = np.random.Generator(np.random.PCG64(3))
    points = rng.random((1000, 2))
    points[0] = (-400.0, -400.0)  # one paper far away, linked to paper 1
    points[999] = (900.0, 5.0)  # another, linked to no paper
    heads, tails = np.array([0, 2]), np.array([1, 3])
    scaled = _robust_scale(points, heads, tails)
    middle = scaled[1:999]
    # The bulk fills the square (less its margin), not a corner of it.
    assert middle.min() < 0.05 and middle.max() > 0.95
    assert np.all((scaled >= 0) & (scaled <= 1))
    # The linked outlier sits on its neighbour; the lone one at the edge it strays to.
    assert tuple(scaled[0]) == tuple(scaled[1])
    assert scaled[999][0] == 1.0


def test_the_map_of_a_scattered_digest_fills_the_square() -> None:
    texts, _ = corpus(60)
    points = layout([*texts, "zyxwv qwerty uiop"])
    xs, ys = sorted(x for x, _ in points), sorted(y for _, y in points)
    # The central 98% of papers span most of each axis.
    cut = len(points) // 100
    assert (xs[-1 - cut] - xs[cut]) * (ys[-1 - cut] - ys[cut]) >= 0.5
