"""Make inferred titles unique within a digest (a suffix where two papers would share one)."""

from __future__ import annotations

from collections import Counter, defaultdict


def unique_titles(titles: list[str], disambiguators: list[str]) -> list[str]:
    """Make titles unique: colliding titles get a distinguishing suffix.

    The suffix is the paper's disambiguator (its collection) where the colliding
    papers' disambiguators differ, else a number in input order: "X (ICLR 2025)"
    and "X (ICLR 2026)", but "X (1)" and "X (2)" within one collection.
    """
    counts = Counter(t.casefold() for t in titles)
    kinds: dict[str, set[str]] = defaultdict(set)
    for title, extra in zip(titles, disambiguators, strict=True):
        kinds[title.casefold()].add(extra)
    seen: Counter[str] = Counter()
    out = []
    for title, extra in zip(titles, disambiguators, strict=True):
        key = title.casefold()
        if counts[key] > 1:
            seen[key] += 1
            # One collection's name on every copy would tell no two of them apart.
            title = f"{title} ({extra})" if extra and len(kinds[key]) > 1 else f"{title} ({seen[key]})"
        out.append(title)
    # A suffix could still collide ("X (2)" given twice): fall back to numbers.
    if len({t.casefold() for t in out}) != len(out):
        return unique_titles([f"{t}" for t in out], [""] * len(out))
    return out
