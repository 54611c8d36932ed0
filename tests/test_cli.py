"""The paper-digest command line, driven through click's CliRunner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.conftest import DEFAULT_CORPUS, snapshot, write_tree

A1 = "We introduce GRACE, a framework for contrastive policy optimization."
A2 = "We propose ReaPER, a replay method for offline reinforcement learning."


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_help_explains_every_command() -> None:
    result = run("--help")
    assert result.exit_code == 0, result.output
    for command in ("build", "generate", "serve", "check"):
        assert command in result.output
    build_help = run("build", "--help").output
    assert "--project" in build_help and "--strict" in build_help and "--force" in build_help


@pytest.mark.slow
def test_build_writes_the_site_and_prints_a_summary(project: Path) -> None:
    result = run("build", str(DEFAULT_CORPUS), "--project", str(project))
    assert result.exit_code == 0, result.output
    assert "57 from 3 files" in result.output
    assert (project / "site" / "index.html").exists()
    again = run("build", str(DEFAULT_CORPUS), "--project", str(project))
    assert "0 written" in again.output and "build skipped" in again.output


def test_generate_without_sources_uses_the_default_corpus(project: Path) -> None:
    write_tree(project, {"data/iclr2026/d.txt": f"ICLR 2026 Papers\n\n{A1}\n\n{A2}"})
    result = run("generate", "--project", str(project))
    assert result.exit_code == 0, result.output
    assert "2 from 1 files" in result.output
    assert len(list((project / "site_src" / "papers").glob("*.md"))) == 2


@pytest.mark.slow
def test_bad_encoding_fails_clearly_and_leaves_the_site_untouched(project: Path) -> None:
    good = write_tree(project, {"in/good.txt": f"{A1}\n\n{A2}"}) / "in"
    assert run("build", str(good), "--project", str(project)).exit_code == 0
    before = snapshot(project / "site")
    docs_before = snapshot(project / "site_src")
    (good / "bad.txt").write_bytes(b"Fine line.\n\nBroken \xe9 Latin-1 text.")
    result = run("build", str(good), "--project", str(project))
    assert result.exit_code == 1
    assert "bad.txt:3" in result.output and "not valid UTF-8" in result.output and "byte offset 19" in result.output
    assert snapshot(project / "site") == before
    assert snapshot(project / "site_src") == docs_before


def test_check_reports_counts_duplicates_and_empty_files(tmp_path: Path) -> None:
    folder = write_tree(tmp_path, {"a.txt": f"X 2026 Papers\n\n{A1}\n\n{A2}", "b.txt": A1, "c.txt": ""})
    result = run("check", str(folder), "--project", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "2 abstracts in 3 files" in result.output
    assert "c.txt: the file is empty" in result.output
    assert "Merged 1 duplicate" in result.output and "b.txt:1" in result.output


def test_check_strict_fails_on_warnings(tmp_path: Path) -> None:
    folder = write_tree(tmp_path, {"a.txt": A1, "c.txt": ""})
    assert run("check", str(folder), "--project", str(tmp_path), "--strict").exit_code == 1


def test_check_fails_on_a_missing_file(tmp_path: Path) -> None:
    result = run("check", str(tmp_path / "missing.txt"), "--project", str(tmp_path))
    assert result.exit_code == 1 and "no such file" in result.output


def test_a_command_outside_a_project_says_so_in_one_line_and_names_paper_digest_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_tree(tmp_path / "elsewhere", {"a.txt": A1})
    monkeypatch.chdir(folder)
    for command in ("generate", "build", "check", "serve"):
        result = run(command, "a.txt")
        assert result.exit_code == 1, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert "no digest project here" in result.output and "paper-digest new" in result.output


def test_commands_find_the_project_from_a_subfolder(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(project, {"data/a.txt": A1 + "\n\n" + A2})
    monkeypatch.chdir(project / "data")
    result = run("generate", "a.txt")
    assert result.exit_code == 0, result.output
    assert (project / "site_src" / "papers.json").exists()


def test_a_project_holding_only_its_data_gets_templates_and_theme_from_the_package(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "bare", {"paper-digest.toml": "", "data/a.txt": A1 + "\n\n" + A2})
    result = run("generate", "--project", str(project))
    assert result.exit_code == 0, result.output
    assert "2 from 1 files" in result.output
    assert (project / "site_src" / "index.md").exists() and (project / "site_src" / "about.md").exists()
    assert (project / ".paper-digest" / "theme" / "assets" / "digest.css").exists()
    assert (project / ".paper-digest" / "theme" / "main.html").exists()


def test_a_site_engine_that_is_not_installed_stops_the_build_before_any_work(project: Path, monkeypatch) -> None:
    from importlib.metadata import PackageNotFoundError

    import generator.build.engines as engines

    def version(name: str) -> str:
        raise PackageNotFoundError(name)

    monkeypatch.setattr(engines, "version", version)
    result = CliRunner().invoke(main, ["build", str(DEFAULT_CORPUS), "--project", str(project), "--engine", "zensical"])
    assert result.exit_code == 1
    assert "site engine 'zensical' is not installed" in result.output and "pip install -e '.[zensical]'" in result.output
    assert not (project / "site_src" / "papers").exists()  # nothing was generated


def test_an_unknown_site_engine_is_refused(project: Path) -> None:
    write_tree(project, {"paper-digest.toml": 'site_engine = "hugo"\n'})
    result = CliRunner().invoke(main, ["build", "--project", str(project)])
    assert result.exit_code != 0 and "site_engine" in result.output and "hugo" in result.output


@pytest.mark.slow
def test_build_summary_says_how_many_papers_were_analysed_again_and_each_stage_time(project: Path) -> None:
    summary = project / "summary.md"
    source = project / "in" / "digest.txt"
    write_tree(project, {"in/digest.txt": f"Tiny 2026 Papers\n\n{A1}\n\n{A2}\n"})
    assert run("build", str(source), "--project", str(project), "--summary", str(summary)).exit_code == 0
    write_tree(project, {"in/digest.txt": f"Tiny 2026 Papers\n\n{A1}\n\n{A2} It also works offline.\n"})
    assert run("build", str(source), "--project", str(project), "--summary", str(summary)).exit_code == 0
    first, second = summary.read_text(encoding="utf-8").split("### paper-digest build")[1:]
    assert "| Analysed again | 2 " in first and "| Analysed again | 1 " in second
    for stage in ("read", "enrich", "render", "MkDocs"):
        assert f"| — {stage} | " in second


def test_each_reported_problem_is_one_line_however_long(project: Path) -> None:
    # A CI log or a pipe is no terminal: a warning cut at 80 columns loses its end to grep.
    write_tree(project, {"tag-overrides.yaml": 'titles:\n  "aaaaaaaaaaaa": "X"\n', "data/a.txt": f"{A1}\n\n{A2}"})
    result = run("generate", "--project", str(project))
    assert result.exit_code == 0, result.output
    warning = next(line for line in result.output.splitlines() if "tag-overrides.yaml:2" in line)
    assert warning.endswith("this line does nothing") and len(warning) > 80
    assert not result.output.startswith("\n")  # no empty line left by the progress bar


def test_check_names_a_few_collections_and_counts_the_rest(tmp_path: Path) -> None:
    # One file a venue (a file of many venues with a few papers each is a library: one collection).
    files = {
        f"refs{i:02d}.jsonl": f'{{"abstract": "We study problem number {i} of many. It matters for {i} reasons.", '
                              f'"venue": "Journal {i}"}}\n'
        for i in range(12)
    }
    folder = write_tree(tmp_path, files)
    result = run("check", str(folder), "--project", str(tmp_path))
    assert result.exit_code == 0, result.output
    summary = next(line for line in result.output.splitlines() if "abstracts in 12 files" in line)
    assert "Journal 0" in summary and "Journal 9" not in summary and "12 collections" in summary


def test_memory_freed_after_generating_goes_back_to_the_system() -> None:
    # Issue 43: `build` waits for MkDocs and Pagefind after generating; at 100,000 papers its process
    # would otherwise keep the gigabytes of rendered pages it freed.
    from generator.pipeline import return_freed_memory

    def resident() -> int:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

    pages = [bytes(8_000) + str(n).encode() for n in range(40_000)]  # 320 MB of pages' bytes
    kept = pages[::20]  # a few stay alive among the freed: the C library cannot give back the heap's top
    del pages
    before = resident()
    return_freed_memory()
    assert before - resident() > 150_000, (before, resident())  # KB
    assert len(kept) == 2_000
