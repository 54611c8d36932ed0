"""The project: its site name, the MkDocs configuration it runs on, and what it takes from the package."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.pipeline import generate
from generator.project import defaults_dir, engine_config, read_config
from generator.render.naming import digest_name
from generator.settings import load_settings
from tests.conftest import write_tree
from tests.test_identity import A, B


@pytest.mark.parametrize(("collections", "name"), [
    (["ICLR 2026"], "ICLR 2026"),
    (["ICLR 2024", "ICLR 2025", "ICLR 2026"], "ICLR 2024–2026"),
    (["ICLR 2024", "ICLR 2026"], "ICLR 2024, 2026"),
    (["NeurIPS 2023", "ICLR 2024"], "ICLR 2024 + NeurIPS 2023"),
    # Never "3 collections": as many names as fit, then "…".
    ([f"Journal of Very Long Names in Research Number {n} 2020" for n in range(3)],
     "Journal of Very Long Names in Research Number 0 2020 + …"),
    (["IJCAI 2024", "NeurIPS 2018", "ICLR 2018", "IJCAI 2022", "IJCAI 2023", "IJCAI 2020", "ICLR 2017", "WWW 2025",
      "AISTATS 2025", "ALT 2025"], "AISTATS 2025 + ALT 2025 + ICLR 2017–2018 + …"),
    (["A collection whose single name is far longer than sixty characters in all"],
     "A collection whose single name is far longer than sixty…"),
])
def test_the_default_site_name_is_short(collections: list[str], name: str) -> None:
    assert digest_name(collections) == name
    assert len(digest_name(collections)) < 60


def generate_bare(tmp_path: Path, files: dict[str, str]) -> Path:
    from generator.pipeline import generate

    project = write_tree(tmp_path / "p", {"paper-digest.toml": "", **files})
    generate([], load_settings(project))
    return project


def test_site_name_and_description_settings_reach_mkdocs_and_the_home_page(tmp_path: Path) -> None:
    project = generate_bare(tmp_path, {
        "paper-digest.toml": 'site_name = "My Reading List"\nsite_description = "Papers I read."\n',
        "data/a.txt": f"ICLR 2026\n\n{A}\n\n{B}\n",
    })
    config = read_config(engine_config(load_settings(project)))
    assert config["site_name"] == "My Reading List" and config["site_description"] == "Papers I read."
    home = (project / "site_src" / "index.md").read_text(encoding="utf-8")
    assert "# My Reading List" in home and 'description: "Papers I read."' in home


def test_a_collection_name_is_text_in_the_site_name(tmp_path: Path) -> None:
    record = {"title": "T", "abstract": A, "venue": "<img src=x onerror=alert(1)>", "year": 2024}
    project = generate_bare(tmp_path, {"data/a.jsonl": json.dumps(record) + "\n"})
    name = read_config(engine_config(load_settings(project)))["site_name"]
    assert "<" not in name and name == "&lt;img src=x onerror=alert(1)&gt; 2024"


def test_the_project_mkdocs_yml_is_inherited_and_filled_in_key_by_key(tmp_path: Path) -> None:
    project = generate_bare(tmp_path, {
        "mkdocs.yml": "theme:\n  palette:\n    primary: teal\nextra:\n  mine: 1\n",
        "overrides/partials/footer.html": "<footer>mine</footer>",
        "data/a.txt": f"{A}\n\n{B}\n",
    })
    config = read_config(engine_config(load_settings(project)))
    # Paths relative to the project: the same file (and build fingerprint) in every checkout.
    assert config["INHERIT"] == "mkdocs.yml" and config["docs_dir"] == "site_src" and config["site_dir"] == "site"
    default = read_config(defaults_dir() / "mkdocs.yml")
    # The theme's name and features come from the package; the palette the project set is left to it.
    assert config["theme"]["name"] == "material" and "palette" not in config["theme"]
    assert config["theme"]["features"] == default["theme"]["features"]
    assert config["nav"] == default["nav"] and "mine" not in config["extra"]
    theme = project / config["theme"]["custom_dir"]
    assert (theme / "partials" / "footer.html").read_text() == "<footer>mine</footer>"
    assert (theme / "partials" / "search.html").exists() and (theme / "assets" / "digest.css").exists()


def test_an_edited_theme_override_reaches_the_theme_with_the_sources_unchanged(tmp_path: Path) -> None:
    project = generate_bare(tmp_path, {
        "overrides/partials/footer.html": "<footer>first</footer>",
        "data/a.txt": f"{A}\n\n{B}\n",
    })
    settings = load_settings(project)
    theme = project / read_config(engine_config(settings))["theme"]["custom_dir"]
    (project / "overrides" / "partials" / "footer.html").write_text("<footer>second</footer>")
    (project / "overrides" / "partials" / "extra.html").write_text("<p>new</p>")
    report = generate([], settings)
    # The run reused its pages (nothing to read again) and still laid the edited theme.
    assert report.reused
    assert (theme / "partials" / "footer.html").read_text() == "<footer>second</footer>"
    assert (theme / "partials" / "extra.html").read_text() == "<p>new</p>"
    (project / "overrides" / "partials" / "extra.html").unlink()
    generate([], settings)
    assert not (theme / "partials" / "extra.html").exists()


def test_a_project_template_replaces_only_its_page(tmp_path: Path) -> None:
    project = generate_bare(tmp_path, {
        "templates/about.md.j2": "# About us\n\nOur own words.\n",
        "data/a.txt": f"{A}\n\n{B}\n",
    })
    assert (project / "site_src" / "about.md").read_text(encoding="utf-8") == "# About us\n\nOur own words.\n"
    assert "paper" in (project / "site_src" / "index.md").read_text(encoding="utf-8")


def test_new_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli import main

    write_tree(tmp_path / "full", {"notes.txt": "mine"})
    result = CliRunner().invoke(main, ["new", str(tmp_path / "full")])
    assert result.exit_code == 1 and "not an empty folder" in result.output
    assert (tmp_path / "full" / "notes.txt").read_text() == "mine"


def test_new_names_only_commands_that_exist_and_a_way_to_open_the_site_that_works(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli import main

    result = CliRunner().invoke(main, ["new", str(tmp_path / "digest")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    written = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "digest").rglob("*") if p.is_file())
    named = set(re.findall(r"paper-digest ([a-z]+)\b", written + result.output)) - {"fills"}
    assert named and named <= set(main.commands), named - set(main.commands)
    # The built site has folder addresses (papers/x/): opened as a file it shows folder listings.
    assert "open site/index.html" not in result.output and "paper-digest serve" in result.output


def _install_check(project: Path) -> subprocess.CompletedProcess:
    """Run the new project's deploy workflow's install step up to `pip install` (the check of requirements.txt)."""
    steps = yaml.safe_load((project / ".github" / "workflows" / "deploy.yml").read_text())["jobs"]["build"]["steps"]
    script = next(step["run"] for step in steps if step.get("name") == "Install paper-digest")
    check = script.split("python -m pip install", 1)[0]
    return subprocess.run(["bash", "-c", check], cwd=project, capture_output=True, text=True, check=False)


def test_a_new_projects_ci_installs_paper_digest_from_where_this_copy_came(tmp_path: Path, monkeypatch) -> None:
    import generator.project as project_module

    # Installed from git: the workflows install the same commit ("paper-digest" on PyPI is another project).
    monkeypatch.setattr(project_module, "install_requirement",
                        lambda: "paper-digest @ git+https://github.com/me/paper-digest@0123abc")
    project = tmp_path / "from-git"
    assert "requirements.txt" in project_module.new_project(project)
    lines = [line for line in (project / "requirements.txt").read_text().splitlines() if not line.startswith("#")]
    assert lines == ["paper-digest @ git+https://github.com/me/paper-digest@0123abc"]
    assert _install_check(project).returncode == 0
    # From a local copy: nothing to install from, and CI says so, naming the file, instead of installing PyPI's.
    monkeypatch.setattr(project_module, "install_requirement", lambda: "")
    project = tmp_path / "local"
    project_module.new_project(project)
    assert all(line.startswith("#") for line in (project / "requirements.txt").read_text().splitlines())
    result = _install_check(project)
    assert result.returncode == 1 and "requirements.txt names nothing to install" in result.stdout


@pytest.mark.parametrize(("direct_url", "requirement"), [
    ({"url": "https://github.com/me/pd", "vcs_info": {"vcs": "git", "commit_id": "0123abc"}},
     "paper-digest @ git+https://github.com/me/pd@0123abc"),
    ({"url": "https://example.org/paper_digest-1.0-py3-none-any.whl", "archive_info": {}},
     "paper-digest @ https://example.org/paper_digest-1.0-py3-none-any.whl"),
    ({"url": "file:///home/me/paper-digest", "dir_info": {"editable": True}}, ""),
    (None, ""),
])
def test_the_install_requirement_comes_from_pips_record_of_the_source(
    monkeypatch, direct_url: dict | None, requirement: str
) -> None:
    import importlib.metadata

    from generator.project import install_requirement

    class Installed:
        def read_text(self, name: str) -> str | None:
            return json.dumps(direct_url) if direct_url is not None and name == "direct_url.json" else None

    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: Installed())
    assert install_requirement() == requirement


def test_new_writes_the_infer_workflow_only_when_asked(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli import main

    plain = CliRunner().invoke(main, ["new", str(tmp_path / "plain")], catch_exceptions=False)
    assert plain.exit_code == 0 and not (tmp_path / "plain" / ".github" / "workflows" / "infer.yml").exists()
    asked = CliRunner().invoke(main, ["new", str(tmp_path / "asked"), "--infer-workflow"], catch_exceptions=False)
    assert asked.exit_code == 0, asked.output
    workflow = tmp_path / "asked" / ".github" / "workflows" / "infer.yml"
    assert "paper-digest infer" in workflow.read_text(encoding="utf-8")
    assert ".github/workflows/infer.yml" in asked.output
    # The settings it needs are in the new project's settings file, commented out (off by default).
    settings = (tmp_path / "asked" / "paper-digest.toml").read_text(encoding="utf-8")
    assert '# llm_api_key_env = "LLM_API_KEY"' in settings
