"""The tune / held-out split shared by the benchmarks and the training scripts."""

from __future__ import annotations

import hashlib


def part_of(paper_id: str) -> str:
    """Return 'held-out' for one paper in five (by a hash of its id), else 'tune'."""
    return "held-out" if hashlib.sha256(paper_id.encode()).digest()[0] % 5 == 0 else "tune"


#: Venue-years of ../shared/corpora/fields.jsonl.gz held out whole (issue 44, chosen before any training):
#: one per field, never read to build or tune the field vocabulary and models.
HELD_OUT_VENUES = frozenset({"ACL 2022", "CVPR 2019", "IROS 2022", "ICML 2019", "COLT 2024", "AAAI 2022"})


def paper_key(record: dict) -> str:
    """Return a record's id, or for a record without one (CVPR 2019 of fields.jsonl.gz gives none) its title's hash."""
    return str(record.get("id") or "t-" + hashlib.sha256(str(record.get("title", "")).encode()).hexdigest()[:16])


def field_part_of(record: dict) -> str:
    """Return 'held-out' for a paper of a held-out venue-year or of the hash's held-out fifth, else 'tune'."""
    return "held-out" if record.get("venue") in HELD_OUT_VENUES else part_of(paper_key(record))
