"""Documentation that cannot drift: every setting and command is in the README."""

from __future__ import annotations

from dataclasses import fields

from generator.cli import main
from generator.settings import Settings
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_setting_is_documented() -> None:
    missing = [f.name for f in fields(Settings) if f.name != "project_dir" and f"`{f.name}`" not in README]
    assert not missing


def test_every_command_is_documented() -> None:
    missing = [name for name in main.commands if f"paper-digest {name}" not in README]
    assert not missing


def test_readme_test_command_is_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest" in ci and "`python -m pytest`" in README and "bash .ci/run" in README


def test_the_layout_section_matches_the_tree() -> None:
    import re

    section = README.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(generator/[\w/]+(?:\.py)?)`", section))
    assert named, "the layout section names no path"
    for path in named:
        assert (ROOT / path).exists(), f"the README names {path}, which is not in the tree"
    packages = {f"generator/{p.parent.relative_to(ROOT / 'generator').as_posix()}/"
                for p in (ROOT / "generator").glob("*/__init__.py")}
    assert packages <= {p if p.endswith("/") else p + "/" for p in named}, packages - named
