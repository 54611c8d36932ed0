"""The lean page of papers, topics and collections (overrides/lean.html, issue 43), as built."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from generator.build import build_site
from generator.pipeline import generate
from generator.settings import load_settings
from tests.conftest import DEFAULT_CORPUS, copy_project

pytestmark = pytest.mark.slow


def _paper_page(settings) -> str:
    records = json.loads((settings.site_path / "papers.json").read_text(encoding="utf-8"))
    return (settings.site_path / records[0]["url"] / "index.html").read_text(encoding="utf-8")


def test_a_paper_page_is_lighter_and_its_article_keeps_its_lines(default_site) -> None:
    page = _paper_page(default_site)
    about = (default_site.site_path / "about" / "index.html").read_text(encoding="utf-8")
    header = page[page.index("<header"):page.index("</header>")]
    assert "<svg" not in header and "<svg" in about[about.index("<header"):about.index("</header>")]
    assert 'data-md-type="toc"' not in page and 'data-md-type="toc"' in about
    assert "\n" not in page[:page.index("<article")]  # no whitespace between the chrome's elements
    cite = re.search(r'<code class="language-bibtex">(.*?)</code>', page, re.S)
    assert cite and "\n  title = {" in cite.group(1)  # the article is left as written
    assert "Made with" not in page and "Made with" in about
    assert len(page.encode()) < 0.75 * len(about.encode()) + 6000


def test_a_projects_repository_link_sticky_tabs_and_nav_sections_are_kept(tmp_path) -> None:
    project = copy_project(tmp_path / "project")
    config = yaml.safe_load((project / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))
    features = [*config["theme"]["features"], "navigation.tabs.sticky"]
    nav = [{"Home": "index.md"}, {"Browse": ["all.md", "tags/index.md"]}, {"About": "about.md"}]
    (project / "mkdocs.yml").write_text(yaml.safe_dump({
        "repo_url": "https://example.org/digest", "theme": {"features": features}, "nav": nav,
    }), encoding="utf-8")
    settings = load_settings(project)
    build_site(settings, generate([DEFAULT_CORPUS], settings).engine)
    page = _paper_page(settings)
    header = page[page.index("<header"):page.index("</header>")]
    assert 'class="md-header__source"' in header and "md-header--lifted" in header
    assert 'class="md-tabs"' in header  # sticky tabs sit in the header
    # A nav with a section: Material's own drawer, every page of it written in the page.
    drawer = page[page.index('data-md-type="navigation"'):page.index('<div class="md-content"')]
    assert "data-pd-nav" not in drawer and "Browse" in drawer and 'href="../../all/"' in drawer
