"""Years and dates found in text: one definition for the readers, exports, feeds and trends."""

from __future__ import annotations

import re

#: A year of this or the last century, not inside a longer number ("ICLR 2026", "2025-01-30").
YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: An ISO date whose month and day can be real ("2026-11-30"), not inside a longer number.
DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?!\d)")


def year_in(text: str) -> str:
    """Return the first year in `text`, or ''."""
    match = YEAR.search(text)
    return match.group(0) if match else ""


def date_in(text: str) -> str:
    """Return the first ISO date (YYYY-MM-DD) in `text`, or ''."""
    match = DATE.search(text)
    return "-".join(match.groups()) if match else ""


def leading_date(text: str) -> str:
    """Return the ISO date a date field starts with ("2025-01-30T18:00:00Z" -> "2025-01-30"), or ''."""
    match = DATE.match(text.strip())
    return "-".join(match.groups()) if match else ""
