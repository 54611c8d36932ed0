"""The site's name when the user gives none: the collection's, or a short form of several."""

from __future__ import annotations

import re

#: Longest name made from several collections' names, in characters.
MAX_NAME = 59
_VENUE_YEAR = re.compile(r"^(?P<venue>.*?)\s*(?P<year>(?:19|20)\d\d)$")


def digest_name(collections: list[str]) -> str:
    """Return a short name for a digest of `collections` (under 60 characters).

    One collection: its name. One venue over several years: "ICLR 2024–2026"
    (consecutive years) or "ICLR 2024, 2026". Else the names joined with " + "
    when that is short, else "N collections".
    """
    names = sorted(set(collections))
    if not names:
        return "Paper digest"
    if len(names) == 1:
        return names[0] if len(names[0]) <= MAX_NAME else names[0][: MAX_NAME - 1].rsplit(" ", 1)[0] + "…"
    matches = [_VENUE_YEAR.match(name) for name in names]
    venues = {m.group("venue") for m in matches if m}
    if all(matches) and len(venues) == 1:
        venue = venues.pop()
        years = sorted({int(m.group("year")) for m in matches if m})
        consecutive = years == list(range(years[0], years[-1] + 1))
        span = f"{years[0]}–{years[-1]}" if consecutive else ", ".join(str(y) for y in years)
        joined = f"{venue} {span}".strip()
        if len(joined) <= MAX_NAME:
            return joined
    joined = " + ".join(names)
    return joined if len(joined) <= MAX_NAME else f"{len(names)} collections"
