"""The site's name when the user gives none: the collection's, or a short form of several."""

from __future__ import annotations

import re

#: Longest name made from several collections' names, in characters.
MAX_NAME = 59
_VENUE_YEAR = re.compile(r"^(?P<venue>.*?)\s*(?P<year>(?:19|20)\d\d)$")


def digest_name(collections: list[str]) -> str:
    """Return a short name for a digest of `collections` (under 60 characters).

    One collection: its name. The years of one venue make one part: "ICLR 2024–2026"
    (consecutive years) or "ICLR 2024, 2026"; the parts are joined with " + " when that is short,
    else as many as fit, then "…" ("AISTATS 2025 + ICLR 2017–2018 + IJCAI 2020–2024 + …").
    """
    names = sorted(set(collections))
    if not names:
        return "Paper digest"
    if len(names) == 1:
        return names[0] if len(names[0]) <= MAX_NAME else names[0][: MAX_NAME - 1].rsplit(" ", 1)[0] + "…"
    years: dict[str, list[int]] = {}
    for name in names:
        match = _VENUE_YEAR.match(name)
        venue, year = (match.group("venue"), int(match.group("year"))) if match else (name, 0)
        years.setdefault(venue, []).append(year)
    parts = [_venue_years(venue, sorted(found)) for venue, found in years.items()]
    joined = " + ".join(parts)
    if len(joined) <= MAX_NAME:
        return joined
    shown = parts[0] if len(parts[0]) <= MAX_NAME - 4 else parts[0][: MAX_NAME - 5].rsplit(" ", 1)[0]
    for part in parts[1:]:
        if len(f"{shown} + {part} + …") > MAX_NAME:
            break
        shown = f"{shown} + {part}"
    return f"{shown} + …"


def _venue_years(venue: str, years: list[int]) -> str:
    """Return one venue's part of a name: "ICLR 2024–2026", "ICLR 2024, 2026", or the venue alone (no year)."""
    known = [year for year in years if year]
    if not known:
        return venue
    consecutive = len(known) > 1 and known == list(range(known[0], known[-1] + 1))
    span = f"{known[0]}–{known[-1]}" if consecutive else ", ".join(str(y) for y in known)
    return f"{venue} {span}".strip()
