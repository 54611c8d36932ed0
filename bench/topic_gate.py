"""Measure the topic gate against a strict reader's verdicts (prints figures; not a test).

    python bench/topic_gate.py --shown /tmp/30g-tune-a-shown.jsonl /tmp/30g-tune-b-shown.jsonl

- tune, before the gate: of the reader's verdicts of tune papers (bench/reader_samples/30-tune-*),
  the topics the tool showed then (`--shown`: bench/reader_request_tags.py's request without
  `--extra`); the gate's out-of-fold figures on the same papers come from
  `python scripts/train_topic_gate.py --compare`;
- held-out: the earlier verdicts of held-out papers (/work/reader/verdicts/30-before, -after,
  -fresh and -final: the topics the tool showed then) as shown, and with the shipped gate
  choosing among the judged topics that are among its candidates.

Each: topics shown right, first topic right, papers with a right topic, topics per paper.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.enrich.gate import load_gate

sys.path.insert(0, str(ROOT / "scripts"))
from train_topic_gate import VERDICTS, Rows, figures, read_jsonl, reader_rows, with_rates

HELD_OUT = [Path(f"/work/reader/verdicts/30-{label}.jsonl") for label in ("before", "after", "fresh", "final")]


def as_shown(verdicts: list[dict], shown: dict[str, list[str]] | None = None) -> str:
    """Return the figures of the topics shown (`shown` by paper id, else every topic a verdict judged), in order."""
    ids, names, labels, scores = [], [], [], []
    for verdict in verdicts:
        judged = {t["topic"].casefold(): t["verdict"] == "right" for t in verdict["topics"]}
        order = shown[verdict["id"]] if shown is not None else [t["topic"] for t in verdict["topics"]]
        for rank, name in enumerate(n for n in order if n.casefold() in judged):
            ids.append(verdict["id"])
            names.append(name)
            labels.append(judged[name.casefold()])
            scores.append(1.0 - rank / 100)
    rows = Rows(np.zeros((len(ids), 1)), np.array(labels, dtype=bool), ids, names)
    return figures(rows, np.array(scores), 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shown", type=Path, nargs="*", default=[], help="the tune requests' topics before the gate")
    args = parser.parse_args()
    if args.shown:
        shown = {r["id"]: r["topics"] for path in args.shown for r in read_jsonl(path)}
        tune = [v for path in sorted(VERDICTS.glob("30-tune-*.verdicts.jsonl")) for v in read_jsonl(path)]
        print(f"tune, before the gate: {as_shown([v for v in tune if v['id'] in shown], shown)}")
    gate = load_gate()
    if all(path.is_file() for path in HELD_OUT):
        verdicts = [v for path in HELD_OUT for v in read_jsonl(path)]
        print(f"held-out (30-before, -after, -fresh, -final), as shown then: {as_shown(verdicts)}")
        rows, unmatched = reader_rows(ROOT.parent / "shared" / "corpora", gate.priors, HELD_OUT, held_out=True)
        scores = gate.probabilities(with_rates(rows.x, rows.names, gate.rates))
        print(f"  the same judged topics among the gate's candidates ({unmatched} judged topics are not), as the "
              f"shipped gate chooses: {figures(rows, scores, gate.further)}")


if __name__ == "__main__":
    main()
