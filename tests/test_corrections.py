"""Corrections in the overrides file (titles, summaries, join, split), keyed by stable id, survive edits."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.pipeline import generate
from generator.settings import load_settings
from tests.conftest import write_tree
from tests.test_identity import A, B, C, digest, published

NOTE = "Code is available at https://github.com/x/grace."


def rows_by_start(project: Path) -> dict[str, dict]:
    return {row["abstract"][:12]: row for row in published(project).values()}


def test_a_corrected_title_and_summary_stay_corrected_through_an_edit(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, B)], settings)
    grace = rows_by_start(project)[A[:12]]["id"]
    write_tree(project, {"tag-overrides.yaml": (
        f'titles:\n  "{grace}": "GRACE: Contrastive Policy Optimization"\n'
        f'summaries:\n  "{grace}": "Representations learned from rewards."\n'
    )})
    for text in (A, A.replace("wide margin", "large margin"), A + " We release the code."):
        generate([digest(project, text, B)], settings)
        row = published(project)[grace]
        assert row["title"] == "GRACE: Contrastive Policy Optimization"
        assert row["title_source"] == "corrected" and row["title_inferred"] is False
        assert row["summary"] == "Representations learned from rewards."


def test_split_keeps_a_joined_paragraph_apart_and_join_joins_one(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, NOTE, B)], settings)
    joined = rows_by_start(project)[A[:12]]
    assert NOTE in joined["abstract"] and len(published(project)) == 2
    write_tree(project, {"tag-overrides.yaml": f'split:\n  "{joined["id"]}": [2]\n'})
    generate([digest(project, A, NOTE, B)], settings)
    rows = rows_by_start(project)
    assert len(rows) == 3 and rows[A[:12]]["id"] == joined["id"] and NOTE not in rows[A[:12]]["abstract"]
    note_id = rows[NOTE[:12]]["id"]
    # The split survives an edit of the abstract; then join undoes it, and the note's address redirects.
    generate([digest(project, A.replace("wide", "large"), NOTE, B)], settings)
    assert len(published(project)) == 3
    note_url = rows[NOTE[:12]]["url"]
    write_tree(project, {"tag-overrides.yaml": f'join:\n  - "{note_id}"\n'})
    generate([digest(project, A.replace("wide", "large"), NOTE, B)], settings)
    rows = rows_by_start(project)
    assert len(rows) == 2 and NOTE in rows[A[:12]]["abstract"]
    redirect = (project / "site_src" / note_url / "index.html").read_text(encoding="utf-8")
    assert rows[A[:12]]["url"] in redirect


def test_join_makes_a_missed_join(project: Path) -> None:
    settings = load_settings(project)
    generate([digest(project, A, C, B)], settings)
    protein = rows_by_start(project)[C[:12]]["id"]
    write_tree(project, {"tag-overrides.yaml": f'join:\n  - "{protein}"\n'})
    generate([digest(project, A, C.replace("difficult", "hard"), B)], settings)
    rows = rows_by_start(project)
    assert len(rows) == 2 and "hard targets" in rows[A[:12]]["abstract"]


def test_a_correction_whose_id_is_gone_is_a_warning_naming_file_and_line(project: Path) -> None:
    write_tree(project, {"tag-overrides.yaml": 'titles:\n  "aaaaaaaaaaaa": "X"\npin:\n  "bbbbbbbbbbbb": [Robots]\n'})
    digest(project, A, B)
    result = CliRunner().invoke(main, ["generate", "--project", str(project)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "tag-overrides.yaml:2: titles: no paper has the id aaaaaaaaaaaa" in result.output
    assert "tag-overrides.yaml:4: pin: no paper has the id bbbbbbbbbbbb" in result.output


def test_corrections_whose_ids_are_gone_are_warned_in_the_order_of_their_lines(project: Path) -> None:
    write_tree(project, {"tag-overrides.yaml": (
        'titles:\n  "aaaaaaaaaaaa": "X"\nsummaries:\n  "cccccccccccc": "Y"\npin:\n  "bbbbbbbbbbbb": [Robots]\n'
    )})
    digest(project, A, B)
    result = CliRunner().invoke(main, ["check", "--project", str(project)], catch_exceptions=False)
    assert re.findall(r"tag-overrides\.yaml:(\d+): \w+: no paper has the id", result.output) == ["2", "4", "6"]


def test_strict_check_and_strict_generate_both_fail_on_a_correction_whose_id_is_gone(project: Path) -> None:
    write_tree(project, {"tag-overrides.yaml": 'titles:\n  "aaaaaaaaaaaa": "X"\n'})
    digest(project, A, B)

    def run(*args: str):
        return CliRunner().invoke(main, [*args, "--project", str(project)], catch_exceptions=False)

    assert run("generate").exit_code == 0  # a warning only
    for command in ("check", "generate"):
        result = run(command, "--strict")
        assert result.exit_code == 1, (command, result.output)
        assert "tag-overrides.yaml:2" in result.output and "strict mode" in result.output


def test_check_lists_doubtful_decisions_with_the_line_to_paste(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in (Path(__file__).parent / "fixtures" / "doubtful.jsonl").open()]
    project = write_tree(tmp_path / "p", {"paper-digest.toml": "", "data/d.txt": "\n\n".join(rows[0]["paragraphs"])})
    result = CliRunner().invoke(main, ["check", "--project", str(project)], catch_exceptions=False)
    assert "doubtful paragraph decisions" in result.output, result.output
    pasted = [line.strip() for line in result.output.splitlines() if line.strip().startswith(('"', '- "'))]
    assert pasted
    count = int(result.output.split(" abstracts in ")[0].split()[-1])
    section = "split" if pasted[0].startswith('"') else "join"
    write_tree(project, {"tag-overrides.yaml": f"{section}:\n  {pasted[0]}\n"})
    generated = CliRunner().invoke(main, ["generate", "--project", str(project)], catch_exceptions=False)
    assert generated.exit_code == 0 and "no paper has the id" not in generated.output, generated.output
    # The pasted line reverses the decision: one paper more (split) or one less (join).
    papers = json.loads((project / "site_src" / "papers.json").read_text(encoding="utf-8"))
    assert len(papers) == count + (1 if section == "split" else -1)
