"""Find subjects the field vocabulary lacks: phrases the titles of a field's tune papers share that no topic names.

    python bench/field_gaps.py ["Natural Language Processing" "Robotics" ...] [--since 2015] [--top 150]

Reads the tune part of the corpora (never a held-out venue-year, bench/split.py), keeps each
field's papers whose title names none of its topics (`keywords.named_topics`, the field topic
model's label rule), and prints the phrases of two and three words most of those titles share
(counted once a title). A subject many titles name ("task planning", "crowd counting") is a
topic missing from generator/data/fields.yaml or a phrase missing from a topic; a generic one
("case study") is not. Then: `python scripts/train_field_model.py --skip-fields`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_field_model import CORPORA, read_corpora

from generator.enrich.field_vocabulary import AREA_PREFIX, field_topics, load_vocabulary
from generator.enrich.keywords import named_topics
from generator.enrich.titles.cleaning import word_set

_STOP = word_set(
    "a an the of for in on with and to via from by using towards toward based learning deep neural network networks "
    "model models method approach new robust efficient robot robots robotic system systems"
)


def title_phrases(title: str) -> set[str]:
    """Return a title's phrases of two and three words that neither start nor end with a stop word."""
    words = re.findall(r"[a-z][a-z0-9-]+", title.lower())
    return {
        " ".join(words[i : i + size]) for size in (2, 3) for i in range(len(words) - size + 1)
        if words[i] not in _STOP and words[i + size - 1] not in _STOP
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fields", nargs="*", default=["Natural Language Processing", "Computer Vision", "Robotics"])
    parser.add_argument("--corpora", default=str(CORPORA))
    parser.add_argument("--since", type=int, default=2015, help="papers of this year or later")
    parser.add_argument("--top", type=int, default=150)
    args = parser.parse_args()
    vocabulary = load_vocabulary()
    topics = field_topics(vocabulary)
    records = read_corpora(Path(args.corpora))
    for field in args.fields:
        own = {AREA_PREFIX + a.name for f in vocabulary.fields if f.name == field for a in f.areas}
        mine = [r for r in records if r["field"] == field and int(r["venue"].split()[-1]) >= args.since]
        unnamed = [r for r in mine if not own & named_topics(topics, [], r["title"])]
        counts = Counter(p for r in unnamed for p in title_phrases(r["title"]))
        print(f"{field}: {len(mine)} tune papers, {len(unnamed)} whose title names no topic")
        print("  " + "; ".join(f"{p} {n}" for p, n in counts.most_common(args.top)))


if __name__ == "__main__":
    main()
