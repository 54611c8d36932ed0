"""Measure language detection (prints figures; not a test).

    python bench/language_detection.py [--corpora DIR] [--speed N] [--fields]

Figures:
- accuracy on tests/fixtures/languages/abstracts.jsonl (Chinese, German, French, Spanish and
  Japanese abstracts written for the tests), each whole, its first sentence and its first 40
  characters;
- false positives: English corpus abstracts taken for another language (iclr2025.jsonl, the
  figure that must be 0, then iclr2024.jsonl and other-venues.jsonl; with --fields, the 77,186
  papers of fields.jsonl.gz too), by `detect_language` and by the model alone; the share that
  English's commonest words decide without the model (`plainly_english`), and the smallest lead
  of English over the next language in the model's scores;
- cost: loading the model, detection per abstract on the first N abstracts of iclr2025.jsonl
  (default 5,000), as run and with the model alone, and beside it the whole analysis of those
  abstracts as enrich runs it (title, summary, topics and areas, `_analyse_batch`), so that the
  share detection adds shows.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator import languages
from generator.enrich.analysis import _analyse_batch, _Job
from generator.enrich.tags import load_topics
from generator.languages import detect_language, load_detector, plainly_english
from generator.text import to_plain

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
FIXTURE = ROOT / "tests" / "fixtures" / "languages" / "abstracts.jsonl"
_FIRST_SENTENCE = re.compile(r"^.+?[。！？.!?](?=\s|$|[^\d])")


def _rows(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def accuracy() -> None:
    rows = _rows(FIXTURE)
    cuts = {
        "whole": lambda text: text,
        "first sentence": lambda text: (m.group(0) if (m := _FIRST_SENTENCE.search(text)) else text),
        "first 40 chars": lambda text: text[:40],
    }
    for name, cut in cuts.items():
        wrong = [(row["lang"], got) for row in rows if (got := detect_language(cut(row["abstract"]))) != row["lang"]]
        leads = [_lead_per_byte(cut(row["abstract"]), row["lang"]) for row in rows]
        print(f"accuracy, {name:<15} {len(rows) - len(wrong)}/{len(rows)} right {wrong or ''}; "
              f"smallest lead over English per byte {min(leads):.2f} (needed: {languages._LEAD_PER_BYTE})")
    print("  abstracts by language:", dict(sorted(Counter(row["lang"] for row in rows).items())))


def _lead_per_byte(text: str, lang: str) -> float:
    """Return how far `lang`'s score is above English's, per byte of the text read."""
    head = text[: languages._READ_CHARS]
    scores = dict(languages._load().rank(head))
    return (scores[lang] - scores["en"]) / len(head.encode())


def _english_lead(text: str) -> float:
    """Return how far English's score is above the next language's (negative: another language won)."""
    scores = dict(languages._load().rank(text[: languages._READ_CHARS]))
    english = scores.pop("en")
    return english - max(scores.values())


def false_positives(names: list[str], corpora: Path) -> None:
    for name in names:
        rows = _rows(corpora / name)
        plains = [to_plain(row["abstract"]) for row in rows if row.get("abstract")]
        found = [(i, lang) for i, text in enumerate(plains) if (lang := detect_language(text)) != "en"]
        leads = [_english_lead(text) for text in plains]
        by_model = sum(lead < 0 for lead in leads)
        gated = sum(plainly_english(text[: languages._READ_CHARS]) for text in plains)
        print(f"false positives, {name}: {len(found)}/{len(plains)} ({100 * len(found) / len(plains):.3f}%), "
              f"model alone {by_model}; decided by English's commonest words: {100 * gated / len(plains):.1f}%; "
              f"smallest lead of English over the next language: {min(leads, default=0):.1f}")
        for i, lang in found[:10]:
            print(f"    {lang}: {plains[i][:110]!r}")


def cost(count: int, corpora: Path) -> None:
    languages._identifier = None  # loaded by the figures above: loaded again, on the clock
    start = time.perf_counter()
    load_detector()
    print(f"model load: {time.perf_counter() - start:.2f} s (once per run that analyses any abstract)")
    rows = _rows(corpora / "iclr2025.jsonl")[:count]
    plains = [to_plain(row["abstract"]) for row in rows]
    start = time.perf_counter()
    for text in plains:
        detect_language(text)
    detection = time.perf_counter() - start
    start = time.perf_counter()
    for text in plains:
        languages._load().rank(text[: languages._READ_CHARS])
    model = time.perf_counter() - start
    topics = load_topics(None)
    jobs: list[_Job] = [(row["abstract"], "", (), "", 110, 220) for row in rows]
    _analyse_batch(jobs[:50], topics)  # the models load outside the clock
    start = time.perf_counter()
    for begin in range(0, len(jobs), 250):
        _analyse_batch(jobs[begin : begin + 250], topics)
    analysis = time.perf_counter() - start
    print(f"detection: {1000 * detection / len(plains):.3f} ms per abstract ({detection:.2f} s for {len(plains):,}); "
          f"the model alone: {1000 * model / len(plains):.3f} ms")
    print(f"whole analysis (detection included): {1000 * analysis / len(jobs):.2f} ms per abstract "
          f"({analysis:.1f} s); detection is {100 * detection / analysis:.1f}% of it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--speed", type=int, default=5000, help="abstracts of iclr2025.jsonl timed (0: none)")
    parser.add_argument("--fields", action="store_true", help="also count false positives on fields.jsonl.gz")
    args = parser.parse_args()
    accuracy()
    gated = [row["lang"] for row in _rows(FIXTURE) if plainly_english(row["abstract"])]
    print(f"  test set abstracts English's commonest words call English: {len(gated)} {gated or ''}")
    false_positives(["iclr2025.jsonl", "iclr2024.jsonl", "other-venues.jsonl",
                     *(["fields.jsonl.gz"] if args.fields else [])], args.corpora)
    if args.speed:
        cost(args.speed, args.corpora)


if __name__ == "__main__":
    main()
