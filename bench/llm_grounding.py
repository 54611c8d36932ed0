"""Measure how grounded real titles are in their own abstracts: the figure behind `llm.checks.GROUNDED_MIN`.

    python bench/llm_grounding.py [--part tune|held-out|all]

For every paper of the chosen part of the corpora (`../shared/corpora/*.jsonl`; ICLR 2026 is never
read), the share of its real title's content words found in its abstract or in general language
(`llm.checks.grounded_share`), and the same for a title that is not its own (the next paper's): how
many of each fall below a few thresholds, and how many real titles fail each of the title rules.
The threshold was chosen on the tune part; the held-out part says whether it holds.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
#: ../shared/corpora of the project (of the checkout's parent folders: a git worktree sits deeper).
CORPORA_DIR = next((p / "shared" / "corpora" for p in ROOT.parents if (p / "shared" / "corpora").is_dir()),
                   ROOT.parent / "shared" / "corpora")

from bench.split import part_of
from generator.llm.checks import GROUNDED_MIN, grounded_share, title_problem

CORPORA = ("iclr2025", "iclr2024", "other-venues")
THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("tune", "held-out", "all"), default="all")
    parser.add_argument("--corpora", type=Path, default=CORPORA_DIR)
    args = parser.parse_args()
    print(f"threshold in the code: {GROUNDED_MIN}")
    for corpus in CORPORA:
        rows = [json.loads(line) for line in (args.corpora / f"{corpus}.jsonl").open(encoding="utf-8")]
        rows = [r for r in rows if r.get("title") and r.get("abstract")
                and (args.part == "all" or part_of(r["id"]) == args.part)]
        own = [grounded_share(r["title"], r["abstract"]) for r in rows]
        other = [grounded_share(r["title"], rows[(i + 1) % len(rows)]["abstract"]) for i, r in enumerate(rows)]
        print(f"\n{corpus} ({args.part}): {len(rows)} papers")
        for t in THRESHOLDS:
            below_own = sum(s < t for s in own) / len(own)
            below_other = sum(s < t for s in other) / len(other)
            print(f"  below {t:.2f}: real titles {below_own:6.1%}   another paper's title {below_other:6.1%}")
        reasons = Counter(
            title_problem(r["title"], r["abstract"], 10_000).split(" (")[0].split(" words")[0] or "passes"
            for r in rows
        )
        print("  real titles by the title rules (any length in characters):")
        for reason, count in reasons.most_common():
            print(f"    {count / len(rows):6.1%}  {reason}")


if __name__ == "__main__":
    main()
