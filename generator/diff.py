"""Compare two digests' papers.json and report what changed, as Markdown.

Used by `paper-digest diff OLD NEW` and the pull-request workflow, so a
reviewer sees what a change does to the site without building it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .errors import DigestError
from .model import PATHS
from .render.digest_exports import read_export, written_export
from .text import escape_line

#: Rows listed per section before the rest is summarised.
MAX_ROWS = 50


@dataclass(frozen=True)
class PaperChange:
    """A paper present in both digests whose title or tags changed."""

    id: str
    old_title: str
    new_title: str
    tags_added: tuple[str, ...]
    tags_removed: tuple[str, ...]


@dataclass
class DigestDiff:
    """Everything that differs between two digests."""

    old_count: int
    new_count: int
    added: list[dict] = field(default_factory=list)
    removed: list[dict] = field(default_factory=list)
    changed: list[PaperChange] = field(default_factory=list)
    tags_appeared: list[tuple[str, int]] = field(default_factory=list)
    tags_vanished: list[tuple[str, int]] = field(default_factory=list)
    tags_resized: list[tuple[str, int, int]] = field(default_factory=list)
    old_tag_count: int = 0
    new_tag_count: int = 0

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.tags_appeared or self.tags_vanished
                    or self.tags_resized)


def load_papers(path: Path) -> list[dict]:
    """Load papers.json from a file (papers.json or papers.json.gz), a built site or a docs dir."""
    # A large digest's is gzipped only: papers.json.gz.
    folders = (path, path / "site")
    candidates = [path] if path.is_file() else [written_export(folder, PATHS.papers_json) for folder in folders]
    for candidate in candidates:
        if candidate is not None:
            try:
                data = json.loads(read_export(candidate))
            except (OSError, EOFError, ValueError, UnicodeDecodeError) as exc:
                raise DigestError(f"{candidate}: not a valid papers.json: {exc}") from exc
            if not isinstance(data, list) or not all(isinstance(r, dict) and "id" in r for r in data):
                raise DigestError(f"{candidate}: expected a list of papers with an `id` each")
            return data
    raise DigestError(f"{path}: no papers.json here")


def _tag_names(record: dict) -> set[str]:
    return {tag["name"] for tag in record.get("tags", [])}


def diff_papers(old: list[dict], new: list[dict]) -> DigestDiff:
    """Compare two lists of papers.json records."""
    old_by_id = {r["id"]: r for r in old}
    new_by_id = {r["id"]: r for r in new}
    result = DigestDiff(len(old), len(new))
    result.added = sorted((new_by_id[i] for i in new_by_id.keys() - old_by_id.keys()), key=lambda r: r["title"])
    result.removed = sorted((old_by_id[i] for i in old_by_id.keys() - new_by_id.keys()), key=lambda r: r["title"])
    for pid in sorted(old_by_id.keys() & new_by_id.keys()):
        before, after = old_by_id[pid], new_by_id[pid]
        old_tags, new_tags = _tag_names(before), _tag_names(after)
        if before["title"] != after["title"] or old_tags != new_tags:
            result.changed.append(
                PaperChange(pid, before["title"], after["title"], tuple(sorted(new_tags - old_tags)),
                            tuple(sorted(old_tags - new_tags)))
            )
    result.changed.sort(key=lambda c: c.new_title)
    old_sizes = Counter(name for r in old for name in _tag_names(r))
    new_sizes = Counter(name for r in new for name in _tag_names(r))
    result.old_tag_count, result.new_tag_count = len(old_sizes), len(new_sizes)
    result.tags_appeared = sorted((n, new_sizes[n]) for n in new_sizes.keys() - old_sizes.keys())
    result.tags_vanished = sorted((n, old_sizes[n]) for n in old_sizes.keys() - new_sizes.keys())
    result.tags_resized = sorted(
        (n, old_sizes[n], new_sizes[n]) for n in old_sizes.keys() & new_sizes.keys() if old_sizes[n] != new_sizes[n]
    )
    return result


def _rows(items: list, render, header: str) -> list[str]:
    lines = [header]
    lines += [render(item) for item in items[:MAX_ROWS]]
    if len(items) > MAX_ROWS:
        lines.append(f"| … and {len(items) - MAX_ROWS} more | |")
    return [*lines, ""]


def to_markdown(change: DigestDiff) -> str:
    """Render a diff as a Markdown change report (titles escaped: they come from input)."""
    def delta(a: int, b: int) -> str:
        return f"{a} → {b} ({b - a:+d})"

    lines = [
        "## Digest change report",
        "",
        "| | before → after |",
        "| --- | --- |",
        f"| Papers | {delta(change.old_count, change.new_count)} |",
        f"| Tags | {delta(change.old_tag_count, change.new_tag_count)} |",
        f"| Added / removed / changed papers | {len(change.added)} / {len(change.removed)} / {len(change.changed)} |",
        "",
    ]
    if change.empty:
        return "\n".join([*lines, "No paper or tag changed.", ""])
    listed = [
        ("Papers added", change.added, "| Title | Tags |\n| --- | --- |",
         lambda r: f"| {escape_line(r['title'])} | {', '.join(escape_line(t) for t in sorted(_tag_names(r)))} |"),
        ("Papers removed", change.removed, "| Title | Collection |\n| --- | --- |",
         lambda r: f"| {escape_line(r['title'])} | {escape_line(r.get('collection', ''))} |"),
    ]
    for heading, records, header, row in listed:
        if records:
            lines += [f"### {heading} ({len(records)})", ""]
            lines += _rows(records, row, header)
    if change.changed:
        lines += [f"### Papers changed ({len(change.changed)})", ""]

        def render(c: PaperChange) -> str:
            title = escape_line(c.new_title)
            if c.old_title != c.new_title:
                title = f"{escape_line(c.old_title)} → {title}"
            added = [f"+{escape_line(t)}" for t in c.tags_added]
            tags = " ".join([*added, *(f"−{escape_line(t)}" for t in c.tags_removed)])
            return f"| {title} | {tags} |"

        lines += _rows(change.changed, render, "| Title | Tags |\n| --- | --- |")
    if change.tags_appeared or change.tags_vanished or change.tags_resized:
        lines += ["### Tags", ""]
        tag_rows = (
            [(n, f"new ({c})") for n, c in change.tags_appeared]
            + [(n, f"vanished (had {c})") for n, c in change.tags_vanished]
            + [(n, delta(a, b)) for n, a, b in change.tags_resized]
        )
        lines += _rows(tag_rows, lambda row: f"| {escape_line(row[0])} | {row[1]} |", "| Tag | Papers |\n| --- | --- |")
    return "\n".join(lines)
