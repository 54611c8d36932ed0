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
    titles:                 # paper id -> the title shown instead of the inferred one
      e51094be68ab: "GRACE: Generative Representation Learning via Contrastive Policy Optimization"
    summaries:              # paper id -> the one-line summary shown instead of the first sentence
      e51094be68ab: "A contrastive objective for policy optimization."
    join:                   # papers of a text digest that go on from the abstract before them
      - 9a8b7c6d5e4f
    split:                  # paper id -> its paragraphs (2, 3 ...) that start an abstract of their own
      3fa2b1c4d5e6: [2]

Papers are named by their stable id (the "Paper id" line of each paper page),
which survives edits of the abstract. A correction whose id the digest no
longer has is reported with its file and line (`Overrides.unknown`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from ..errors import DigestError
from ..model import Problem, Tag, TagKind
from .tags import Topic, tag_slug, topics_from_entries


@dataclass(frozen=True)
class Overrides:
    """The user's changes to the inferred tags."""

    topics: tuple[Topic, ...] = ()
    rename: dict[str, str] = field(default_factory=dict)
    hide: frozenset[str] = frozenset()
    pin: dict[str, tuple[str, ...]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    summaries: dict[str, str] = field(default_factory=dict)
    join: tuple[str, ...] = ()
    split: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: The file, and the line of each paper id it names: (section, id) -> line.
    file: str = ""
    lines: dict[tuple[str, str], int] = field(default_factory=dict)

    def unknown(self, ids: set[str]) -> list[Problem]:
        """Return a warning, naming the file and line, for each correction or pin of an id not in `ids`."""
        named = [("pin", k) for k in self.pin] + [("titles", k) for k in self.titles]
        named += [("summaries", k) for k in self.summaries] + [("join", k) for k in self.join]
        named += [("split", k) for k in self.split]
        # In the order a reader finds them in the file.
        named.sort(key=lambda named_id: self.lines.get(named_id, 0))
        return [
            Problem("warning", self.file, self.lines.get((section, paper_id)),
                    f"{section}: no paper has the id {paper_id} (removed, or mistyped?); this line does nothing")
            for section, paper_id in named if paper_id not in ids
        ]

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
    unknown = set(data) - set(SECTIONS)
    if unknown:
        raise DigestError(f"{path}: unknown section {sorted(unknown)[0]!r} (use {', '.join(SECTIONS)})")
    topics = topics_from_entries(data.get("topics") or [], str(path))
    rename = data.get("rename") or {}
    hide = data.get("hide") or []
    pin = data.get("pin") or {}
    if not isinstance(rename, dict) or not isinstance(hide, list) or not isinstance(pin, dict):
        raise DigestError(f"{path}: rename and pin are mappings, hide is a list")
    titles, summaries = data.get("titles") or {}, data.get("summaries") or {}
    join, split = data.get("join") or [], data.get("split") or {}
    lines = _id_lines(path)
    for section, value, kind in (("titles", titles, dict), ("summaries", summaries, dict), ("join", join, list),
                                 ("split", split, dict)):
        if not isinstance(value, kind):
            line = lines.get((section, ""), 1)
            raise DigestError(f"{path}:{line}: {section} is a {'list of paper ids' if kind is list else 'mapping'}")
    for section, mapping in (("titles", titles), ("summaries", summaries)):
        for key, text in mapping.items():
            if not isinstance(text, str) or not text.strip():
                raise DigestError(f"{path}:{lines.get((section, str(key)), 1)}: {section}: the {section[:-1]} of "
                                  f"{key} should be text")
    return Overrides(
        topics=topics,
        rename={str(k): str(v) for k, v in rename.items()},
        hide=frozenset(str(h) for h in hide),
        pin={_id(k): tuple(str(t) for t in (v if isinstance(v, list) else [v])) for k, v in pin.items()},
        titles={_id(k): " ".join(str(v).split()) for k, v in titles.items()},
        summaries={_id(k): " ".join(str(v).split()) for k, v in summaries.items()},
        join=tuple(_id(k) for k in join),
        split={_id(k): _positions(v, path, lines.get(("split", _id(k)), 1)) for k, v in split.items()},
        file=str(path),
        lines=lines,
    )


def _id(key: object) -> str:
    """Return a paper id as written: YAML reads an unquoted id of twelve digits as a number."""
    return f"{key:012d}" if isinstance(key, int) and not isinstance(key, bool) else str(key)


#: The sections the overrides file may have.
SECTIONS = ("topics", "rename", "hide", "pin", "titles", "summaries", "join", "split")


def _positions(value: object, path: Path, line: int) -> tuple[int, ...]:
    """Return a split's paragraph positions (2 or more), or raise an error naming the line."""
    found = value if isinstance(value, list) else [value]
    if not found or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 2 for v in found):
        raise DigestError(f"{path}:{line}: split: give the paragraphs (2, 3 ...) that start a paper of their "
                          f"own, e.g. `3fa2b1c4d5e6: [2]`")
    return tuple(sorted(set(found)))


def _id_lines(path: Path) -> dict[tuple[str, str], int]:
    """Return the line of each paper id the file names, by (section, id); (section, "") is the section's line."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        return {}
    lines: dict[tuple[str, str], int] = {}
    if not isinstance(root, yaml.MappingNode):
        return lines
    for key, value in root.value:
        section = str(key.value)
        lines[(section, "")] = key.start_mark.line + 1
        if isinstance(value, yaml.MappingNode):
            for inner, _ in value.value:
                lines[(section, str(inner.value))] = inner.start_mark.line + 1
        elif isinstance(value, yaml.SequenceNode):
            for item in value.value:
                if isinstance(item, yaml.ScalarNode):
                    lines[(section, str(item.value))] = item.start_mark.line + 1
    return lines
