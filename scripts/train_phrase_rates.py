"""Learn each phrase's title rate from the corpora (generator/data/phrase_rates.json).

    python scripts/train_phrase_rates.py

A phrase that names a paper's subject is one its authors put in the title: of the training
abstracts that use a phrase of two or three words (`open_topics.phrase_keys`), the share whose
title uses it too is its title rate. "sign language" 0.70 and "video summarization" 0.53 are
subjects; "real time" 0.04, "ground truth" 0.02 and "three main" 0 are settings, tools and
turns of phrase. `open_topics` names no open topic by a phrase under `MIN_TITLE_RATE`.

Papers: those `train_field_model.py` reads (the 'tune' part of ../shared/corpora: every field's
venues, ICLR 2024 and 2025, other venues; never a held-out venue-year or fifth), without the
fifth that picks the field topic model's thresholds (`calibration_fold`), where
`python bench/field_tags.py --tune` measures. A phrase fewer than `--min-abstracts` abstracts use
gets no rate. Deterministic: same corpora, same bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_field_model import CORPORA, read_corpora
from train_topic_model import calibration_fold

from generator.enrich.open_topics import PHRASE_RATES, phrase_keys
from generator.text import to_plain

OUT = ROOT / "generator" / "data" / PHRASE_RATES


def title_rates(records: list[dict], min_abstracts: int) -> dict[str, float]:
    """Return each phrase's share of the abstracts using it whose titles use it too (3 decimals)."""
    used: Counter[str] = Counter()
    titled: Counter[str] = Counter()
    for record in records:
        in_abstract = phrase_keys(to_plain(record["abstract"])).keys()
        used.update(in_abstract)
        titled.update(in_abstract & phrase_keys(str(record.get("title") or "")).keys())
    return {key: round(titled[key] / n, 3) for key, n in sorted(used.items()) if n >= min_abstracts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", default=str(CORPORA))
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--min-abstracts", type=int, default=10, help="fewer abstracts using a phrase: no rate")
    args = parser.parse_args()
    records = [r for r in read_corpora(Path(args.corpora)) if not calibration_fold(r["id"])]
    rates = title_rates(records, args.min_abstracts)
    data = {"papers": len(records), "min_abstracts": args.min_abstracts, "rates": rates}
    # One phrase a line, sorted: a retraining's changes read as a diff.
    Path(args.out).write_text(json.dumps(data, indent=0, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(rates)} phrases from {len(records)} papers -> {args.out}")


if __name__ == "__main__":
    main()
