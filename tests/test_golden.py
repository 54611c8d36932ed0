"""Golden-file tests: the Markdown rendered from a small fixture corpus.

To accept a deliberate change to the output, regenerate the goldens and review
the diff:

    PAPER_DIGEST_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
    git diff tests/golden/
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.enrich import enrich_digest
from generator.identity import Lock, identify
from generator.read import read_sources
from generator.render import render_pages
from generator.settings import load_settings
from tests.conftest import FIXTURES

GOLDEN = Path(__file__).resolve().parent / "golden"


def render_fixture(project: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    # Sources are named relative to the working folder, as a user would type them.
    monkeypatch.chdir(FIXTURES.parent)
    settings = load_settings(project)
    result = read_sources([Path("fixtures") / "small"], settings)
    # Ids as a first build gives them (no lock yet): a record's own id names its paper.
    papers, layout = enrich_digest(identify(result.papers, Lock()).papers, settings)
    return render_pages(papers, layout, settings)


def test_rendered_markdown_matches_goldens(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = render_fixture(project, monkeypatch)
    if os.environ.get("PAPER_DIGEST_UPDATE_GOLDEN"):
        shutil.rmtree(GOLDEN, ignore_errors=True)
        for rel, data in files.items():
            path = GOLDEN / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    expected = {p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*") if p.is_file()}
    assert set(files) == expected, "generated file set changed; see the module docstring to regenerate"
    for rel, data in sorted(files.items()):
        assert data == (GOLDEN / rel).read_bytes(), f"{rel} differs from tests/golden/{rel}"


def test_rendering_twice_gives_identical_bytes(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert render_fixture(project, monkeypatch) == render_fixture(project, monkeypatch)


def test_every_generated_file_is_ignored_by_git(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    from tests.conftest import ROOT

    # Generated pages must never be committed: a fresh clone would find them "hand-written".
    paths = [f"site_src/{rel}" for rel in render_fixture(project, monkeypatch)] + ["site_src/.paper-digest-manifest.json"]
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", "--verbose", "--non-matching", *paths],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    not_ignored = [line.split("\t")[-1] for line in result.stdout.splitlines() if line.startswith("::")]
    assert not_ignored == []
