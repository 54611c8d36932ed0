"""Train the area reranker shipped in generator/data/area_gate.json (generator/enrich/area_gate.py).

Run from the project root (a minute or two), after scripts/train_topic_gate.py and
scripts/build_topic_areas.py:

    python scripts/train_area_gate.py

Labels: a strict reader's verdicts of the candidate areas of tune papers (bench/split.py)
(bench/reader_samples/30-tune-*.verdicts.jsonl: each of a paper's three most likely areas
judged right, loose or wrong; right is the positive label; where a verdict judges only the
first area, that one row). Each candidate area is a row of `AREA_FEATURES`, the paper's
topics those the shipped topic model and gate give it (its keywords among the candidates).
One L2 logistic regression on standardised rows. The held-out part is never read. Prints
the first area's out-of-fold rate of right (five folds by paper) beside the area model's own
first area. Same verdicts and models, same file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from train_topic_gate import CORPORA, VERDICTS, fit, fold_of, model_json, predict, read_jsonl

from bench.split import part_of
from generator.enrich.area_gate import AREA_CANDIDATES, AREA_FEATURES, AREA_GATE_PATH, area_rows
from generator.enrich.areas import load_model
from generator.enrich.keywords import keyword_tags
from generator.enrich.tags import load_topics
from generator.enrich.topic_choice import tag_topics
from generator.text import to_plain


def area_papers(corpora: Path, paths: list[Path]):
    """Return, per judged tune paper: its id, candidate area names, feature rows and verdicts by area name."""
    by_id = {r["id"]: r for name in ("iclr2025.jsonl", "other-venues.jsonl") for r in read_jsonl(corpora / name)}
    verdicts = [v for path in paths for v in read_jsonl(path)]
    records = [by_id[v["id"]] for v in verdicts]
    if any(part_of(r["id"]) != "tune" for r in records):
        raise SystemExit("a reader verdict names a held-out paper: the reranker learns from tune papers only")
    topics = load_topics()
    plains = [to_plain(r["abstract"]) for r in records]
    given = [keyword_tags(tuple(r.get("keywords") or ()), topics, p) for r, p in zip(records, plains, strict=True)]
    tagged = tag_topics(plains, topics, given=given)
    guesses = load_model().predict_plausible(plains)
    papers = []
    for verdict, plain, tags, guess in zip(verdicts, plains, tagged, guesses, strict=True):
        judged = {a["area"]: a["verdict"] == "right" for a in verdict.get("areas") or []}
        judged.setdefault(verdict["area"]["area"], verdict["area"]["verdict"] == "right")
        head = guess[:AREA_CANDIDATES]
        papers.append((verdict["id"], [g.area.name for g in head], area_rows(head, tags, plain), judged))
    return papers


def labelled(papers) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Return the judged candidate rows, their labels and paper ids."""
    x, y, ids = [], [], []
    for paper_id, names, rows, judged in papers:
        for name, row in zip(names, rows, strict=True):
            if name in judged:
                x.append(row)
                y.append(judged[name])
                ids.append(paper_id)
    return np.array(x).reshape(-1, len(AREA_FEATURES)), np.array(y, dtype=bool), ids


def first_right(papers, scores: list[np.ndarray]) -> tuple[int, int]:
    """Return how many papers' best-scored area was judged right, of those whose best-scored area was judged."""
    right = judged = 0
    for (_, names, _, verdicts), paper_scores in zip(papers, scores, strict=True):
        best = names[int(np.argsort(-paper_scores, kind="stable")[0])] if len(paper_scores) else None
        if best in verdicts:
            judged += 1
            right += verdicts[best]
    return right, judged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--out", type=Path, default=AREA_GATE_PATH)
    parser.add_argument("-C", type=float, default=1.0, help="inverse regularisation strength")
    args = parser.parse_args()
    papers = area_papers(args.corpora, sorted(VERDICTS.glob("30-tune-*.verdicts.jsonl")))
    folds = np.array([fold_of(p[0]) for p in papers])
    oof: list[np.ndarray] = [np.zeros(0)] * len(papers)
    for fold in range(5):
        x, y, _ = labelled([p for p, f in zip(papers, folds, strict=True) if f != fold])
        params = fit(x, y, np.ones(len(y)), args.C)
        for i in np.flatnonzero(folds == fold):
            oof[i] = predict(params, papers[i][2])
    model_first = [np.array([1.0 - r / 10 for r in range(len(p[1]))]) for p in papers]
    x, y, ids = labelled(papers)
    mean, scale, coef, intercept = fit(x, y, np.ones(len(y)), args.C)
    data = model_json("area reranker", "generator.enrich.area_gate.AREA_FEATURES", "scripts/train_area_gate.py",
                      AREA_FEATURES, (mean, scale, coef, intercept))
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    before, after = first_right(papers, model_first), first_right(papers, oof)
    print(f"{len(y)} judged candidate areas of {len(set(ids))} tune papers ({int(y.sum())} right) -> {args.out}")
    print(f"first area right: area model {before[0]}/{before[1]} = {before[0] / max(before[1], 1):.3f}; reranked "
          f"(out of fold) {after[0]}/{after[1]} = {after[0] / max(after[1], 1):.3f}")
    print("weights:", ", ".join(f"{name} {w:+.2f}" for name, w in zip(AREA_FEATURES, coef, strict=True)))


if __name__ == "__main__":
    main()
