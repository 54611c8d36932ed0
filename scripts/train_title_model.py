"""Train the title model shipped in generator/data/title_model.json.

Run from the project root (a few minutes on one core):

    python scripts/train_title_model.py

By default it reads the 'tune' part (bench/split.py) of ../shared/corpora/iclr2024.jsonl,
iclr2025.jsonl and other-venues.jsonl; the held-out part is never read, so
bench/titles.py measures the model on abstracts it has not seen. Six things are learned:

1. the vocabulary: per word, how many abstracts use it and how many of those
   titles contain it (inverse document frequency and "title rate" features);
2. the name scorer: logistic regression over each name candidate's evidence,
   labelled by whether the real title starts with the name or contains a name
   no other abstract uses; the threshold is the
   lowest score that keeps named-method precision >= PRECISION over the tune part,
   each abstract scored by a scorer fitted on the other folds (FOLDS);
3. the sentence scorer, which sentence a title is taken from, and
4. the word labeller, which of its words a title keeps: both in title_sentences.py;
5. two rankers (papers with a name, papers without): ridge regression on the
   candidates' features, centred per abstract, against the ROUGE-L F1 of the
   title each candidate makes with the real title;
6. the confidence (model.Confidence): logistic regression over the chosen title's
   candidate features on abstracts the rankers were not fitted on, labelled by
   whether the title shares at least LABEL_ROUGE of ROUGE-L with the real one; then
   calibrated (Platt scaling) on a strict reader's verdicts of tune papers
   (VERDICTS: the id, the title judged and good / fair / bad), each judged title
   scored as the candidate that makes it; the threshold is the score at which
   the calibrated probability of "not bad" is SAFE_BELOW.

To retrain for another venue, pass its JSON-lines records (id, title, abstract):

    python scripts/train_title_model.py path/to/venue.jsonl [more.jsonl ...]

Everything is deterministic: the same records give the same file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression, Ridge

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from title_sentences import fit_logistic, train_compressor, train_sentences

from bench.split import part_of
from bench.titles import NAME_TITLE, contains_name, rouge_l
from generator.enrich.titles import compose, title_defects, without_urls
from generator.enrich.titles.candidates import generate, term_counts
from generator.enrich.titles.choice import choose_name
from generator.enrich.titles.compress import Compressor
from generator.enrich.titles.compress import key as word_key
from generator.enrich.titles.contribution import SENTENCE_FEATURES
from generator.enrich.titles.describe import descriptions
from generator.enrich.titles.features import FEATURES
from generator.enrich.titles.model import CONFIDENCE_FEATURES, MODEL_FILE, SCORE_DECIMALS, Linear, vocabulary_from
from generator.enrich.titles.names import NAME_FEATURES, name_candidates
from generator.text import clean, to_plain

CORPORA = [ROOT.parent / "shared" / "corpora" / f for f in ("iclr2024.jsonl", "iclr2025.jsonl", "other-venues.jsonl")]
#: Named-method precision the name threshold keeps over the tune part (the hand-written rules had 0.46).
PRECISION = 0.48
#: Words used by fewer training abstracts are left out of the vocabulary (they count as unseen).
MIN_DF = 3
#: Abstracts the rankers are fitted on (all of them for the vocabulary and the name scorer).
RANKER_ABSTRACTS = 12000
READ_CHARS = 6000
# The ranker's order is overruled by these kinds (a name's own expansion, then its appositive), as in inference.
PRIORITY = {"expansion": 0, "appositive": 1}


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
    """Per word: abstracts using it, those whose title also has it, and those titles that start and end with it.

    A "NAME: description" title starts where its description does.
    """
    counts: dict[str, list[int]] = {}
    for record in records:
        title = record["title"].split(": ", 1)[-1] if NAME_TITLE.match(record["title"]) else record["title"]
        keys = [k for k in (word_key(w) for w in title.split()) if k]
        title_words = {word_key(w) for w in record["title"].split()}
        for word in term_counts(record["plain"]):
            entry = counts.setdefault(word, [0, 0, 0, 0])
            entry[0] += 1
            entry[1] += word in title_words
            entry[2] += bool(keys) and word == keys[0]
            entry[3] += bool(keys) and word == keys[-1]
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
        scorer = fit_logistic(x[~held], y[~held])
        for row in np.flatnonzero(held):
            score, group = scorer.score(tuple(rows[row])), groups[row]
            if group not in best or score > best[group][0]:
                best[group] = (score, names[row])
    threshold = _threshold(records, list(range(len(records))), best)
    return fit_logistic(x, y), threshold


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


#: A chosen title sharing at least this much ROUGE-L with the real title counts as not bad (the proxy label).
LABEL_ROUGE = 0.2
#: Abstracts (after those of the rankers) the confidence is fitted on.
CONFIDENCE_ABSTRACTS = 6000
#: A strict reader's verdicts of tune papers' titles, for the calibration (bench/reader_request.py).
VERDICTS = ROOT / "bench" / "reader_samples" / "iclr2025-tune-calibration.verdicts.jsonl"
#: Headlines less likely than this to be called "not bad" show the safe form.
SAFE_BELOW = 0.7


def chosen(record: dict, model: dict) -> tuple[str, list]:
    """Return the name and the clean candidates in the order inference tries them (priority kinds, then score)."""
    name, candidates = clean_candidates(
        record, model["vocabulary"], model["name"], model["threshold"], model["sentence"], model["compressor"]
    )
    ranker = model["rankers"]["named" if name else "headline"]
    order = sorted(range(len(candidates)), key=lambda i: (
        PRIORITY.get(candidates[i][0].kind, len(PRIORITY)), -ranker.score(candidates[i][0].features), i
    ))
    return name, [candidates[i] for i in order]


def train_confidence(records: list[dict], model: dict, verdicts: Path) -> dict:
    """Fit the confidence on proxy labels and calibrate it on the strict reader's verdicts."""
    rows, labels = [], []
    for record in records[RANKER_ABSTRACTS : RANKER_ABSTRACTS + CONFIDENCE_ABSTRACTS]:
        name, ordered = chosen(record, model)
        if ordered:
            candidate, title = ordered[0]
            rows.append((*candidate.features, float(bool(name))))
            labels.append(rouge_l(title, record["title"]) >= LABEL_ROUGE)
    linear = fit_logistic(np.array(rows), np.array(labels))
    by_id = {r["id"]: r for r in records}
    scores, fine = [], []
    for line in verdicts.read_text(encoding="utf-8").splitlines() if verdicts.exists() else []:
        judged = json.loads(line)
        if judged["id"] not in by_id:
            continue
        name, ordered = chosen(by_id[judged["id"]], model)
        match = next((c for c, title in ordered if title == judged["title"]), None)
        if match is not None:
            scores.append(linear.score((*match.features, float(bool(name)))))
            fine.append(judged["verdict"] != "bad")
    slope, intercept = 1.0, 0.0
    if len(set(fine)) == 2:
        platt = LogisticRegression(C=1.0).fit(np.array(scores).reshape(-1, 1), np.array(fine))
        slope, intercept = round(float(platt.coef_[0][0]), SCORE_DECIMALS), round(float(platt.intercept_[0]), 6)
    threshold = round((math.log(SAFE_BELOW / (1 - SAFE_BELOW)) - intercept) / slope, SCORE_DECIMALS)
    print(f"confidence: {len(rows)} titles, {np.mean(labels):.3f} not bad by ROUGE-L; calibrated on {len(scores)} "
          f"judged titles ({sum(fine)} not bad): slope {slope}, intercept {intercept}, threshold {threshold}")
    return {"features": list(CONFIDENCE_FEATURES), "weights": list(linear.weights), "bias": linear.bias,
            "slope": slope, "intercept": intercept, "threshold": threshold}


def clean_candidates(
    record: dict, vocabulary, name_scorer, threshold: float, sentence_scorer=None, compressor=None
) -> tuple[str, list]:
    """Return the name chosen for an abstract and its candidates whose title has no defect, with that title."""
    found = choose_name(name_candidates(record["raw"], record["plain"]), name_scorer, threshold)
    name, described = "", []
    if found:
        described = ([("expansion", found.expansion)] if found.expansion else [])
        described += descriptions(found.name, record["plain"])
        name = found.name
    candidates = generate(record["plain"], vocabulary, name, described, True, sentence_scorer, compressor)
    titled = [(candidate, compose(name, candidate)) for candidate in candidates]
    return name, [(candidate, title) for candidate, title in titled if title and not title_defects(title)]


def train_rankers(
    records: list[dict], vocabulary, name_scorer: Linear, threshold: float, sentence_scorer: Linear,
    compressor: Compressor,
) -> dict[str, Linear]:
    """Fit the named and headline rankers on ROUGE-L against the real titles."""
    data: dict[str, tuple[list, list, list]] = {"named": ([], [], []), "headline": ([], [], [])}
    for record in records[:RANKER_ABSTRACTS]:
        name, candidates = clean_candidates(record, vocabulary, name_scorer, threshold, sentence_scorer, compressor)
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
    parser.add_argument("--verdicts", type=Path, default=VERDICTS, help="a strict reader's verdicts to calibrate on")
    args = parser.parse_args()
    start = time.perf_counter()
    records = load(args.corpora)
    print(f"{len(records)} tune abstracts from {', '.join(p.name for p in args.corpora)}")
    words = count_vocabulary(records)
    vocabulary = vocabulary_from(len(records), words)
    sentence_scorer = train_sentences(records)
    compressor = train_compressor(records, vocabulary)
    name_scorer, threshold = train_names(records)
    rankers = train_rankers(records, vocabulary, name_scorer, threshold, sentence_scorer, compressor)
    parts = {"vocabulary": vocabulary, "name": name_scorer, "threshold": threshold, "sentence": sentence_scorer,
             "compressor": compressor, "rankers": rankers}
    confidence = train_confidence(records, parts, args.verdicts)
    model = {
        "name": {"features": list(NAME_FEATURES), "weights": list(name_scorer.weights),
                 "bias": name_scorer.bias, "threshold": threshold},
        **{key: {"features": list(FEATURES), "weights": list(r.weights), "bias": r.bias} for key, r in rankers.items()},
        "sentence": {"features": list(SENTENCE_FEATURES), "weights": list(sentence_scorer.weights),
                     "bias": sentence_scorer.bias},
        "confidence": confidence,
        "compress": {"weights": compressor.weights, "bias": compressor.bias,
                     "transitions": [list(row) for row in compressor.transitions]},
        "vocabulary": {"documents": len(records), "words": words},
    }
    args.out.write_text(json.dumps(model, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
