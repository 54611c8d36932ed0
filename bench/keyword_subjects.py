"""Which keyword topics are subjects of their papers (prints counts and the null spread; not a test).

    python bench/keyword_subjects.py ../shared/corpora/other-venues.jsonl

Enriches a digest with `subject_keywords` (enrich/keywords.py) watched: the keyword topics (tags a
source's keywords make that no vocabulary topic takes) before and after it, those dropped for having
fewer than `min_topic_papers` papers, those dropped by measurement (no third of the abstracts says
it, and the papers are no more alike than random ones), and the likeness ratio random groups of
papers reach (median, 95th and 99th percentile of 200 groups per size), against which `LIKENESS` is set.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import generator.enrich as enrich
from generator.enrich import keywords
from generator.read import read_sources
from generator.settings import Settings


def _keyword_topics(per_paper, vocabulary: set[str]) -> Counter[str]:
    return Counter(tag.name for tags in per_paper for tag in tags if tag.slug not in vocabulary
                   and tag.evidence and all(e.startswith("keyword: ") for e in tag.evidence))


def main(source: str) -> None:
    seen: dict[str, Counter[str]] = {}
    measured = keywords.subject_keywords

    def watched(candidates, plains, vectors, vocabulary, min_papers):
        kept = measured(candidates, plains, vectors, vocabulary, min_papers)
        seen["before"], seen["after"] = _keyword_topics(candidates, vocabulary), _keyword_topics(kept, vocabulary)
        if vectors is not None:
            base = keywords._mean_likeness(vectors, list(range(len(plains))))
            rng = random.Random(0)
            for n in (3, 10, 30, 100, 200):
                if n < len(plains):
                    r = sorted(keywords._mean_likeness(vectors, rng.sample(range(len(plains)), n)) / base
                               for _ in range(200))
                    print(f"random groups of {n}: likeness median {r[100]:.2f}, p95 {r[190]:.2f}, p99 {r[198]:.2f};"
                          f" bound 1 + {keywords.LIKENESS}/sqrt(n) = {1 + keywords.LIKENESS / n ** 0.5:.2f}")
        return kept

    enrich.subject_keywords = watched
    settings = Settings(project_dir=Path.cwd())
    enrich.enrich(read_sources([source], settings).papers, settings)
    before, after = seen["before"], seen["after"]
    print(f"keyword topics: {len(before)} on {sum(before.values())} paper tags before, "
          f"{len(after)} on {sum(after.values())} after")
    small = [name for name, count in before.items() if count < settings.min_topic_papers]
    print(f"fewer than {settings.min_topic_papers} papers: {len(small)}")
    dropped = sorted(((count, name) for name, count in before.items()
                      if name not in after and count >= settings.min_topic_papers), reverse=True)
    print(f"no subject by measurement: {len(dropped)}: {dropped[:20]}")
    print(f"kept, largest: {after.most_common(15)}")


if __name__ == "__main__":
    main(sys.argv[1])
