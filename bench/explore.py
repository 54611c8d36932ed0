"""Time the digest-wide explorer stages on N abstracts: related papers and the topic map (not a test).

    python bench/explore.py [--sizes 1000 5000 20000] [--corpora ../shared/corpora]

Both stages read one TF-IDF matrix of the abstracts; the figures are wall
seconds for each stage and the peak RSS of this process.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import abstracts
from generator.enrich.maps import map_coordinates
from generator.enrich.related import MAP_NEIGHBOURS, nearest
from generator.enrich.vectors import vectorize
from generator.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = parser.parse_args()
    settings = Settings(project_dir=ROOT)
    print(f"$ python bench/explore.py --sizes {' '.join(map(str, args.sizes))}")
    print(f"{'papers':>7} {'tf-idf s':>9} {'related s':>10} {'map s':>7} {'peak RSS MB':>12}")
    for size in args.sizes:
        texts = abstracts(args.corpora, size)
        start = time.perf_counter()
        matrix = vectorize(texts)
        vectors = time.perf_counter() - start
        start = time.perf_counter()
        scored = nearest(matrix.matrix, max(settings.related_count, MAP_NEIGHBOURS)) if matrix else []
        related = time.perf_counter() - start
        start = time.perf_counter()
        map_coordinates(scored)
        layout = time.perf_counter() - start
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{size:>7} {vectors:>9.1f} {related:>10.1f} {layout:>7.1f} {rss:>12.0f}", flush=True)


if __name__ == "__main__":
    main()
