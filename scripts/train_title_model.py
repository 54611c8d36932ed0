"""Train the title model shipped in generator/data/title_model.json.

Run from the project root (a few minutes on one core):

    python scripts/train_title_model.py

By default it reads the 'tune' part (bench/split.py) of ../shared/corpora/iclr2024.jsonl,
iclr2025.jsonl and other-venues.jsonl; the held-out part is never read, so
bench/titles.py measures the model on abstracts it has not seen. Three things are learned:

1. the vocabulary: per word, how many abstracts use it and how many of those
   titles contain it (inverse document frequency and "title rate" features);
2. the name scorer: logistic regression over each name candidate's evidence,
   labelled by whether the real title starts with the name or contains a name
   no other abstract uses; the threshold is the
   lowest score that keeps named-method precision >= PRECISION over the tune part,
   each abstract scored by a scorer fitted on the other folds (FOLDS);
3. two rankers (papers with a name, papers without): ridge regression on the
   candidates' features, centred per abstract, against the ROUGE-L F1 of the
   title each candidate makes with the real title.

To retrain for another venue, pass its JSON-lines records (id, title, abstract):

    python scripts/train_title_model.py path/to/venue.jsonl [more.jsonl ...]

Everything is deterministic: the same records give the same file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression, Ridge

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.split import part_of
from bench.titles import NAME_TITLE, contains_name, rouge_l
from generator.enrich.titles import compose, title_defects, without_urls
from generator.enrich.titles.candidates import FEATURES, generate, term_counts, word_key
from generator.enrich.titles.describe import descriptions
from generator.enrich.titles.model import MODEL_FILE, SCORE_DECIMALS, Linear, vocabulary_from
from generator.enrich.titles.names import NAME_FEATURES, choose_name, name_candidates
from generator.text import clean, to_plain

CORPORA = [ROOT.parent / "shared" / "corpora" / f for f in ("iclr2024.jsonl", "iclr2025.jsonl", "other-venues.jsonl")]
#: Named-method precision the name threshold keeps over the tune part (the hand-written rules had 0.46).
PRECISION = 0.48
#: Words used by fewer training abstracts are left out of the vocabulary (they count as unseen).
MIN_DF = 3
#: Abstracts the rankers are fitted on (all of them for the vocabulary and the name scorer).
RANKER_ABSTRACTS = 12000
READ_CHARS = 6000


#: Folds of the tune part whose out-of-fold scores choose the name threshold.
FOLDS = 4


def _fold(paper_id: str) -> int:
    # By another hash than bench/split.py's.
    return hashlib.sha256(f"validation:{paper_id}".encode()).digest()[0] % FOLDS


def load(paths: list[Path]) -> list[dict]:
    """Read the tune part of the corpora: id, title, raw and plain abstract."""
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if part_of(record["id"]) != "tune" or not record.get("title") or not record.get("abstract"):
                    continue
                head = record["abstract"][:READ_CHARS]
                records.append({"id": record["id"], "title": " ".join(record["title"].split()),
                                "raw": clean(head), "plain": without_urls(to_plain(head))})
    records.sort(key=lambda r: r["id"])
    return records


def count_vocabulary(records: list[dict]) -> dict[str, list[int]]:
    """Per word: abstracts using it, and those whose title also has it."""
    counts: dict[str, list[int]] = {}
    for record in records:
        title_words = {word_key(w) for w in record["title"].split()}
        for word in term_counts(record["plain"]):
            entry = counts.setdefault(word, [0, 0])
            entry[0] += 1
            entry[1] += word in title_words
    return {w: c for w, c in sorted(counts.items()) if c[0] >= MIN_DF and w}


def named_paper_name(record: dict) -> str:
    """The name a real "NAME: ..." title starts with, when the abstract mentions it (bench's recall set)."""
    match = NAME_TITLE.match(record["title"])
    return match.group(1) if match and contains_name(record["plain"], match.group(1)) else ""


def own_name_label(title: str, candidate) -> bool:
    """Return True when the real title names the paper by this candidate.

    A title that starts with the name counts; one that merely contains a name other
    abstracts use too ("PbRL", "RKHS") names the field, not the paper's contribution.
    """
    if title.lower().startswith(candidate.name.lower()):
        return True
    common = dict(zip(NAME_FEATURES, candidate.features, strict=True))["common"]
    return not common and contains_name(title, candidate.name)


def train_names(records: list[dict]) -> tuple[Linear, float]:
    """Fit the name scorer and choose its threshold on out-of-fold scores of every tune abstract.

    (One validation slice left the threshold, and so named-method recall, at the mercy of
    a few hundred abstracts: every small change of the features moved it.)
    """
    rows, labels, groups, names = [], [], [], []
    for index, record in enumerate(records):
        for candidate in name_candidates(record["raw"], record["plain"]):
            rows.append(candidate.features)
            labels.append(own_name_label(record["title"], candidate))
            groups.append(index)
            names.append(candidate.name)
    x, y = np.array(rows), np.array(labels)
    folds = np.array([_fold(records[i]["id"]) for i in groups])
    best: dict[int, tuple[float, str]] = {}
    for fold in range(FOLDS):
        held = folds == fold
        scorer = _fit_logistic(x[~held], y[~held])
        for row in np.flatnonzero(held):
            score, group = scorer.score(tuple(rows[row])), groups[row]
            if group not in best or score > best[group][0]:
                best[group] = (score, names[row])
    threshold = _threshold(records, list(range(len(records))), best)
    return _fit_logistic(x, y), threshold


def _fit_logistic(x: np.ndarray, y: np.ndarray) -> Linear:
    model = LogisticRegression(C=1.0, max_iter=2000)
    model.fit(x, y)
    weights = tuple(round(float(w), SCORE_DECIMALS) for w in model.coef_[0])
    return Linear(weights, round(float(model.intercept_[0]), SCORE_DECIMALS))


def _threshold(records: list[dict], validation: list[int], best: dict[int, tuple[float, str]]) -> float:
    """Return the lowest score at which named-method precision on the validation abstracts stays >= PRECISION."""
    named = sum(1 for i in validation if named_paper_name(records[i]))
    precise = hits = 0
    chosen, report = max((s for s, _ in best.values()), default=0.0), ""
    # Lower the threshold one abstract at a time (highest score first), counting as it goes.
    for emitted, i in enumerate(sorted(best, key=lambda i: (-best[i][0], i)), start=1):
        score, name = best[i]
        precise += contains_name(records[i]["title"], name)
        real = named_paper_name(records[i])
        hits += bool(real) and contains_name(name, real)
        if precise >= PRECISION * emitted:
            chosen = score
            report = f"recall {hits / max(named, 1):.3f}, precision {precise / emitted:.3f}"
    print(f"name threshold {chosen:.3f}: {report} on {len(validation)} abstracts, scored out of fold")
    return round(chosen - 1e-6, SCORE_DECIMALS)


def clean_candidates(record: dict, vocabulary, name_scorer, threshold: float) -> tuple[str, list]:
    """Return the name chosen for an abstract and its candidates whose title has no defect, with that title."""
    found = choose_name(name_candidates(record["raw"], record["plain"]), name_scorer, threshold)
    name, described = "", []
    if found:
        described = ([("expansion", found.expansion)] if found.expansion else [])
        described += descriptions(found.name, record["plain"])
        name = found.name
    candidates = generate(record["plain"], vocabulary, name, described)
    titled = [(candidate, compose(name, candidate)) for candidate in candidates]
    return name, [(candidate, title) for candidate, title in titled if title and not title_defects(title)]


def train_rankers(records: list[dict], vocabulary, name_scorer: Linear, threshold: float) -> dict[str, Linear]:
    """Fit the named and headline rankers on ROUGE-L against the real titles."""
    data: dict[str, tuple[list, list, list]] = {"named": ([], [], []), "headline": ([], [], [])}
    for record in records[:RANKER_ABSTRACTS]:
        name, candidates = clean_candidates(record, vocabulary, name_scorer, threshold)
        rows = [candidate.features for candidate, _ in candidates]
        targets = [rouge_l(title, record["title"]) for _, title in candidates]
        if len(rows) < 2:
            continue
        x, y = np.array(rows), np.array(targets)
        part = data["named" if name else "headline"]
        part[0].append(x - x.mean(axis=0))
        part[1].append(y - y.mean())
        part[2].append(np.full(len(y), 1 / len(y)))
    out = {}
    for key, (xs, ys, ws) in data.items():
        ridge = Ridge(alpha=1.0, fit_intercept=False)
        ridge.fit(np.vstack(xs), np.concatenate(ys), sample_weight=np.concatenate(ws))
        out[key] = Linear(tuple(round(float(w), SCORE_DECIMALS) for w in ridge.coef_), 0.0)
        print(f"{key} ranker: {len(xs)} abstracts, {sum(len(y) for y in ys)} candidates")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", type=Path, default=CORPORA)
    parser.add_argument("--out", type=Path, default=ROOT / "generator" / MODEL_FILE)
    args = parser.parse_args()
    start = time.perf_counter()
    records = load(args.corpora)
    print(f"{len(records)} tune abstracts from {', '.join(p.name for p in args.corpora)}")
    words = count_vocabulary(records)
    vocabulary = vocabulary_from(len(records), words)
    name_scorer, threshold = train_names(records)
    rankers = train_rankers(records, vocabulary, name_scorer, threshold)
    model = {
        "name": {"features": list(NAME_FEATURES), "weights": list(name_scorer.weights),
                 "bias": name_scorer.bias, "threshold": threshold},
        **{key: {"features": list(FEATURES), "weights": list(r.weights), "bias": r.bias} for key, r in rankers.items()},
        "vocabulary": {"documents": len(records), "words": words},
    }
    args.out.write_text(json.dumps(model, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
