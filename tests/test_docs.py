"""Documentation that cannot drift: every setting and command is in the README."""

from __future__ import annotations

import re
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


GUIDES = sorted([*(ROOT / "docs" / "guide").glob("*.md"), *(ROOT / "docs" / "contributing").glob("*.md")])
#: Top-level folders and files of the repository that a docs page may name.
_TREE = re.compile(r"`((?:\.github|\.ci|generator|bench|scripts|tests|docs|templates|overrides|site_src|data)/[\w./-]*)`")


def test_the_guides_name_only_paths_that_exist() -> None:
    from generator.project import SKELETON

    # A guide may also name a file that `paper-digest new` writes into a new project.
    new_project = set(SKELETON.values())
    assert GUIDES
    for guide in GUIDES:
        text = guide.read_text(encoding="utf-8")
        named = _TREE.findall(text) + re.findall(r"python ((?:bench|scripts)/\w+\.py)", text)
        missing = [path for path in named if not (ROOT / path.rstrip("/")).exists() and path not in new_project]
        assert not missing, (guide.name, missing)


def _code(text: str) -> list[str]:
    """Return the code of a Markdown page: its fenced blocks and its code spans."""
    fenced = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.M | re.S)
    return fenced + re.findall(r"`([^`\n]+)`", prose)


def test_the_guides_name_only_commands_and_options_that_exist() -> None:
    for guide in GUIDES:
        text = guide.read_text(encoding="utf-8")
        # A command is code (a code block or span): prose may say "paper-digest infers".
        for command, rest in re.findall(r"(?:^|[\s$])paper-digest (\w+)([^\n]*)", "\n".join(_code(text)), flags=re.M):
            assert command in main.commands, (guide.name, command)
            known = {opt for param in main.commands[command].params for opt in param.opts}
            unknown = [opt for opt in re.findall(r"(?<!\w)(--[\w-]+)", rest) if opt not in known]
            assert not unknown, (guide.name, command, unknown)


def test_the_guides_name_only_real_settings() -> None:
    import re

    names = {f.name for f in fields(Settings)}
    checked = 0
    # The user guide names settings; the contributor guide also names functions in the same shape.
    for guide in (g for g in GUIDES if g.parent.name == "guide"):
        text = guide.read_text(encoding="utf-8")
        # A setting is written as `name` followed by its default in a parenthesis, or named in a list of settings.
        for name in re.findall(r"\(`([a-z_]+)`[,)]|`([a-z]+_[a-z_]+)`, \d", text):
            named = next(n for n in name if n)
            assert named in names, f"{guide.name} names the setting {named}, which does not exist"
            checked += 1
    assert checked


def test_the_guides_name_only_commands_settings_and_pages_that_exist() -> None:
    import re

    settings = {f.name for f in fields(Settings)}
    for guide in GUIDES:
        text = guide.read_text(encoding="utf-8")
        for command in re.findall(r"`paper-digest (\w+)", text):
            assert command in main.commands, f"{guide.name} names `paper-digest {command}`, which is no command"
        for name in re.findall(r"^(\w+) = ", text, re.M):
            assert name in settings, f"{guide.name} sets `{name}`, which is no setting"
        for link in re.findall(r"\]\(([\w./-]+\.md)\)", text):
            assert (guide.parent / link).exists(), f"{guide.name} links to {link}, which is missing"


def test_every_setting_is_in_the_readme_or_a_guide() -> None:
    text = README + "".join(g.read_text(encoding="utf-8") for g in GUIDES)
    assert all(f"`{f.name}`" in text for f in fields(Settings) if f.name != "project_dir")
