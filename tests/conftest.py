"""Shared fixtures: a throwaway project folder, small factories, the default corpus."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from generator.model import Paper, Source
from generator.read import paper_id
from generator.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT / "data" / "iclr2026"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def make_paper(abstract: str = "We introduce FOO, a method for testing things. FOO works.", **overrides) -> Paper:
    """Return a Paper as the reader would make it, with any field overridden."""
    paper = Paper(
        id=paper_id(abstract),
        abstract=abstract,
        collection="Test 2026",
        source=Source("test.txt", 1, 1),
    )
    return replace(paper, **overrides)


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write a folder of files (text or bytes) under `root`; return `root`."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def render_digest(project: Path, sources: list[Path], **changes: object) -> dict[str, bytes]:
    """Read, enrich and render `sources` with the project's settings (any changed); return every generated file."""
    from generator.enrich import enrich_digest
    from generator.read import read_sources
    from generator.render import render_pages

    settings = load_settings(project, **changes)  # the changes are checked like any setting
    papers, layout = enrich_digest(read_sources(sources, settings).papers, settings)
    return dict(render_pages(papers, layout, settings))


def copy_project(target: Path) -> Path:
    """Copy the project's site skeleton (config, templates, hand-written pages) to `target`."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    shutil.copytree(ROOT / "templates", target / "templates")
    shutil.copytree(ROOT / "overrides", target / "overrides")
    docs = target / "site_src"
    docs.mkdir()
    shutil.copytree(ROOT / "site_src" / "assets", docs / "assets")
    return target


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--chromium", default=None, metavar="PATH",
        help="the Chromium the browser tests drive (default: PAPER_DIGEST_CHROMIUM, then chromium, "
        "chromium-browser, google-chrome on PATH, then playwright's own browser)",
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A fresh project folder with the site skeleton and no generated pages."""
    return copy_project(tmp_path / "project")


@pytest.fixture
def settings(project: Path) -> Settings:
    return load_settings(project)


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Return every file under `folder` with its modification time and content."""
    return {
        p.relative_to(folder).as_posix(): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="session")
def default_site(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """The default corpus generated and built once for the whole session."""
    from generator.build import build_site
    from generator.pipeline import generate

    project = copy_project(tmp_path_factory.mktemp("default-site") / "project")
    settings = load_settings(project)
    report = generate([DEFAULT_CORPUS], settings)
    build_site(settings, report.engine)
    return settings


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory):
    """The hostile corpus generated and built once: (settings, report, papers.json records)."""
    import json

    from generator.build import build_site
    from generator.pipeline import generate
    from tests.hostile_cases import hostile_digest, hostile_records

    project = copy_project(tmp_path_factory.mktemp("hostile") / "project")
    (project / "in").mkdir()
    (project / "in" / "hostile.txt").write_text(hostile_digest(), encoding="utf-8")
    # Records whose given fields (title, authors, keywords, area, link, id, venue) attack too.
    (project / "in" / "fields.jsonl").write_text(
        "".join(json.dumps(record) + "\n" for record in hostile_records()), encoding="utf-8"
    )
    # One page per case: a case that starts like a list item would otherwise join the case before it
    # (tests/test_paragraphs.py shows a joined paragraph is escaped exactly as an abstract of its own).
    # The 1 MB abstract is past the bounds a digest is held to: allowed here, to show it renders inert.
    settings = replace(load_settings(project), join_paragraphs=False, max_abstract_chars=2_000_000,
                       max_abstract_sentences=100_000)
    report = generate([project / "in"], settings)
    build_site(settings, report.engine)  # strict: any MkDocs warning fails here
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    return settings, report, records
