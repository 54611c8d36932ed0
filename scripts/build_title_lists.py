"""Build the word lists title inference reads, from the tune part of the ICLR corpora.

Run from the project root (then retrain: python scripts/train_title_model.py):

    python scripts/build_title_lists.py

Only the tune part (bench/split.py) of ../shared/corpora/iclr2024.jsonl and
iclr2025.jsonl is read: held-out abstracts never are, so bench/titles.py stays
honest. Other corpora can be given as arguments; the same files give the same lists.

- generator/data/common_names.txt: name-shaped words (GRPO, MTEB, RKHS) that at
  least MIN_COUNT abstracts mention. Title inference does not take such a word
  for a paper's own new name unless the paper marks it as its own (the name
  scorer weighs it as evidence).
- generator/data/field_words.txt: lowercase words more than FIELD_SHARE of the
  abstracts use ("models", "language", "learning"). A short headline of only
  such words ("Large Language Models") names a field, not a paper
  (cleaning.title_defects counts it as generic).
- generator/data/field_phrases.txt: phrases of two to four words (not starting or
  ending with "of", "the", ...) that the opening sentences of at least TOPIC_COUNT
  abstracts use: what abstracts name as their topic ("offline reinforcement
  learning", "time series forecasting"). A headline that is only such a phrase
  names the field, not the paper (cleaning.title_defects counts it as generic).
- generator/data/task_phrases.txt: author keywords of one to four words that at
  least MIN_COUNT papers give and at least TASK_COUNT titles write after "for" or
  "in" as a whole phrase ("... for Symbolic Regression", "... in Offline
  Reinforcement Learning"), used by at most TASK_SHARE of the abstracts
  (SINGLE_TASK_SHARE for one word: "learning", "training" are no task), and
  naming a topic of generator/data/topics.yaml (as an author keyword would,
  `named_topics`): "for Model Merging" says a subject, "for Machine Learning" or
  "for Artificial Intelligence" only the field (an acronym, "rlhf", is
  matched as written, "RLHF"). A short title that names only a
  device, or a name's expansion that says no purpose, gets the task its paper
  names (titles/task.py).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from generator.enrich.keywords import named_topics
from generator.enrich.tags import load_topics
from generator.enrich.titles import looks_like_name
from generator.enrich.titles.candidates import sentences, term_counts
from generator.enrich.titles.cleaning import SMALL_WORDS
from generator.text import to_plain

CORPORA = [ROOT.parent / "shared" / "corpora" / f for f in ("iclr2024.jsonl", "iclr2025.jsonl")]
DATA = ROOT / "generator" / "data"
MIN_COUNT = 3
FIELD_SHARE = 0.03
TOPIC_COUNT = 5
TASK_COUNT = 2
TASK_SHARE = 0.10
SINGLE_TASK_SHARE = 0.03
_KEYWORD = re.compile(r"[a-z0-9][a-z0-9-]*(?: [a-z0-9][a-z0-9-]*){0,3}")
_TITLE_TOKEN = re.compile(r"[a-z0-9][\w-]*|[:,?;\u2014]")
_PHRASE_ENDS = SMALL_WORDS | {":", ",", "?", ";", "\u2014"}
_PUNCT = ".,;:!?\"'“”()[]"
_ASIDE = re.compile(r"\([^()]*\)")
NAME = re.compile(r"(?<![\w-])((?:\d{1,2}(?=[A-Za-z]))?[A-Za-z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*\+*)(?![\w-])")


def opening_phrases(abstract: str) -> set[str]:
    """Return the phrases of two to four words of an abstract's opening sentence (no small word at either end)."""
    opening = sentences(to_plain(abstract[:1500]))[:1]
    words = [w.strip(_PUNCT).lower() for w in _ASIDE.sub(" ", opening[0]).split()] if opening else []
    found = set()
    for n in (2, 3, 4):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            if all(gram) and gram[0] not in SMALL_WORDS and gram[-1] not in SMALL_WORDS:
                found.add(" ".join(gram))
    return found


def tune_records(paths: list[Path]) -> Iterator[dict]:
    """Yield the records of the tune part (bench/split.py) of each corpus, in file order."""
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if part_of(record["id"]) == "tune":
                    yield record


def word_lists(paths: list[Path]) -> tuple[list[str], list[str], list[str]]:
    """Return the common names, the field words and the field phrases of the tune abstracts, each sorted."""
    names: collections.Counter[str] = collections.Counter()
    words: collections.Counter[str] = collections.Counter()
    topics: collections.Counter[str] = collections.Counter()
    documents = 0
    for record in tune_records(paths):
        abstract = record.get("abstract", "")
        documents += 1
        names.update({m for m in NAME.findall(abstract) if looks_like_name(m)})
        words.update(set(term_counts(abstract)))
        topics.update(opening_phrases(abstract))
    common = sorted(n for n, c in names.items() if c >= MIN_COUNT)
    fields = sorted(w for w, c in words.items() if w and c > FIELD_SHARE * documents)
    return common, fields, sorted(p for p, c in topics.items() if c >= TOPIC_COUNT)


def task_list(paths: list[Path]) -> list[str]:
    """Return the author keywords that titles name as a task ("for X", "in X"), few abstracts use and name a topic."""
    keywords: collections.Counter[str] = collections.Counter()
    after: collections.Counter[str] = collections.Counter()
    abstracts = []
    for record in tune_records(paths):
        keywords.update({k.strip().lower() for k in record.get("keywords") or []})
        after.update(_purpose_phrases(record.get("title", "")))
        abstracts.append(record.get("abstract", ""))
    named = {k for k, c in keywords.items() if c >= MIN_COUNT and _KEYWORD.fullmatch(k) and after[k] >= TASK_COUNT}
    used: collections.Counter[str] = collections.Counter()
    for abstract in abstracts:
        words = re.findall(r"[a-z0-9][\w-]*", abstract.lower())
        grams = {" ".join(words[i : i + n]) for n in range(1, 5) for i in range(len(words) - n + 1)}
        used.update(grams & named)
    topics = load_topics()
    return sorted(
        k for k in named if 3 <= used[k] <= (TASK_SHARE if " " in k else SINGLE_TASK_SHARE) * len(abstracts)
        and (named_topics(topics, [k], k) or (" " not in k and named_topics(topics, [], k.upper())))
    )


def _purpose_phrases(title: str) -> set[str]:
    """Return the phrases of one to four words a title writes whole after "for" or "in"."""
    words = _TITLE_TOKEN.findall(title.lower())
    found = set()
    for i, word in enumerate(words):
        if word in ("for", "in"):
            for end in range(i + 2, min(i + 6, len(words) + 1)):
                if end == len(words) or words[end] in _PHRASE_ENDS:
                    found.add(" ".join(words[i + 1 : end]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", type=Path, default=CORPORA)
    parser.add_argument("--out", type=Path, default=DATA, help="the folder the lists are written to")
    args = parser.parse_args()
    names, fields, phrases = word_lists(args.corpora)
    sources = ", ".join(p.name for p in args.corpora)
    for filename, words, what in (
        ("common_names.txt", names, f"Name-shaped words that at least {MIN_COUNT} abstracts mention"),
        ("field_words.txt", fields, f"Words that more than {FIELD_SHARE:.0%} of the abstracts use"),
        ("field_phrases.txt", phrases, f"Phrases that the opening sentences of at least {TOPIC_COUNT} abstracts use"),
        ("task_phrases.txt", task_list(args.corpora), "Author keywords that titles name as a task ('for X', 'in X')"),
    ):
        header = (
            f"# {what}, in the tune part of {sources}\n"
            "# (python scripts/build_title_lists.py; the held-out part is never read).\n"
        )
        (args.out / filename).write_text(header + "\n".join(words) + "\n", encoding="utf-8")
        print(f"wrote {len(words)} words to {args.out / filename}")


if __name__ == "__main__":
    main()
