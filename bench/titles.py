"""Measure title inference against real titles (prints figures; not a test).

    python bench/titles.py ../shared/corpora/iclr2025.jsonl [--part held-out|tune|all] [--examples 20]

The corpus is split by a hash of each paper's id: one paper in five is
held out (never looked at while tuning the rules), the rest is the tuning part.
Only the abstract is given to the inference; the real title is the reference.

Figures:
- named-method recall: papers whose real title is "NAME: ..." with NAME in the
  abstract; share whose inferred title contains NAME (target >= 0.95).
- named-method precision: papers where a name is emitted; share whose real
  title contains that name (was 0.46 with the hand-written rules).
- ROUGE-L F1: mean over all papers between inferred and real title (target >= 0.34),
  separately over the titles with a name and without one (target >= 0.30), and the
  share of titles sharing almost nothing with the real one (ROUGE-L under 0.1,
  target <= 8%); and over the papers without a named method at all (headline overlap).
- summaries: the share taken from a sentence that states the contribution ("we propose ...")
  rather than the opening sentence.
- defects: share of titles with a visible defect under generator.enrich.titles.title_defects
  (target <= 3%), for the inferred and for the real titles, and the most common kinds.
- words per title (inferred and real), and abstracts per second on one core: the
  title stage from the raw abstract, and the whole title and summary stage as the
  pipeline runs it from the plain text the read stage made (target >= 400).

Corpora: ../shared/corpora/iclr2025.jsonl, iclr2024.jsonl, other-venues.jsonl.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.split import part_of
from generator.enrich.summaries import summarize
from generator.enrich.titles import infer_title, infer_title_from, sentences, states_contribution, title_defects
from generator.text import to_plain

NAME_TITLE = re.compile(r"^([A-Za-z0-9][\w\-+.]*[A-Za-z0-9+]?)\s*:\s+\S")


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def lcs_length(a: list[str], b: list[str]) -> int:
    """Return the length of the longest common subsequence of two word lists."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def rouge_l(candidate: str, reference: str) -> float:
    a, b = tokens(candidate), tokens(reference)
    if not a or not b:
        return 0.0
    lcs = lcs_length(a, b)
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(a), lcs / len(b)
    return 2 * precision * recall / (precision + recall)


def contains_name(text: str, name: str) -> bool:
    """Return True when `name` is a whole word of `text`, ignoring case ("FOLEYCRAFTER")."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I) is not None


def _kinds(counts: Counter[str]) -> str:
    return ", ".join(f"{kind} {count}" for kind, count in counts.most_common())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus")
    parser.add_argument("--part", choices=["held-out", "tune", "all"], default="held-out")
    parser.add_argument("--examples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show-misses", type=int, default=0, help="print this many recall and precision misses")
    parser.add_argument("--show-defects", type=int, default=0, help="print this many inferred titles with a defect")
    args = parser.parse_args()

    with open(args.corpus, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    records = [r for r in records if args.part == "all" or part_of(r["id"]) == args.part]
    infer_title("We introduce WarmUp, a model loaded before the clock starts.")
    start = time.perf_counter()
    inferred = [infer_title(r["abstract"]) for r in records]
    elapsed = time.perf_counter() - start
    # The pipeline converts each abstract to plain text once, in the read stage, for every stage
    # (tags, search, summaries): the title stage proper starts from that text.
    plains = [to_plain(r["abstract"][:6000]) for r in records]
    start, cpu_start = time.perf_counter(), time.process_time()
    summaries = []
    for record, plain in zip(records, plains, strict=True):
        infer_title_from(record["abstract"], plain)
        summaries.append(summarize(plain, 220))
    stage_elapsed = time.perf_counter() - start
    # CPU time of this process: on a busy machine, wall time counts the time other processes had the core.
    stage_cpu = time.process_time() - cpu_start
    opening = [(sentences(p[:2000]) or [""])[0] for p in plains]
    from_contribution = sum(1 for s, o in zip(summaries, opening, strict=True)
                            if states_contribution(s) or not s.startswith(o[:40]))

    recall_hits = recall_total = precision_hits = precision_total = 0
    recall_misses, precision_misses, headline_rows = [], [], []
    for record, guess in zip(records, inferred, strict=True):
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

    all_rouge = [rouge_l(g.title, r["title"]) for r, g in zip(records, inferred, strict=True)]
    defects = Counter(d for g in inferred for d in set(title_defects(g.title)))
    real_defects = Counter(d for r in records for d in set(title_defects(" ".join(r["title"].split()))))
    flawed = sum(1 for g in inferred if title_defects(g.title))
    real_flawed = sum(1 for r in records if title_defects(" ".join(r["title"].split())))
    n = max(len(records), 1)
    print(f"$ python bench/titles.py {args.corpus} --part {args.part}")
    print(f"papers: {len(records)} ({args.part} part of {Path(args.corpus).name})")
    print(f"ROUGE-L F1 (all):       {sum(all_rouge) / n:.3f}  target >= 0.34")
    recall, precision = recall_hits / max(recall_total, 1), precision_hits / max(precision_total, 1)
    print(f"named-method recall:    {recall:.3f}  ({recall_hits}/{recall_total})  target >= 0.95")
    print(f"named-method precision: {precision:.3f}  ({precision_hits}/{precision_total})  was 0.46")
    mean = sum(r for r, _, _ in headline_rows) / max(len(headline_rows), 1)
    print(f"headline ROUGE-L F1:    {mean:.3f}  (mean over {len(headline_rows)} papers without a named method)")
    for label, named in (("with a name", True), ("without a name", False)):
        scores = [s for s, g in zip(all_rouge, inferred, strict=True) if (g.source == "named-method") == named]
        low = sum(1 for s in scores if s < 0.1)
        mean = sum(scores) / max(len(scores), 1)
        print(f"titles {label + ':':15} {len(scores) / n:.1%} of papers, ROUGE-L {mean:.3f}, "
              f"under 0.1: {low / max(len(scores), 1):.1%}" + ("  target >= 0.30" if not named else ""))
    low = sum(1 for s in all_rouge if s < 0.1)
    print(f"titles under 0.1:       {low / n:.1%}  target <= 8%")
    sources = Counter(g.source for g in inferred)
    print(f"title sources:          {_kinds(sources)}")
    print(f"summaries:              {from_contribution / n:.1%} from a sentence stating the contribution, "
          f"{1 - from_contribution / n:.1%} the opening sentence")
    print(f"defects (inferred):     {flawed / n:.1%}  target <= 3%  {_kinds(defects)}")
    print(f"defects (real titles):  {real_flawed / n:.1%}  {_kinds(real_defects)}")
    words = sum(len(g.title.split()) for g in inferred) / n
    real_words = sum(len(r["title"].split()) for r in records) / n
    print(f"words per title:        {words:.1f} inferred, {real_words:.1f} real")
    print(f"speed: {len(records) / max(elapsed, 1e-9):,.0f} abstracts/s on one core from the raw abstract "
          f"(plain-text conversion included); {len(records) / max(stage_elapsed, 1e-9):,.0f}/s for the title and "
          "summary stage as the pipeline runs it (plain text given)  target >= 400")
    print(f"speed in CPU time:      {len(records) / max(stage_cpu, 1e-9):,.0f} abstracts/s of one core's CPU time for "
          f"the title and summary stage ({1000 * stage_cpu / max(len(records), 1):.2f} ms an abstract; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)  target >= 400")
    rng = random.Random(args.seed)
    print(f"\n{args.examples} random examples (inferred [source] | real):")
    rows = list(zip(all_rouge, inferred, records, strict=True))
    for score, guess, record in rng.sample(rows, min(args.examples, len(rows))):
        print(f"  {score:.2f}  {guess.title}  [{guess.source}]\n        | {record['title']}")
    if args.show_defects:
        print("\ninferred titles with a defect:")
        for flawed_title in [g.title for g in inferred if title_defects(g.title)][: args.show_defects]:
            print(f"  {title_defects(flawed_title)}  {flawed_title}")
    if args.show_misses:
        print("\nrecall misses (name | inferred | real):")
        for row in recall_misses[: args.show_misses]:
            print("  ", " | ".join(row))
        print("\nprecision misses (name | inferred | real):")
        for row in precision_misses[: args.show_misses]:
            print("  ", " | ".join(row))


if __name__ == "__main__":
    main()
