"""How far the field tagger is from its labels' ceiling, and whether its candidates hold the subject (prints figures).

    python bench/field_ceiling.py

On the tune part's threshold fold (`field_tags.tune_fold`: no classifier was fitted on it), for the
papers whose title names a learned topic of their field:

- the share whose title names one of the k likeliest topics by the field topic model (k = 1, 2, 3,
  5, 8): what a chooser among the candidates `paper-digest infer` offers (8) could reach;
- the tagger's first topic against the likeliest one: how often they differ, and when they do, which
  of the two the title names (the tagger's rules against the bare classifier), and how often the
  tagger gives no topic where the likeliest one is the title's.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.field_tags import tune_fold
from generator.enrich.areas import load_model
from generator.enrich.field_vocabulary import field_topics, load_vocabulary
from generator.enrich.fields import load_field_tagger
from generator.enrich.keywords import named_topics
from generator.text import to_plain

RANKS = (1, 2, 3, 5, 8)
CORPORA = ROOT.parent / "shared" / "corpora"


def main() -> None:
    tagger = load_field_tagger()
    assert tagger is not None, "train the field models first: python scripts/train_field_model.py"
    model = tagger.topic_model
    topics = field_topics(load_vocabulary())
    for field, records in tune_fold(CORPORA).items():
        plains = [to_plain(r["abstract"]) for r in records]
        tfidf = load_model().features(plains)
        tags = tagger.tag_in(plains, tfidf, [field] * len(plains))
        ranked = tagger.candidates(tfidf, plains, [field] * len(plains), max(RANKS))
        learned = {model.names[c] for c in tagger._columns[field].tolist()}
        named = [named_topics(topics, [], r["title"]) for r in records]
        titled = [i for i in range(len(records)) if named[i] & learned]
        reach = {k: sum(any(name in named[i] for name, _ in ranked[i][0][:k]) for i in titled) for k in RANKS}
        print(f"{field}, threshold fold: {len(titled)} papers whose title names a learned topic")
        print("  the title's topic among the k likeliest: "
              + ", ".join(f"k={k} {reach[k] / len(titled):.3f}" for k in RANKS))
        counts: Counter[str] = Counter()
        for i in titled:
            likeliest = ranked[i][0][0][0]
            shown = tags[i].topics[0].name if tags[i].topics else None
            if shown is None:
                counts["none"] += 1
                counts["none, likeliest named"] += likeliest in named[i]
            elif shown != likeliest:
                counts["differ"] += 1
                counts["differ, shown named"] += shown in named[i]
                counts["differ, likeliest named"] += likeliest in named[i]
        print(f"  the tagger's first topic differs from the likeliest on {counts['differ']} "
              f"({counts['differ'] / len(titled):.3f}): the title names the tagger's on "
              f"{counts['differ, shown named']}, "
              f"the likeliest on {counts['differ, likeliest named']}; no topic on {counts['none']} "
              f"(the likeliest the title's on {counts['none, likeliest named']})")


if __name__ == "__main__":
    main()
