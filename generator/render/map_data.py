"""The topic map's data file (map.json): areas and topics with their counts, each paper's place, and topic labels.

Its shape is documented in docs/schemas/map.schema.json. Everything here is
exact arithmetic on the layout's rounded places (sorting, counting, math.fsum),
so the file is the same bytes on every machine.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ..model import Paper
from .groups import TagGroup

#: Colours of the map's areas, distinguishable on light and dark backgrounds.
MAP_COLOURS = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
    "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
    "#7f7f7f", "#aec7e8", "#ffbb78",
)
#: Topics labelled on the map, largest first (the map shows as many as fit at each zoom).
LABELS = 60
#: A label sits where its topic is densest: the busiest cell of a grid this many cells a side.
_GRID = 16


def map_json(
    papers: list[Paper], areas: list[TagGroup], topics: list[TagGroup], positions: Sequence[tuple[float, float]]
) -> str:
    """Return the topic map's data: areas (colours) and topics with counts, places, and topic labels.

    `positions` are the papers' places on the map, in the same order
    (enrich.maps.MapLayout). An area's or topic's count is its number of
    papers, as the home page and its tag page say; a point takes the colour of
    its paper's first (most likely) area.
    """
    area_index = {g.tag.slug: i for i, g in enumerate(areas)}
    topic_index = {g.tag.slug: i for i, g in enumerate(topics)}
    points: list[dict[str, Any]] = []
    for paper, (x, y) in zip(papers, positions, strict=True):
        points.append({
            "x": x, "y": y,
            "areas": [area_index[t.slug] for t in paper.tags if t.kind == "area" and t.slug in area_index],
            "topics": [topic_index[t.slug] for t in paper.tags if t.kind == "topic" and t.slug in topic_index],
            "title": paper.title, "url": paper.url,
        })
    coloured = [0] * len(areas)
    for point in points:
        if point["areas"]:
            coloured[point["areas"][0]] += 1
    legend = [
        {"name": g.tag.name, "slug": g.tag.slug, "count": len(g.papers), "coloured": coloured[i],
         "color": MAP_COLOURS[i % len(MAP_COLOURS)], "url": g.tag.url}
        for i, g in enumerate(areas)
    ]
    topic_rows = [{"name": g.tag.name, "slug": g.tag.slug, "count": len(g.papers), "url": g.tag.url} for g in topics]
    data = {"areas": legend, "topics": topic_rows, "labels": topic_labels(points, len(topics)), "points": points}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def topic_labels(points: list[dict], topic_count: int) -> list[dict]:
    """Return where to label the largest topics: the mean place of each one's papers around its densest cell.

    Largest topic first (topics are indexed by size); a topic of fewer than 3 papers gets no label.
    """
    members: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for point in points:
        for topic in point["topics"]:
            if topic < LABELS:
                members[topic].append((point["x"], point["y"]))
    labels = []
    for topic in range(min(LABELS, topic_count)):
        places = members.get(topic, [])
        if len(places) < 3:
            continue
        cells: dict[tuple[int, int], int] = defaultdict(int)
        for x, y in places:
            cells[_cell(x), _cell(y)] += 1
        # The busiest cell (ties: the first in grid order), widened to its 3 x 3 block.
        (cx, cy), _ = min(cells.items(), key=lambda kv: (-kv[1], kv[0]))
        near = [(x, y) for x, y in places if abs(_cell(x) - cx) <= 1 and abs(_cell(y) - cy) <= 1]
        labels.append({
            "topic": topic, "papers": len(near),
            "x": round(math.fsum(x for x, _ in near) / len(near), 4),
            "y": round(math.fsum(y for _, y in near) / len(near), 4),
        })
    return labels


def _cell(value: float) -> int:
    return min(_GRID - 1, int(value * _GRID))
