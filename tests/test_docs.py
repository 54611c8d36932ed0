"""Documentation that cannot drift: the README and the guide name only what exists, and say all of it."""

from __future__ import annotations

import json
import re
import shutil
import unicodedata
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.settings import Settings
from tests.conftest import ROOT

README = ROOT / "README.md"
GUIDE = sorted((ROOT / "docs").rglob("*.md"))
EXAMPLES = sorted((ROOT / "examples").glob("*/README.md"))
#: Every page of documentation: the front page, the guide and the examples' notes.
PAGES = [README, *GUIDE, *EXAMPLES]
#: The pages a user reads: none of them may lean on the development corpora beside the checkout.
USER_PAGES = [README, ROOT / "docs" / "index.md", *(ROOT / "docs" / "guide").glob("*.md"), *EXAMPLES]
CONFIGURATION = ROOT / "docs" / "guide" / "configuration.md"
FORMATS = ROOT / "docs" / "guide" / "formats.md"
ARCHITECTURE = ROOT / "docs" / "contributing" / "architecture.md"
SITE = ROOT / "docs" / "guide" / "site.md"

#: Top-level folders and files of the repository that a page may name.
_TREE = re.compile(
    r"`((?:\.github|\.ci|generator|bench|scripts|tests|docs|templates|overrides|site_src|data|examples)/[\w./-]*)`"
)


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _code(text: str) -> list[str]:
    """Return the code of a Markdown page: its fenced blocks and its code spans."""
    fenced = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.M | re.S)
    return fenced + re.findall(r"`([^`\n]+)`", prose)


def _section(text: str, heading: str) -> str:
    """Return the part of a page under `heading`, up to the next heading of the same level."""
    level = heading.split(" ", 1)[0]
    return text.split(heading + "\n", 1)[1].split(f"\n{level} ", 1)[0]


# The front page.


def test_the_front_page_is_short_and_names_nothing_outside_the_repository() -> None:
    text = _text(README)
    assert len(text.splitlines()) <= 250
    assert "../" not in text, "the README names a path outside the repository"


def test_the_readme_quick_start_is_what_ci_runs() -> None:
    text, ci = _text(README), _text(ROOT / ".ci" / "run")
    quick_start = _code(_section(text, "## Quick start"))[0]
    assert "python -m pip install -e . && paper-digest build" in quick_start
    assert "bash .ci/run" in quick_start
    assert all(step in ci for step in ("ruff check .", "mypy", "python -m pytest"))
    assert "`python -m pytest`" in text


def test_every_command_is_on_the_front_page_and_in_the_configuration_guide() -> None:
    for page in (README, CONFIGURATION):
        missing = [name for name in main.commands if f"paper-digest {name}" not in _text(page)]
        assert not missing, (_name(page), missing)


def test_every_option_of_every_command_is_in_the_configuration_guide() -> None:
    text = _text(CONFIGURATION)
    missing = [
        (name, opt) for name, command in main.commands.items() for param in command.params
        for opt in param.opts if opt.startswith("--") and f"`{opt}" not in text
    ]
    assert not missing


def test_the_user_pages_never_lean_on_the_development_corpora() -> None:
    for page in USER_PAGES:
        assert "../shared" not in _text(page), _name(page)


# Settings and formats.


def _documented_default(value: object) -> str:
    """Return a default as the configuration table writes it (TOML), or "" for an empty one."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return json.dumps(list(value))
    return str(value)


def test_every_setting_is_in_the_configuration_table_with_its_default() -> None:
    table = _section(_text(CONFIGURATION), "## Settings: `paper-digest.toml`")
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]*) \|", table, flags=re.M))
    settings = {f.name: f for f in fields(Settings) if f.name != "project_dir"}
    assert set(rows) == set(settings), set(rows) ^ set(settings)
    for name, field in settings.items():
        default = _documented_default(field.default)
        if default:
            assert f"`{default}`" in rows[name], (name, default, rows[name])


def test_every_input_format_and_ending_is_in_the_formats_guide_and_on_the_front_page() -> None:
    from generator.formats import FORMATS as READERS

    for page in (README, FORMATS):
        text = _text(page)
        for fmt in READERS:
            assert f"`{fmt.name}`" in text, (_name(page), fmt.name)
            assert all(f"`{suffix}`" in text for suffix in fmt.suffixes), (_name(page), fmt.suffixes)


def test_every_field_alias_is_in_the_formats_guide() -> None:
    from generator.read.records import ALIASES

    table = re.findall(r"^\| `(\w+)`[^|]*\| (.*) \|$", _text(FORMATS), flags=re.M)
    documented = {field: re.findall(r"`([^`]+)`", names.split(" (", 1)[0]) for field, names in table}
    assert {field: list(names) for field, names in ALIASES.items()} == documented


def test_the_site_guide_lists_every_field_of_papers_json() -> None:
    schema = json.loads(_text(ROOT / "docs" / "schemas" / "papers.schema.json"))["items"]
    listed = re.search(r"`papers.json`: every paper with `([^`]+)`", _text(SITE))
    assert listed
    outer = re.sub(r"\([^)]*\)", "", listed.group(1))
    assert [name.strip() for name in outer.split(",")] == schema["required"]
    tags = re.search(r"tags \(([^)]*)\)", listed.group(1))
    assert tags and sorted(n.strip() for n in tags.group(1).split(",")) == sorted(
        schema["properties"]["tags"]["items"]["properties"]
    )


# Paths, commands and options named by any page.


def test_the_pages_name_only_paths_that_exist() -> None:
    from generator.project import SKELETON

    # A page may also name a file that `paper-digest new` writes into a new project.
    new_project = set(SKELETON.values())
    for page in PAGES:
        text = _text(page)
        named = _TREE.findall(text) + re.findall(r"python ((?:bench|scripts)/\w+\.py)", text)
        # (A path is the repository's, or the page's folder's: an example's notes name its own files.)
        missing = [path for path in named if path not in new_project
                   and not any((folder / path.rstrip("/")).exists() for folder in (ROOT, page.parent))]
        assert not missing, (_name(page), missing)


def test_the_pages_name_only_commands_and_options_that_exist() -> None:
    for page in PAGES:
        code = "\n".join(_code(_text(page)))
        # A command is code (a code block or span): prose may say "paper-digest infers".
        for command, rest in re.findall(r"(?:^|[\s$(])paper-digest (\w+)([^\n`]*)", code, flags=re.M):
            assert command in main.commands, (_name(page), command)
            known = {opt for param in main.commands[command].params for opt in param.opts}
            unknown = [opt for opt in re.findall(r"(?<![\w-])(--[\w-]+)", rest.split("#")[0]) if opt not in known]
            assert not unknown, (_name(page), command, unknown)


def test_bench_and_script_commands_name_options_their_script_has() -> None:
    checked = 0
    for page in PAGES:
        code = "\n".join(_code(_text(page)))
        for script, rest in re.findall(r"python ((?:bench|scripts)/\w+\.py)([^\n`#]*)", code):
            source = _text(ROOT / script)
            unknown = [opt for opt in re.findall(r"(?<![\w-])(--[\w-]+)", rest) if f'"{opt}"' not in source]
            assert not unknown, (_name(page), script, unknown)
            checked += 1
    assert checked


def test_the_user_guide_names_only_real_settings() -> None:
    names = {f.name for f in fields(Settings)}
    checked = 0
    # The user guide names settings; the contributor guide also names functions in the same shape.
    for page in (ROOT / "docs" / "guide").glob("*.md"):
        # A setting is written as `name` followed by its default in a parenthesis, or named in a list of settings.
        for name in re.findall(r"\(`([a-z_]+)`[,)]|`([a-z]+_[a-z_]+)`, \d", _text(page)):
            named = next(n for n in name if n)
            assert named in names, f"{_name(page)} names the setting {named}, which does not exist"
            checked += 1
    assert checked


def test_every_settings_line_shown_sets_a_real_setting() -> None:
    settings = {f.name for f in fields(Settings)}
    for page in PAGES:
        for code in _code(_text(page)):
            for name in re.findall(r"^(\w+) = ", code, re.M):
                assert name in settings, f"{_name(page)} sets `{name}`, which is no setting"


def test_every_setting_is_in_the_readme_or_a_guide() -> None:
    text = "".join(_text(page) for page in PAGES)
    assert all(f"`{f.name}`" in text for f in fields(Settings) if f.name != "project_dir")


def test_the_architecture_page_maps_every_package_and_module() -> None:
    section = _section(_text(ARCHITECTURE), "## The tree")
    named = set(re.findall(r"`(generator/[\w/]+(?:\.py)?)`", section))
    for path in named:
        assert (ROOT / path).exists(), f"the architecture page names {path}, which is not in the tree"
    packages = {p.parent for p in (ROOT / "generator").glob("*/__init__.py")}
    assert all(f"`{p.relative_to(ROOT).as_posix()}/`" in section for p in packages)
    # Every module of the package and of its stages, by its path or its name in its package's row.
    modules = [*(ROOT / "generator").glob("*.py"), *(ROOT / "generator").glob("*/*.py")]
    unnamed = [m.relative_to(ROOT).as_posix() for m in modules
               if not m.name.startswith("__") and f"{m.name}`" not in section]
    assert not unnamed


# Links.


def _slugs(text: str) -> tuple[set[str], set[str]]:
    """Return a page's heading anchors as GitHub makes them and as MkDocs (Python-Markdown's toc) does."""
    github, mkdocs = set(), set()
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.M | re.S)
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", prose, flags=re.M):
        plain = heading.replace("`", "")
        github.add(re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-"))
        ascii_ = unicodedata.normalize("NFKD", plain).encode("ascii", "ignore").decode()
        mkdocs.add(re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", ascii_).strip().lower()))
    return github, mkdocs


def test_every_relative_link_and_anchor_resolves_on_github_and_in_mkdocs() -> None:
    checked = 0
    for page in PAGES:
        prose = re.sub(r"^```[^\n]*\n.*?^```", "", _text(page), flags=re.M | re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.is_relative_to(ROOT), f"{_name(page)} links outside the repository: {target}"
            assert file.exists(), f"{_name(page)} links to {target}, which is missing"
            if anchor:
                github, mkdocs = _slugs(_text(file))
                assert anchor in github and anchor in mkdocs, f"{_name(page)} links to {target}: no such heading"
            checked += 1
    assert checked > 50


def test_the_guide_builds_with_mkdocs_in_strict_mode_every_page_in_its_navigation(tmp_path: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    # mkdocs-guide.yml turns every unknown link or anchor, and every page left out of the navigation, into an error.
    build(load_config(str(ROOT / "mkdocs-guide.yml"), site_dir=str(tmp_path / "site")))
    built = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("index.html")}
    pages = {p.relative_to(ROOT / "docs").with_suffix("").as_posix() for p in GUIDE}
    assert built == {"index.html"} | {f"{page}/index.html" for page in pages - {"index"}}


# The examples.


def test_the_trends_sample_holds_no_paper_of_the_evaluation_year_and_only_tune_papers() -> None:
    from bench.split import part_of

    for sample in (ROOT / "examples" / "trends" / "data").glob("*.jsonl"):
        records = [json.loads(line) for line in _text(sample).splitlines()]
        assert 20 <= len(records) <= 60
        assert all(r["year"] != 2026 and "2026" not in r["venue"] for r in records), sample.name
        assert all(part_of(r["id"]) == "tune" for r in records), sample.name


def test_the_sampling_script_refuses_a_record_of_the_evaluation_year() -> None:
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    from sample_corpus import sample

    record = {"id": "x", "title": "T", "abstract": "A.", "venue": "ICLR 2026", "year": 2026, "status": "accept"}
    with pytest.raises(SystemExit, match="evaluation year"):
        sample([json.dumps(record)], 5)


@pytest.mark.slow
def test_the_trends_example_builds_as_its_readme_says(tmp_path: Path) -> None:
    # The example names the default digest by its place in the repository: copy both.
    shutil.copytree(ROOT / "examples" / "trends", tmp_path / "examples" / "trends")
    shutil.copytree(ROOT / "data" / "iclr2026", tmp_path / "data" / "iclr2026")
    command = "paper-digest build --project examples/trends"
    assert command in _text(ROOT / "examples" / "trends" / "README.md")
    result = CliRunner().invoke(main, [*command.split()[1:-1], str(tmp_path / "examples" / "trends")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "137 from 5 files" in result.output
    site = tmp_path / "examples" / "trends"
    stats = _text(site / "site_src" / "stats.md")
    assert "Trends from ICLR 2024 to ICLR 2026" in stats
    # Each tag page charts the tag's share of every year's papers.
    tag = _text(site / "site_src" / "tags" / "generative-models.md")
    assert all(year in tag for year in ("ICLR 2024", "ICLR 2025", "ICLR 2026"))
    assert (site / "site" / "index.html").exists()
