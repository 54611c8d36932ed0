"""Time the field stage on the held-out venue-years of NLP, vision and robotics (prints figures; not a test).

    python bench/field_speed.py [--code DIR] [--corpora ../shared/corpora]

The field stage as `bench/field_tags.py` times it (the field model, then each paper's areas and
topics in its venue's digest: `own_fields.in_digest_fields`), one core's CPU time per abstract, the best
of three runs, for ACL 2022, CVPR 2019 and IROS 2022. `--code DIR` times another checkout's
generator (main, for "before"): run both back to back on the same machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENUES = ("ACL 2022", "CVPR 2019", "IROS 2022")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose generator is timed")
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    # Imported once the path is set: the checkout's generator is timed.
    from bench.field_tags import held_out
    from generator.enrich.areas import load_model
    from generator.enrich.fields import load_field_tagger
    try:
        from generator.enrich.own_fields import in_digest_fields
    except ImportError:  # a checkout from before in_digest_fields moved (--code)
        from generator.enrich.fields import in_digest_fields  # type: ignore[attr-defined,no-redef]
    from generator.text import to_plain

    venues = held_out(args.corpora)
    tagger = load_field_tagger()
    assert tagger is not None, "train the field models first: python scripts/train_field_model.py"
    for venue in VENUES:
        plains = [to_plain(r["abstract"]) for r in venues[venue]]
        tfidf = load_model().features(plains)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            in_digest_fields(tagger.tag(tfidf), plains)
            best = min(best, time.process_time() - start)
        print(f"{venue}: {1000 * best / len(plains):.3f} ms an abstract ({args.code.resolve()})")


if __name__ == "__main__":
    main()
