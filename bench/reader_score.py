"""Score strict readers' verdicts: topics right / loose / wrong, papers with a right topic, first area right.

    python bench/reader_score.py --map /work/reader/map-s30.json                  # every blinded file of a tag
    python bench/reader_score.py a.verdicts.jsonl b.verdicts.jsonl                 # verdict files as they are
    python bench/reader_score.py --map M --paired 44-s30-before-acl 44-s30-acl     # the papers whose tags changed

With `--map` (written by `bench/reader_blind.py`) each blinded file is named by its request file,
and `--paired BEFORE AFTER` (request names without `.jsonl`) also scores, on only the papers whose
areas or topics differ between the two requests, how many have a right topic and a right first area
by each file's reader. `--keep DIR` copies each verdict file to `DIR/<request name>.verdicts.jsonl`
(bench/reader_samples keeps them).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path


def read_lines(path: Path) -> list[dict]:
    """Return a JSON-lines file's records (blank lines skipped)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def figures(verdicts: list[dict]) -> dict[str, float]:
    """Return the rubric's figures of one file's verdicts."""
    topics = [t["verdict"] for v in verdicts for t in v["topics"]]
    with_right = sum(any(t["verdict"] == "right" for t in v["topics"]) for v in verdicts)
    areas = sum(v["area"]["verdict"] == "right" for v in verdicts)
    n = len(verdicts)
    share = (lambda k: 100.0 * topics.count(k) / len(topics)) if topics else (lambda k: 0.0)
    return {
        "papers": n, "right": share("right"), "loose": share("loose"), "wrong": share("wrong"),
        "with_right": 100.0 * with_right / n, "area_right": 100.0 * areas / n,
        "no_topic": sum(not v["topics"] for v in verdicts),
        "titles_good": 100.0 * sum(v["title"]["verdict"] == "good" for v in verdicts) / n,
    }


def line(name: str, f: dict[str, float]) -> str:
    return (f"{name}: {f['papers']} papers; topics right / loose / wrong {f['right']:.1f} / {f['loose']:.1f} / "
            f"{f['wrong']:.1f}%; with a right topic {f['with_right']:.1f}%; first area right {f['area_right']:.1f}%; "
            f"no topic {f['no_topic']}; titles good {f['titles_good']:.1f}%")


def changed(before: list[dict], after: list[dict]) -> set[str]:
    """Return the ids whose areas or topics differ between two requests."""
    old = {r["id"]: (r["areas"], r["topics"]) for r in before}
    return {r["id"] for r in after if old.get(r["id"]) != (r["areas"], r["topics"])}


def paired(ids: set[str], verdicts: list[dict]) -> tuple[int, int]:
    """Return, of the given papers, how many have a right topic and a right first area."""
    mine = [v for v in verdicts if v["id"] in ids]
    return (sum(any(t["verdict"] == "right" for t in v["topics"]) for v in mine),
            sum(v["area"]["verdict"] == "right" for v in mine))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--map", type=Path)
    parser.add_argument("--paired", nargs=2, action="append", default=[], metavar=("BEFORE", "AFTER"))
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    named: dict[str, tuple[Path, Path | None]] = {f.name: (f, None) for f in args.files}
    if args.map:
        for entry in json.loads(args.map.read_text(encoding="utf-8")).values():
            request = Path(entry["request"])
            named[request.name.removesuffix(".jsonl")] = (Path(entry["verdicts"]), request)
    for name, (path, _) in sorted(named.items()):
        if not path.is_file():
            print(f"{name}: no verdicts yet ({path})")
            continue
        print(line(name, figures(read_lines(path))))
        if args.keep:
            shutil.copyfile(path, args.keep / f"{name}.verdicts.jsonl")
    for before, after in args.paired:
        (vb, rb), (va, ra) = named[before], named[after]
        if rb is None or ra is None or not (vb.is_file() and va.is_file()):
            print(f"{before} / {after}: needs --map and both files' verdicts")
            continue
        ids = changed(read_lines(rb), read_lines(ra))
        (tb, ab), (ta, aa) = paired(ids, read_lines(vb)), paired(ids, read_lines(va))
        print(f"{after}: {len(ids)} papers changed; with a right topic {tb} -> {ta}; first area right {ab} -> {aa}")


if __name__ == "__main__":
    main()
