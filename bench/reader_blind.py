"""Blind strict-reader requests: each request file copied under a neutral name, with a prompt for one reader.

    python bench/reader_blind.py --tag s30 REQUESTS/44-s30-acl.jsonl REQUESTS/44-s30-before-acl.jsonl ...

REQUESTS is /work/reader/requests. A reader must not know which file is "before" and which
"after", nor which field's round is being judged: each request file (`bench/reader_request_fields.py`
writes them) is copied to `/work/reader/blind<tag>/<name>.jsonl` under a name drawn from the tag,
its papers in a shuffled order, and a prompt `/work/reader/prompt-<tag>-<n>.txt` gives one reader
the rubric (`../shared/reader-rubric.md`, its quoted part word for word), the file to read and
where to write its verdicts. The map from neutral names back to request files is written to
`/work/reader/map-<tag>.json`, which no prompt names. `bench/reader_score.py` reads the verdicts.
Deterministic: the same tag and files give the same names and orders.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUBRIC = ROOT.parent / "shared" / "reader-rubric.md"
READER = Path("/work/reader")

#: The verdict line each reader writes: the shape `bench/reader_score.py` reads.
VERDICT_SHAPE = (
    '{"id": ..., "topics": [{"name": ..., "verdict": "right|loose|wrong", "reason": ...}], '
    '"missing_topic": "... (when no topic is right, else empty)", '
    '"area": {"name": ..., "verdict": "right|loose|wrong", "reason": ...}, '
    '"title": {"verdict": "good|fair|bad", "reason": ...}, '
    '"summary": {"verdict": "does|background|wrong", "reason": ...}}'
)


def rubric_text(path: Path = RUBRIC) -> str:
    """Return the rubric's words for the reader: its quoted block, word for word, without the quote marks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    quoted = [line[2:] if line.startswith("> ") else line[1:] for line in lines if line.startswith(">")]
    if not quoted:
        raise SystemExit(f"{path}: no quoted rubric found")
    return "\n".join(quoted)


def neutral_name(tag: str, request: Path) -> str:
    """Return a name that says nothing of the request file (drawn from the tag and the file's name)."""
    return "r" + hashlib.sha256(f"{tag}:{request.name}".encode()).hexdigest()[:8]


def prompt(rubric: str, blinded: Path, verdicts: Path, count: int) -> str:
    """Return one reader's whole instruction."""
    return (
        f"{rubric}\n\n"
        f"The papers: {blinded} ({count} JSON lines: id, abstract, author_keywords, areas, topics, "
        "inferred_title, summary). Judge every paper yourself, reading each abstract whole; do not write a "
        "program to judge them. An empty topics list means the paper was given no topic: then name the "
        "MISSING topic.\n"
        f"Write one JSON line per paper, in the file's order, to {verdicts}, shaped as:\n{VERDICT_SHAPE}\n"
        "Then reply with the counts and shares, the papers with all topics right and with no right topic, "
        "and the five most frequent failure patterns with an example each.\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("requests", nargs="+", type=Path, help="request files (reader_request_fields.py)")
    parser.add_argument("--tag", required=True, help="names this blinding: its folder, prompts and map")
    parser.add_argument("--reader", type=Path, default=READER)
    args = parser.parse_args()
    rubric = rubric_text()
    folder = args.reader / f"blind{args.tag}"
    folder.mkdir(parents=True, exist_ok=True)
    mapping = {}
    order = sorted(args.requests, key=lambda p: neutral_name(args.tag, p))
    for n, request in enumerate(order, start=1):
        name = neutral_name(args.tag, request)
        rows = [line for line in request.read_text(encoding="utf-8").splitlines() if line.strip()]
        random.Random(name).shuffle(rows)
        blinded = folder / f"{name}.jsonl"
        blinded.write_text("\n".join(rows) + "\n", encoding="utf-8")
        verdicts = folder / f"{name}.verdicts.jsonl"
        prompt_path = args.reader / f"prompt-{args.tag}-{n}.txt"
        prompt_path.write_text(prompt(rubric, blinded, verdicts, len(rows)), encoding="utf-8")
        mapping[name] = {"request": str(request), "verdicts": str(verdicts), "prompt": str(prompt_path)}
        print(f"{prompt_path}: {len(rows)} papers")
    (args.reader / f"map-{args.tag}.json").write_text(json.dumps(mapping, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
