"""Train the topic gate shipped in generator/data/topic_gate.json (generator/enrich/gate.py).

Run from the project root (a few minutes on 2 cores), after scripts/train_topic_model.py:

    python scripts/train_topic_gate.py

Two label sources, both from the 'tune' part (bench/split.py) only; the held-out part is never read:

- a strict reader's verdicts of tune papers (bench/reader_samples/30-tune-*.verdicts.jsonl,
  each candidate topic shown judged right, loose or wrong; right is the positive label).
  The requests showed the topics the tool gave and further candidates (bench/reader_request_tags.py
  --extra), so the reader judged more candidates than a paper shows;
- author keywords (weaker): a candidate of a tune paper of ICLR 2024 or of the other venues is
  right when its keywords or title name it (`named_topics`, the topic model's own label).
  Only the papers of the topic model's threshold fold are read (its classifiers never fitted
  them, so their probabilities are as on new papers), and keyword tags are not candidates
  here (they would name themselves).

Each candidate is a row of `gate.FEATURES`; one L2 logistic regression (standardised features)
is fitted to both sources, the reader's rows weighted to `--reader-share` of the total weight.
The further-topic threshold is the lowest at which the out-of-fold further topics of the
reader's papers (five folds by paper) reach `--precision`. The priors are each topic's
share of keyword-labelled tune papers (log). Same corpora and verdicts, same file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from train_topic_model import calibration_fold

from bench.split import part_of
from generator.enrich.gate import DECIMALS, FEATURES, GATE_PATH, RATES, candidate_rows, layout
from generator.enrich.keywords import keyword_tags, named_topics
from generator.enrich.tags import load_topics
from generator.enrich.topic_choice import model_candidates
from generator.enrich.topic_model import load_topic_model
from generator.text import to_plain

CORPORA = ROOT.parent / "shared" / "corpora"
VERDICTS = ROOT / "bench" / "reader_samples"

def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def fold_of(paper_id: str, folds: int = 5) -> int:
    """Return a paper's cross-validation fold (by a hash of its id)."""
    return hashlib.sha256(f"gate:{paper_id}".encode()).digest()[0] % folds


def candidates_of(records: list[dict], priors: dict[str, float], with_keywords: bool):
    """Return, per record, its candidates and their feature rows (keyword tags among them when `with_keywords`).

    The rate columns (`RATES`) are left at 0: they are filled from the labels a fit may see (`with_rates`).
    """
    topics = load_topics()
    model = load_topic_model()
    wanted = {topic.name for topic in topics}
    plains = [to_plain(r["abstract"]) for r in records]
    empty: dict[str, dict[str, float]] = {rate: {} for rate in RATES}
    result = []
    for start in range(0, len(plains), 500):
        batch = plains[start : start + 500]
        features, probabilities = model.scores(batch)
        for row, plain in enumerate(batch):
            record = records[start + row]
            given = keyword_tags(tuple(record.get("keywords") or ()), topics, plain) if with_keywords else []
            found = model_candidates(model, features, row, probabilities[row], plain, given, wanted)
            result.append((found, candidate_rows(found, layout(plain), features.hits[row], priors, empty)))
    return result


def topic_priors(records: list[dict]) -> dict[str, float]:
    """Return each topic's log share of the keyword-labelled papers whose keywords or title name it."""
    topics = load_topics()
    counts = Counter(name for r in records for name in named_topics(topics, r["keywords"], r["title"]))
    return {topic.name: round(math.log((counts[topic.name] + 1) / (len(records) + 2)), 4) for topic in topics}


def keyword_records(corpora: Path) -> list[dict]:
    """Return the tune papers of ICLR 2024 and the other venues that have author keywords."""
    records = read_jsonl(corpora / "iclr2024.jsonl") + read_jsonl(corpora / "other-venues.jsonl")
    return [r for r in records if part_of(r["id"]) == "tune" and [k for k in r.get("keywords") or [] if
                                                                   isinstance(k, str)]]


@dataclass
class Rows:
    """Labelled candidate rows of one label source."""

    x: np.ndarray
    y: np.ndarray
    ids: list[str]
    names: list[str]

    def part(self, keep: np.ndarray) -> Rows:
        return Rows(self.x[keep], self.y[keep], [i for i, k in zip(self.ids, keep, strict=True) if k],
                    [n for n, k in zip(self.names, keep, strict=True) if k])


def _rows(x: list, y: list, ids: list, names: list) -> Rows:
    return Rows(np.array(x).reshape(-1, len(FEATURES)), np.array(y, dtype=bool), ids, names)


def reader_rows(corpora: Path, priors: dict[str, float], paths: list[Path], held_out: bool = False) -> tuple[Rows, int]:
    """Return the reader-labelled candidate rows, and how many judged topics were not among the candidates.

    Verdicts of held-out papers are refused unless `held_out` (bench/topic_gate.py measures on them).
    """
    by_id = {r["id"]: r for name in ("iclr2025.jsonl", "other-venues.jsonl") for r in read_jsonl(corpora / name)}
    verdicts = [v for path in paths for v in read_jsonl(path)]
    records = [by_id[v["id"]] for v in verdicts]
    if not held_out and any(part_of(r["id"]) != "tune" for r in records):
        raise SystemExit("a reader verdict names a held-out paper: the gate learns from tune papers only")
    x, y, ids, names, unmatched = [], [], [], [], 0
    for verdict, (found, rows) in zip(verdicts, candidates_of(records, priors, True), strict=True):
        judged = {t["topic"].casefold(): t["verdict"] == "right" for t in verdict["topics"]}
        shown = [c.tag.name.casefold() for c in found]
        unmatched += sum(1 for name in judged if name not in shown)
        for candidate, row in zip(found, rows, strict=True):
            if candidate.tag.name.casefold() in judged:
                x.append(row)
                y.append(judged[candidate.tag.name.casefold()])
                ids.append(verdict["id"])
                names.append(candidate.tag.name)
    return _rows(x, y, ids, names), unmatched


def keyword_rows(records: list[dict], priors: dict[str, float]) -> Rows:
    """Return the keyword-labelled candidate rows of `records`."""
    topics = load_topics()
    x, y, ids, names = [], [], [], []
    for record, (found, rows) in zip(records, candidates_of(records, priors, False), strict=True):
        named = named_topics(topics, record["keywords"], record["title"])
        for candidate, row in zip(found, rows, strict=True):
            x.append(row)
            y.append(candidate.tag.name in named)
            ids.append(record["id"])
            names.append(candidate.tag.name)
    return _rows(x, y, ids, names)


#: How many candidates a topic's rate counts its source's mean rate for (smoothing a topic seen a few times).
RATE_PRIOR = 5.0


def rate_table(rows: Rows) -> dict[str, float]:
    """Return each topic's smoothed share of right candidates in `rows`, and the mean under ""."""
    mean = float(rows.y.mean()) if len(rows.y) else 0.0
    right: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for name, label in zip(rows.names, rows.y, strict=True):
        seen[name] += 1
        right[name] += bool(label)
    table = {name: round((right[name] + RATE_PRIOR * mean) / (seen[name] + RATE_PRIOR), 4) for name in sorted(seen)}
    return {"": round(mean, 4), **table}


def with_rates(x: np.ndarray, names: list[str], rates: dict[str, dict[str, float]]) -> np.ndarray:
    """Return rows with their rate columns (`RATES`) filled from `rates`."""
    x = x.copy()
    for rate in RATES:
        column = FEATURES.index(rate)
        x[:, column] = [rates[rate].get(name, rates[rate][""]) for name in names]
    return x


def fit(x: np.ndarray, y: np.ndarray, weights: np.ndarray, c: float):
    """Return (mean, scale, coefficients, intercept) of a weighted L2 logistic regression on standardised rows."""
    from sklearn.linear_model import LogisticRegression

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = LogisticRegression(C=c, solver="liblinear", max_iter=1000, random_state=0)
    model.fit((x - mean) / scale, y.astype(np.int8), sample_weight=weights)
    return mean, scale, model.coef_[0], float(model.intercept_[0])


def model_json(what: str, features_name: str, script: str, features: tuple[str, ...], params) -> dict:
    """Return the JSON fields of a fitted logistic model (gate.LogisticJson reads them), six decimals each."""
    mean, scale, coef, intercept = params
    return {
        "about": f"{what}: logistic regression over {features_name}; retrain with {script}",
        "features": list(features),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "weights": [round(float(v), 6) for v in coef],
        "bias": round(intercept, 6),
    }


def predict(params, x: np.ndarray) -> np.ndarray:
    mean, scale, coef, intercept = params
    return np.round(1.0 / (1.0 + np.exp(-(((x - mean) / scale) @ coef + intercept))), DECIMALS)


def train(reader: Rows, keyword: Rows, share: float, c: float, rate_sources: tuple[str, ...] = RATES):
    """Return the fitted gate parameters and the rate tables, trained on both sources (`share`: the reader's weight).

    A rate a source cannot give (no rows, or left out of `rate_sources`) is the same for every topic.
    """
    rates = {
        "reader_rate": rate_table(reader) if "reader_rate" in rate_sources and len(reader.y) else {"": 0.0},
        "keyword_rate": rate_table(keyword) if "keyword_rate" in rate_sources and len(keyword.y) else {"": 0.0},
    }
    parts = [(r, w) for r, w in ((reader, share), (keyword, 1 - share)) if len(r.y) and w > 0]
    x = np.vstack([with_rates(r.x, r.names, rates) for r, _ in parts])
    y = np.concatenate([r.y for r, _ in parts])
    total = len(y)
    weights = np.concatenate([np.full(len(r.y), w * total / len(r.y)) for r, w in parts])
    return fit(x, y, weights, c), rates


def pick_further(scores: np.ndarray, truth: np.ndarray, ids: list[str], precision: float) -> float:
    """Return the lowest threshold at which the further topics (past each paper's best) reach `precision`."""
    best: dict[str, float] = {}
    for score, paper in zip(scores, ids, strict=True):
        best[paper] = max(best.get(paper, 0.0), score)
    further = np.array([score < best[paper] for score, paper in zip(scores, ids, strict=True)])
    for threshold in np.round(np.arange(0.3, 0.96, 0.01), 2):
        chosen = further & (scores >= threshold)
        if chosen.sum() >= 5 and truth[chosen].mean() >= precision:
            return float(threshold)
    return 0.95


def out_of_fold(reader: Rows, keyword: Rows, share: float, c: float, rate_sources: tuple[str, ...] = RATES):
    """Return out-of-fold gate scores of the reader's rows (five folds by paper; keyword rows of other papers train)."""
    folds = np.array([fold_of(i) for i in reader.ids])
    scores = np.zeros(len(reader.y))
    for fold in range(5):
        params, rates = train(reader.part(folds != fold), keyword, share, c, rate_sources)
        test = reader.part(folds == fold)
        scores[folds == fold] = predict(params, with_rates(test.x, test.names, rates))
    return scores


def figures(reader: Rows, scores: np.ndarray, further: float) -> str:
    """Return the reader's figures of showing each paper's best-scored candidate and those reaching `further`."""
    by_paper: dict[str, list[tuple[float, bool]]] = {}
    for paper, score, label in zip(reader.ids, scores, reader.y, strict=True):
        by_paper.setdefault(paper, []).append((float(score), bool(label)))
    shown = right = first = with_right = 0
    for pairs in by_paper.values():
        pairs.sort(key=lambda p: -p[0])
        chosen = [p for rank, p in enumerate(pairs) if rank == 0 or p[0] >= further]
        shown += len(chosen)
        right += sum(label for _, label in chosen)
        first += pairs[0][1]
        with_right += any(label for _, label in chosen)
    n = len(by_paper)
    return (f"topics right {right / max(shown, 1):.3f} ({right}/{shown}), first right {first / max(n, 1):.3f}, "
            f"papers with a right topic {with_right / max(n, 1):.3f}, topics per paper {shown / max(n, 1):.2f} "
            f"({n} papers)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--verdicts", type=Path, nargs="*", default=None, help="reader verdicts of tune papers")
    parser.add_argument("--out", type=Path, default=GATE_PATH)
    parser.add_argument("-C", type=float, default=0.3, help="inverse regularisation strength")
    parser.add_argument("--reader-share", type=float, default=0.5, help="share of the weight on the reader's rows")
    parser.add_argument("--precision", type=float, default=0.7, help="further topics' precision on the reader")
    parser.add_argument("--compare", action="store_true", help="print the out-of-fold figures of other choices")
    args = parser.parse_args()
    paths = args.verdicts if args.verdicts is not None else sorted(VERDICTS.glob("30-tune-*.verdicts.jsonl"))
    labelled = keyword_records(args.corpora)
    priors = topic_priors(labelled)
    keyword = keyword_rows([r for r in labelled if calibration_fold(r["id"])], priors)
    reader, unmatched = reader_rows(args.corpora, priors, paths)
    if args.compare:
        for label, share, sources in (("keyword labels only", 0.0, ("keyword_rate",)),
                                      ("reader labels only", 1.0, ("reader_rate",)),
                                      ("both, reader 0.5", 0.5, RATES), ("both, reader 0.8", 0.8, RATES),
                                      ("both, no rates", 0.5, ())):
            scores = out_of_fold(reader, keyword, share, args.C, sources)
            further = pick_further(scores, reader.y, reader.ids, args.precision)
            print(f"  out of fold, {label} (further {further:.2f}): {figures(reader, scores, further)}")
    scores = out_of_fold(reader, keyword, args.reader_share, args.C)
    further = pick_further(scores, reader.y, reader.ids, args.precision)
    (mean, scale, coef, intercept), rates = train(reader, keyword, args.reader_share, args.C)
    data = {**model_json("topic gate", "generator.enrich.gate.FEATURES", "scripts/train_topic_gate.py", FEATURES,
                         (mean, scale, coef, intercept)), "further": further, "priors": priors, **rates}
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"reader: {len(reader.y)} judged candidates of {len(set(reader.ids))} tune papers ({int(reader.y.sum())} "
          f"right; {unmatched} judged topics not among the candidates); keywords: {len(keyword.y)} candidates of "
          f"{len(set(keyword.ids))} papers ({int(keyword.y.sum())} named); further threshold {further:.2f} -> "
          f"{args.out}")
    print(f"out of fold on the reader's tune papers: {figures(reader, scores, further)}")
    print("weights:", ", ".join(f"{name} {w:+.2f}" for name, w in zip(FEATURES, coef, strict=True)))


if __name__ == "__main__":
    main()
