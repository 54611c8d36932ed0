"""Measure title inference against real titles (prints figures; not a test).

    python bench/titles.py ../shared/corpora/iclr2025.jsonl [--part held-out|tune|all] [--examples 20]

The corpus is split by a hash of each paper's id: one paper in five is
held out (never looked at while tuning the rules), the rest is the tuning part.
Only the abstract is given to the inference; the real title is the reference.

Figures:
- named-method recall: papers whose real title is "NAME: ..." with NAME in the
  abstract; share whose inferred title contains NAME (target >= 0.95).
- named-method precision: papers where a name is emitted; share whose real
  title contains that name (target >= 0.90).
- headline overlap: for the other papers, mean ROUGE-L F1 between inferred and
  real title, with random examples side by side.
- time per 1,000 abstracts.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.split import part_of  # noqa: E402
from generator.titles import infer_title  # noqa: E402

NAME_TITLE = re.compile(r"^([A-Za-z0-9][\w\-+.]*[A-Za-z0-9+]?)\s*:\s+\S")


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def rouge_l(candidate: str, reference: str) -> float:
    a, b = tokens(candidate), tokens(reference)
    if not a or not b:
        return 0.0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    lcs = previous[-1]
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(a), lcs / len(b)
    return 2 * precision * recall / (precision + recall)


def contains_name(text: str, name: str) -> bool:
    """Return True when `name` is a whole word of `text`, ignoring case ("FOLEYCRAFTER")."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus")
    parser.add_argument("--part", choices=["held-out", "tune", "all"], default="held-out")
    parser.add_argument("--examples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show-misses", type=int, default=0, help="print this many recall and precision misses")
    args = parser.parse_args()

    records = [json.loads(line) for line in open(args.corpus, encoding="utf-8")]
    records = [r for r in records if args.part == "all" or part_of(r["id"]) == args.part]
    start = time.perf_counter()
    inferred = [infer_title(r["abstract"]) for r in records]
    elapsed = time.perf_counter() - start

    recall_hits = recall_total = precision_hits = precision_total = 0
    recall_misses, precision_misses, headline_rows = [], [], []
    for record, guess in zip(records, inferred):
        match = NAME_TITLE.match(record["title"])
        name = match.group(1) if match else ""
        named_paper = bool(name) and contains_name(record["abstract"], name)
        if named_paper:
            recall_total += 1
            if contains_name(guess.title, name):
                recall_hits += 1
            else:
                recall_misses.append((name, guess.title, record["title"]))
        if guess.source == "named-method":
            precision_total += 1
            if contains_name(record["title"], guess.name):
                precision_hits += 1
            else:
                precision_misses.append((guess.name, guess.title, record["title"]))
        if not named_paper and guess.source != "named-method":
            headline_rows.append((rouge_l(guess.title, record["title"]), guess.title, record["title"]))

    print(f"$ python bench/titles.py {args.corpus} --part {args.part}")
    print(f"papers: {len(records)} ({args.part} part of {Path(args.corpus).name})")
    print(f"named-method recall:    {recall_hits / max(recall_total, 1):.3f}  ({recall_hits}/{recall_total})  target >= 0.95")
    print(f"named-method precision: {precision_hits / max(precision_total, 1):.3f}  ({precision_hits}/{precision_total})  target >= 0.90")
    mean = sum(r for r, _, _ in headline_rows) / max(len(headline_rows), 1)
    print(f"headline ROUGE-L F1:    {mean:.3f}  (mean over {len(headline_rows)} papers without a named method)")
    print(f"time: {1000 * elapsed / max(len(records), 1):.2f} s per 1,000 abstracts")
    rng = random.Random(args.seed)
    print(f"\n{args.examples} random headline examples (inferred | real):")
    for score, guess, real in rng.sample(headline_rows, min(args.examples, len(headline_rows))):
        print(f"  {score:.2f}  {guess}\n        | {real}")
    if args.show_misses:
        print("\nrecall misses (name | inferred | real):")
        for row in recall_misses[: args.show_misses]:
            print("  ", " | ".join(row))
        print("\nprecision misses (name | inferred | real):")
        for row in precision_misses[: args.show_misses]:
            print("  ", " | ".join(row))


if __name__ == "__main__":
    main()
