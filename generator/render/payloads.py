"""The JSON files the site publishes: papers.json and the filter's data, with named fields (the map's: map_data).

Their shapes are documented as JSON Schemas in docs/schemas/ (tests/test_schemas.py).
"""

from __future__ import annotations

import json

from ..model import Collection, Paper, Source
from ..rows import RowLayout
from .exports import citation_key, year_of
from .groups import TagGroup


def filter_json(papers: list[Paper], groups: list[TagGroup]) -> str:
    """Return the tag filter's compact data: tags, and per paper its title, url and tag indexes."""
    tags = [{"slug": g.tag.slug, "name": g.tag.name, "kind": g.tag.kind, "count": len(g.papers)} for g in groups]
    index = {g.tag.slug: i for i, g in enumerate(groups)}
    rows = [
        {"title": p.title, "url": p.url, "tags": sorted(index[t.slug] for t in p.tags), "key": citation_key(p),
         "id": p.id}
        for p in papers
    ]
    return json.dumps({"tags": tags, "papers": rows}, ensure_ascii=False, separators=(",", ":")) + "\n"

#: papers.json: a JSON array, one paper per line.
PAPERS_JSON = RowLayout("[\n", ",\n", "\n]\n")


def papers_json_row(p: Paper, collections: dict[str, Collection]) -> str:
    """Return one paper's object of papers.json, on one line."""
    record = {
        "id": p.id,
        "slug": p.slug,
        "url": p.url,
        "title": p.title,
        "title_inferred": p.title_inferred,
        "title_source": p.title_source,
        "title_confidence": p.title_confidence,
        # Only beside a model's title: the papers.json of a digest without one stays as it was.
        **({"title_model": p.title_model} if p.title_source == "llm" else {}),
        "summary": p.summary,
        "tags": [
            {"name": t.name, "slug": t.slug, "kind": t.kind, "url": t.url, "confidence": t.confidence,
             "evidence": list(t.evidence), "parent": t.parent}
            for t in p.tags
        ],
        "collection": p.collection,
        "collection_url": collections[p.collection].url,
        "source": _source_json(p.source),
        "also_in": [_source_json(s) for s in p.also_in],
        "authors": list(p.authors),
        "venue": p.venue,
        "keywords": list(p.keywords),
        "subjects": list(p.subjects),
        "doi": dict(p.citation).get("doi", ""),
        "given_area": p.given_area,
        # The same year as papers.csv and papers.bib give: the source's, else the collection name's.
        "year": year_of(p),
        "date": p.date,
        "source_url": p.source_url,
        "source_id": p.source_id,
        "related": list(p.related),
        "related_weak": p.related_weak,
        "lang": p.lang,
        "abstract": p.abstract,
    }
    # One paper per line: diffs stay readable, and without `indent` json uses its C encoder
    # (an indented dump of 20,000 papers took 7 s in the pure-Python one). No spaces after the
    # separators: 4% of the file, 2.5 MB at 20,000 papers (issue 43).
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _source_json(source: Source) -> dict:
    # One shape for every format: `unit` says what `number` counts.
    return {"file": source.file, "unit": source.unit, "number": source.paragraph, "line": source.line}
