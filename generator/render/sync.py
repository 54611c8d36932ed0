"""The render stage's file I/O: write changed files into the docs dir, delete what no longer belongs.

Every generated file is listed in a manifest inside the docs dir, so a later
run can delete what no longer belongs without touching hand-written files. A
file is rewritten only when its content changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DigestError
from ..stamps import files_digest

MANIFEST = ".paper-digest-manifest.json"


@dataclass
class RenderResult:
    """What rendering did to the docs dir."""

    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0

    @property
    def total(self) -> int:
        return len(self.written) + self.unchanged


def _sync_file(path: Path, data: bytes) -> bool:
    """Write `data` to `path` unless it already holds exactly that; return True when written."""
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.write_bytes(data)
    return True


def write_files(files: dict[str, bytes], docs_dir: Path) -> RenderResult:
    """Write generated files that changed; delete generated files no longer produced."""
    result = RenderResult()
    manifest_path = docs_dir / MANIFEST
    previous = _read_manifest(manifest_path)
    for rel in sorted(files):
        path = docs_dir / rel
        if rel not in previous and path.exists():
            raise DigestError(
                f"{path}: a hand-written file is in the way of a generated page; move it or rename it"
            )
    ordered = sorted(files)
    for folder in sorted({(docs_dir / rel).parent for rel in ordered}):
        folder.mkdir(parents=True, exist_ok=True)
    for rel in ordered:
        if _sync_file(docs_dir / rel, files[rel]):
            result.written.append(rel)
        else:
            result.unchanged += 1
    for rel in sorted(set(previous) - set(files)):
        path = docs_dir / rel
        if path.is_file():
            path.unlink()
            result.deleted.append(rel)
            _remove_empty_parents(path.parent, docs_dir)
    manifest = json.dumps(sorted(files), indent=0) + "\n"
    if not manifest_path.exists() or manifest_path.read_text(encoding="utf-8") != manifest:
        manifest_path.write_text(manifest, encoding="utf-8")
    return result


def generated_fingerprint(docs_dir: Path) -> str:
    """Return a hash of the generated files as they are on disk (names, sizes, times).

    It changes when a generated page is edited, deleted or rewritten by hand.
    """
    manifest = docs_dir / MANIFEST
    return files_digest([manifest, *(docs_dir / rel for rel in sorted(_read_manifest(manifest)))], root=docs_dir)


def _read_manifest(path: Path) -> set[str]:
    if not path.exists():
        return set()
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DigestError(f"{path}: the generator's manifest is damaged; delete it and build again") from exc
    # Only relative paths inside the docs dir: a tampered manifest cannot reach outside.
    return {e for e in entries if isinstance(e, str) and not e.startswith("/") and ".." not in e.split("/")}


def _remove_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
