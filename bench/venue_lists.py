"""Tag conference lists as a new user would and print what the issue checks (prints figures; not a test).

    python bench/venue_lists.py LIST [LIST ...]

Each LIST is a file `paper-digest` reads (a papercopilot/paperlists JSON file, a
MiniConf papers.csv, JSON Lines, ...), read and enriched whole as one digest,
titles and keywords included. For each one it prints: papers without a topic;
papers with an LLM-era tag (a topic marked `llm_era`, or the area "LLMs &
Foundation Models") whose abstract mentions no language model; the largest
topics with their share of the digest and their sub-topics; papers with
"Transformers & Architectures"; and the topics the source's keywords gave.
Nothing is written; the lists are never part of the project.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.enrich import enrich
from generator.enrich.tags import load_topics, mentions_language_model
from generator.read import read_sources
from generator.render.groups import group_by_tag
from generator.settings import Settings

LLM_AREA = "LLMs & Foundation Models"


def report(path: Path) -> None:
    """Print the figures of one list."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(project_dir=Path(folder))
        papers = enrich(read_sources([path], settings).papers, settings)
    n = max(len(papers), 1)
    llm_era = {t.name for t in load_topics() if t.requires_pattern is not None} | {LLM_AREA}
    bare = [p for p in papers if not any(t.kind == "topic" for t in p.tags)]
    era = [p for p in papers if not mentions_language_model(p.plain) and any(t.name in llm_era for t in p.tags)]
    topics = [g for g in group_by_tag(papers) if g.tag.kind == "topic"]
    print(f"== {path.name}: {len(papers)} papers; {len(bare)} without a topic ({len(bare) / n:.3f}); "
          f"{len(era)} with an LLM-era tag and no language model named ({len(era) / n:.3f})")
    for group in topics[:6]:
        parts = ", ".join(f"{tag.name} {count}" for tag, count in group.children)
        print(f"   {group.tag.name}: {len(group.papers)} papers ({len(group.papers) / n:.0%})"
              + (f"; sub-topics {parts}" if parts else ""))
    architectures = sum(1 for p in papers if any(t.name == "Transformers & Architectures" for t in p.tags))
    print(f"   Transformers & Architectures on {architectures} papers")
    given = Counter(t.name for p in papers for t in p.tags
                    if t.kind == "topic" and any(e.startswith("keyword: ") for e in t.evidence))
    print("   from the source's keywords:", ", ".join(f"{name} {count}" for name, count in given.most_common(8)))
    for paper in bare[:3]:
        print(f"   no topic: {paper.title[:80]}")
    for paper in era[:3]:
        print(f"   LLM-era without a language model: {paper.title[:70]} "
              f"({', '.join(t.name for t in paper.tags if t.name in llm_era)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lists", nargs="+", type=Path)
    args = parser.parse_args()
    print(f"$ python bench/venue_lists.py {' '.join(str(p) for p in args.lists)}")
    for path in args.lists:
        report(path)


if __name__ == "__main__":
    main()
