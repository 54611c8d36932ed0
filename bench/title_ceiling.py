"""How far a chooser of extractive candidate titles can go (prints figures; not a test).

    python bench/title_ceiling.py [corpus.jsonl ...] [--abstracts 16000]

Reads only the 'tune' part of the corpora (bench/split.py), as the title model's
training does, and prints:

- the oracle: mean ROUGE-L F1 of the best defect-free candidate of each abstract
  (what a perfect ranker over today's candidates would score), beside the shipped
  ranker's choice over the same candidates;
- other rankers fitted on the same features (3/4 of the abstracts) and measured
  on the other quarter: ridge regression on centred ROUGE (the shipped kind),
  gradient-boosted trees, a pairwise logistic preference;
- the name ceiling: the share of papers titled "NAME: ..." (NAME in the abstract)
  whose NAME is among the name candidates at all, and the emitted name's
  recall and precision at thresholds around the shipped one.

Default corpora: ../shared/corpora/iclr2024.jsonl, iclr2025.jsonl, other-venues.jsonl.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_title_model import CORPORA, clean_candidates, load, named_paper_name

from bench.titles import contains_name, rouge_l
from generator.enrich.titles.model import load_model
from generator.enrich.titles.names import name_candidates

# The ranker's order is overruled by these kinds (a name's own expansion, then its appositive).
PRIORITY = {"expansion": 0, "appositive": 1}


def candidate_groups(records: list[dict]) -> list[tuple[bool, np.ndarray, np.ndarray, list[str]]]:
    """Per abstract: named or not, its clean candidates' features, their ROUGE-L and kinds."""
    model = load_model()
    groups = []
    for record in records:
        name, candidates = clean_candidates(
            record, model.vocabulary, model.name, model.name_threshold, model.sentence, model.compressor
        )
        if len(candidates) >= 2:
            rows = np.array([candidate.features for candidate, _ in candidates])
            scores = np.array([rouge_l(title, record["title"]) for _, title in candidates])
            groups.append((bool(name), rows, scores, [candidate.kind for candidate, _ in candidates]))
    return groups


def chosen(groups, score) -> float:
    """Mean ROUGE-L of the candidate each abstract's ranking puts first (priority kinds first)."""
    picks = []
    for named, x, y, kinds in groups:
        s = score(named, x)
        picks.append(y[min(range(len(y)), key=lambda i: (PRIORITY.get(kinds[i], 2), -s[i], i))])
    return float(np.mean(picks))


def rankers(train, test) -> None:
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import LogisticRegression, Ridge

    def centred(named: bool, raw: bool = False):
        xs, ys, ws = [], [], []
        for n, x, y, _ in train:
            if n == named:
                xs.append(x if raw else x - x.mean(axis=0))
                ys.append(y - y.mean())
                ws.append(np.full(len(y), 1 / len(y)))
        return np.vstack(xs), np.concatenate(ys), np.concatenate(ws)

    fitted = {}
    for named in (True, False):
        x, y, w = centred(named)
        ridge = Ridge(alpha=1.0, fit_intercept=False).fit(x, y, sample_weight=w)
        x, y, w = centred(named, raw=True)
        trees = HistGradientBoostingRegressor(max_iter=200, max_depth=4, random_state=0).fit(x, y, sample_weight=w)
        pairs, labels, flip = [], [], False
        for n, x, y, _ in train:
            if n != named:
                continue
            best = int(np.argmax(y))
            for i in range(len(y)):
                if y[best] - y[i] > 0.05:
                    flip = not flip
                    pairs.append(x[i] - x[best] if flip else x[best] - x[i])
                    labels.append(0 if flip else 1)
        spread = np.vstack(pairs).std(axis=0) + 1e-9
        pairwise = LogisticRegression(max_iter=3000, fit_intercept=False).fit(np.vstack(pairs) / spread, labels)
        fitted[named] = (ridge, trees, pairwise, spread)
    print(f"rankers fitted on {len(train)} abstracts, measured on {len(test)} (ROUGE-L of the chosen candidate):")
    print(f"  ridge on centred ROUGE-L (shipped kind): {chosen(test, lambda n, x: fitted[n][0].predict(x)):.3f}")
    print(f"  gradient-boosted trees:                   {chosen(test, lambda n, x: fitted[n][1].predict(x)):.3f}")
    print(f"  pairwise logistic preference:            "
          f"{chosen(test, lambda n, x: fitted[n][2].decision_function(x / fitted[n][3])):.3f}")
    print(f"  oracle (best clean candidate):            {np.mean([y.max() for _, _, y, _ in test]):.3f}")


def names(records: list[dict]) -> None:
    model = load_model()
    rows, present = [], 0
    for record in records:
        candidates = name_candidates(record["raw"], record["plain"])
        real = named_paper_name(record)
        present += bool(real) and any(contains_name(c.name, real) for c in candidates)
        best = max(((model.name.score(c.features), c.name) for c in candidates), default=None)
        rows.append((best, real, record["title"]))
    named = sum(1 for _, real, _ in rows if real)
    print(f"name ceiling: {named} papers titled 'NAME: ...' with NAME in the abstract; NAME is a name candidate "
          f"for {present / max(named, 1):.3f} of them")
    for offset in (-3, -2, -1, 0, 1):
        threshold = model.name_threshold + offset
        emitted = [(best, real, title) for best, real, title in rows if best and best[0] >= threshold]
        precision = sum(contains_name(title, best[1]) for best, _, title in emitted) / max(len(emitted), 1)
        recall = sum(1 for best, real, _ in emitted if real and contains_name(best[1], real)) / max(named, 1)
        print(f"  threshold {'shipped' if not offset else f'{offset:+d}':>7}: {len(emitted):5d} names emitted, "
              f"precision {precision:.3f}, recall {recall:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", type=Path, default=CORPORA)
    parser.add_argument("--abstracts", type=int, default=16000, help="tune abstracts the rankers use")
    args = parser.parse_args()
    records = load(args.corpora)
    print(f"$ python bench/title_ceiling.py  ({len(records)} tune abstracts; the held-out part is not read)")
    groups = candidate_groups(records[: args.abstracts])
    shipped = load_model()

    def shipped_score(named: bool, x: np.ndarray) -> list[float]:
        return [(shipped.named if named else shipped.headline).score(tuple(row)) for row in x]

    print(f"candidates: {len(groups)} abstracts with 2+ clean candidates; shipped ranker's choice "
          f"{chosen(groups, shipped_score):.3f} (it was trained on these), "
          f"oracle {np.mean([y.max() for _, _, y, _ in groups]):.3f}")
    rankers([g for i, g in enumerate(groups) if i % 4], [g for i, g in enumerate(groups) if i % 4 == 0])
    names(records)


if __name__ == "__main__":
    main()
