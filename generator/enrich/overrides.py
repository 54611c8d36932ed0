"""User overrides for tags: extra topics, renamed or hidden tags, tags pinned to papers.

Read from `tag-overrides.yaml` in the project folder (or the file the
`overrides_file` setting names):

    topics:                 # added to the topic vocabulary
      - name: Protein Design
        phrases: [protein design, protein folding]
        acronyms: [PD]
    rename:                 # shown name -> new name (areas and topics)
      Benchmark Construction: New Benchmarks
    hide:                   # tags never shown
      - Other Topics in ML
    pin:                    # paper id -> tags it always carries
      e51094be68ab: [Offline RL, Protein Design]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from ..errors import DigestError
from ..model import Tag, TagKind
from .tags import Topic, tag_slug, topics_from_entries


@dataclass(frozen=True)
class Overrides:
    """The user's changes to the inferred tags."""

    topics: tuple[Topic, ...] = ()
    rename: dict[str, str] = field(default_factory=dict)
    hide: frozenset[str] = frozenset()
    pin: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def pins(self, paper_id: str, area_names: set[str]) -> list[Tag]:
        """Return the tags pinned to a paper (areas and topics): it always carries them."""
        result = []
        for name in self.pin.get(paper_id, ()):
            kind: TagKind = "area" if name in area_names else "topic"
            result.append(Tag(name, tag_slug(name), kind, 1.0, ("pinned in the overrides file",)))
        return result

    def apply(self, paper_id: str, tags: list[Tag], area_names: set[str]) -> list[Tag]:
        """Return a paper's tags with pins added, hidden tags removed and names changed."""
        present = {tag.slug for tag in tags}
        for pin in self.pins(paper_id, area_names):
            if pin.slug not in present:
                tags = [*tags, pin]
                present.add(pin.slug)
        result = []
        for tag in tags:
            if tag.name in self.hide or tag.slug in self.hide:
                continue
            new_name = self.rename.get(tag.name)
            result.append(replace(tag, name=new_name, slug=tag_slug(new_name)) if new_name else tag)
        return result


def load_overrides(path: Path | None) -> Overrides:
    """Load the overrides file; no file means no overrides."""
    if path is None or not path.exists():
        return Overrides()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise DigestError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise DigestError(f"{path}: expected a mapping with topics, rename, hide or pin")
    unknown = set(data) - {"topics", "rename", "hide", "pin"}
    if unknown:
        raise DigestError(f"{path}: unknown section {sorted(unknown)[0]!r} (use topics, rename, hide, pin)")
    topics = topics_from_entries(data.get("topics") or [], str(path))
    rename = data.get("rename") or {}
    hide = data.get("hide") or []
    pin = data.get("pin") or {}
    if not isinstance(rename, dict) or not isinstance(hide, list) or not isinstance(pin, dict):
        raise DigestError(f"{path}: rename and pin are mappings, hide is a list")
    return Overrides(
        topics=topics,
        rename={str(k): str(v) for k, v in rename.items()},
        hide=frozenset(str(h) for h in hide),
        pin={str(k): tuple(str(t) for t in (v if isinstance(v, list) else [v])) for k, v in pin.items()},
    )
