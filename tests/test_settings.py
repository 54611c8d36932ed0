"""Bad settings are rejected before any work starts, in one line naming the file and the setting."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import SettingsError
from generator.settings import load_settings
from tests.conftest import write_tree

ABSTRACT = "We introduce GRACE, a framework for contrastive policy optimization in offline RL."

#: (paper-digest.toml text, the setting it gets wrong, words the message must hold)
BAD_SETTINGS = [
    ('min_topic_papers = "three"', "min_topic_papers", ["a whole number", "'three'"]),
    ('input_format = "xml"', "input_format", ["one of auto, text, jsonl", "'xml'"]),
    ('search = "elastic"', "search", ["one of auto, material, pagefind", "'elastic'"]),
    ('default_sources = "data"', "default_sources", ["a list of strings", "'data'"]),
    ("second_area_ratio = 2.5", "second_area_ratio", ["between 0 and 1", "2.5"]),
    ("max_topic_share = 0.2", "max_topic_share", ["no longer a setting", "no topic is capped"]),
    ("workers = -1", "workers", ["at least 0", "-1"]),
    ("strict = 1", "strict", ["true or false", "1"]),
    ("related_count = true", "related_count", ["a whole number", "True"]),
    ('colour = "blue"', "colour", ["unknown setting"]),
    ('topics_file = "missing-topics.yaml"', "topics_file", ["no such file", "missing-topics.yaml"]),
]

COMMANDS = ["build", "generate", "check", "serve"]


def bad_project(tmp_path: Path, toml: str) -> tuple[Path, Path]:
    """Return a project folder with `toml` as its settings file, and a source that would build."""
    project = write_tree(tmp_path / "project", {"paper-digest.toml": toml + "\n", "templates/.keep": ""})
    source = write_tree(tmp_path / "in", {"a.txt": ABSTRACT})
    return project, source


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("toml", "setting", "words"), BAD_SETTINGS, ids=[b[1] for b in BAD_SETTINGS])
def test_a_bad_setting_stops_every_command_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, toml: str, setting: str, words: list[str]
) -> None:
    project, source = bad_project(tmp_path, toml)
    # Nothing may be read before the settings are checked.
    read = []
    monkeypatch.setattr("generator.cli.read_sources", lambda *a, **k: read.append(a))
    monkeypatch.setattr("generator.pipeline.read_sources", lambda *a, **k: read.append(a))
    result = CliRunner().invoke(main, [command, str(source), "--project", str(project)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ") and "paper-digest.toml" in lines[0] and f"`{setting}`" in lines[0]
    for word in words:
        assert word in lines[0]
    assert "Traceback" not in result.output
    assert read == []
    assert not (project / "site_src").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_settings_file_that_is_not_toml_names_its_line(tmp_path: Path, command: str) -> None:
    project, source = bad_project(tmp_path, "min_topic_papers = = 3")
    result = CliRunner().invoke(main, [command, str(source), "--project", str(project)])
    assert result.exit_code == 1
    assert "paper-digest.toml: not a valid TOML file" in result.output and "line 1" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_a_broken_overrides_file_stops_before_reading(tmp_path: Path, command: str) -> None:
    project, source = bad_project(tmp_path, "")
    (project / "tag-overrides.yaml").write_text("colour: [red]\n", encoding="utf-8")
    result = CliRunner().invoke(main, [command, str(source), "--project", str(project)])
    assert result.exit_code == 1
    assert "tag-overrides.yaml: unknown section 'colour'" in result.output
    assert not (project / "site_src").exists()


def test_a_broken_topic_vocabulary_names_its_file(tmp_path: Path) -> None:
    project, source = bad_project(tmp_path, 'topics_file = "topics.yaml"')
    (project / "topics.yaml").write_text("- name: Robots\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["generate", str(source), "--project", str(project)])
    assert result.exit_code == 1
    assert "topics.yaml" in result.output and "needs `phrases` or `acronyms`" in result.output


def test_good_values_are_taken_as_their_type(tmp_path: Path) -> None:
    write_tree(tmp_path, {"paper-digest.toml": 'second_area_ratio = 1\ndefault_sources = ["a", "b"]\nsearch = "pagefind"\n'})
    settings = load_settings(tmp_path)
    assert settings.second_area_ratio == 1.0 and isinstance(settings.second_area_ratio, float)
    assert settings.default_sources == ("a", "b")
    assert settings.search == "pagefind"


def test_a_bad_value_from_the_command_line_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="setting `workers`: expected a whole number"):
        load_settings(tmp_path, workers="two")
