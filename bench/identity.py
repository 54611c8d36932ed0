"""How well near-duplicate sketches tell an edited abstract from another paper (generator/identity/sketch.py).

Run: python bench/identity.py [--corpora ../shared/corpora] [--papers 3000]

On held-out abstracts (bench/split.py) of ICLR 2024 and 2025 and the other
venues, it prints the estimated similarity of each abstract to edited copies of
itself (a typo, five typos, a sentence added, a sentence removed, a note
paragraph joined, half a paragraph joined), and of each abstract to its most
similar other abstract (resubmissions across years included). THRESHOLD must
sit above every distinct pair and below the edits a user makes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.split import part_of
from generator.identity.sketch import _CHANCE, SIZE, THRESHOLD, sketches

NOTE = "Code is available at https://github.com/anonymous/project, with the data and trained models."


def _typo(text: str, rng: random.Random, count: int = 1) -> str:
    words = text.split()
    for _ in range(count):
        i = rng.randrange(len(words))
        word = words[i]
        if len(word) > 3:
            j = rng.randrange(1, len(word) - 1)
            words[i] = word[:j] + word[j + 1] + word[j] + word[j + 2:]
    return " ".join(words)


def _sentences(text: str) -> list[str]:
    import re

    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text) if s]


def _edits(text: str, other: str, rng: random.Random) -> dict[str, str]:
    parts = _sentences(text)
    extra = _sentences(other)
    half = " ".join(extra[: max(1, len(extra) // 2)])
    return {
        "one typo": _typo(text, rng),
        "five typos": _typo(text, rng, 5),
        "a sentence added": text + " " + extra[-1],
        "a sentence removed": " ".join(parts[:-1]) if len(parts) > 2 else text,
        "a note paragraph joined": text + "\n\n" + NOTE,
        "half an abstract joined": text + "\n\n" + half,
    }


def _agreement(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the estimated similarity of every row of `a` with every row of `b`."""
    agree = np.zeros((len(a), len(b)), dtype=np.float32)
    for k in range(SIZE):
        agree += a[:, k][:, None] == b[:, k][None, :]
    return np.maximum(0.0, (agree / SIZE - _CHANCE) / (1 - _CHANCE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora")
    parser.add_argument("--papers", type=int, default=3000, help="held-out abstracts of each corpus file")
    args = parser.parse_args()
    rng = random.Random(31)
    texts: list[str] = []
    for name in ("iclr2024.jsonl", "iclr2025.jsonl", "other-venues.jsonl"):
        rows = [json.loads(line) for line in (args.corpora / name).open(encoding="utf-8")]
        held = [r["abstract"] for r in rows if part_of(str(r["id"])) == "held-out" and len(r["abstract"]) > 200]
        texts += held[: args.papers]
    made = np.array([list(bytes.fromhex(s)) for s in sketches(texts)], dtype=np.uint8)
    print(f"{len(texts)} held-out abstracts; sketch of {SIZE} minima; threshold {THRESHOLD}")
    print("\nedited copy vs original (estimated similarity):")
    print(f"{'edit':26} {'min':>6} {'1%':>6} {'median':>7} {'below threshold':>16}")
    sample = rng.sample(range(len(texts)), min(2000, len(texts)))
    edits: dict[str, list[float]] = {}
    for i in sample:
        other = texts[rng.randrange(len(texts))]
        for kind, edited in _edits(texts[i], other, rng).items():
            value = np.array(list(bytes.fromhex(sketches([edited])[0])), dtype=np.uint8)
            edits.setdefault(kind, []).append(float(_agreement(made[i:i + 1], value[None, :])[0, 0]))
    for kind, values in edits.items():
        found = np.array(values)
        print(f"{kind:26} {found.min():6.2f} {np.percentile(found, 1):6.2f} {np.median(found):7.2f} "
              f"{int((found < THRESHOLD).sum()):>9} of {len(found)}")
    print("\neach abstract vs its most similar other abstract:")
    best = np.zeros(len(texts), dtype=np.float32)
    for start in range(0, len(texts), 500):
        block = _agreement(made[start:start + 500], made)
        for row in range(block.shape[0]):
            block[row, start + row] = 0.0
        best[start:start + 500] = block.max(axis=1)
    for q in (50, 99, 99.9):
        print(f"  {q}th percentile: {np.percentile(best, q):.2f}")
    print(f"  max: {best.max():.2f}; above threshold: {int((best >= THRESHOLD).sum())} of {len(best)}")
    print("\nat other thresholds (edits below it get a new id; distinct abstracts at or above it could be taken "
          "for an edit):")
    everything = np.concatenate([np.array(v) for v in edits.values()])
    for threshold in (0.3, 0.4, 0.5, 0.6, 0.7):
        print(f"  {threshold:.1f}: edits below {int((everything < threshold).sum())} of {len(everything)}, "
              f"distinct at or above {int((best >= threshold).sum())} of {len(best)}")
    for i in np.argsort(-best)[:3]:
        j = int(np.argmax(_agreement(made[i:i + 1], made)[0] * (np.arange(len(texts)) != i)))
        print(f"    {best[i]:.2f}: {texts[i][:70]!r} ~ {texts[j][:70]!r}")


if __name__ == "__main__":
    main()
