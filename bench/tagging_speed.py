"""CPU time per abstract of the ICLR topic model's stages (not a test).

    python bench/tagging_speed.py [--corpora ../shared/corpora] [--papers 3000]

Over the first N abstracts of ICLR 2024: the TF-IDF features, the phrase features
(`featurize`), the classifier, and the rule masks (`allowed`: a topic's required mention;
`about`: a topic named as the subject), each the best of three runs on one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.enrich.topic_model import featurize, load_topic_model
from generator.text import to_plain


def best(run, rounds: int = 3) -> float:
    """Return the least CPU seconds of `rounds` calls of `run`."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--papers", type=int, default=3000)
    args = parser.parse_args()
    plains: list[str] = []
    with open(args.corpora / "iclr2024.jsonl", encoding="utf-8") as lines:
        for line in lines:
            if len(plains) == args.papers:
                break
            plains.append(to_plain(json.loads(line)["abstract"]))
    model = load_topic_model()
    tfidf = model.area_model.features(plains)
    features = featurize(plains, model.area_model, model.feature_topics, tfidf)
    stages = {
        "tf-idf": lambda: model.area_model.features(plains),
        "phrase features": lambda: featurize(plains, model.area_model, model.feature_topics, tfidf),
        "classifier": lambda: model.probabilities(features),
        "required mentions (allowed)": lambda: model.allowed(plains),
        "subject named (about)": lambda: model.about(features),
    }
    for name, run in stages.items():
        print(f"{name:28} {1000 * best(run) / len(plains):.3f} ms an abstract")


if __name__ == "__main__":
    main()
