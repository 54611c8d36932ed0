"""`paper-digest diff`: the change report a pull request shows."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.diff import diff_papers, load_papers, to_markdown
from tests.conftest import FIXTURES

OLD = FIXTURES / "diff" / "old.json"
NEW = FIXTURES / "diff" / "new.json"


def test_additions_removals_and_retags_are_found() -> None:
    change = diff_papers(load_papers(OLD), load_papers(NEW))
    assert [r["id"] for r in change.added] == ["id6", "id5"]  # sorted by title
    assert [r["id"] for r in change.removed] == ["id3"]
    by_id = {c.id: c for c in change.changed}
    assert set(by_id) == {"id1", "id2"}
    assert by_id["id1"].old_title.startswith("GRACE: Contrastive") and by_id["id1"].tags_added == ()
    assert by_id["id2"].tags_added == ("Offline RL",) and by_id["id2"].tags_removed == ()
    assert change.tags_appeared == [("Diffusion", 1), ("Offline RL", 3)]
    assert change.tags_vanished == [("Vision", 1)]
    assert (change.old_count, change.new_count, change.old_tag_count, change.new_tag_count) == (4, 5, 3, 4)


def test_report_is_markdown_with_escaped_titles() -> None:
    report = to_markdown(diff_papers(load_papers(OLD), load_papers(NEW)))
    assert "| Papers | 4 → 5 (+1) |" in report
    assert "### Papers added (2)" in report and "### Papers removed (1)" in report
    assert "| ReaPER: Replay | +Offline RL |" in report
    assert "<script>" not in report and r"\| Paper" in report
    assert "| Vision | vanished (had 1) |" in report


def test_identical_digests_report_no_change() -> None:
    report = to_markdown(diff_papers(load_papers(NEW), load_papers(NEW)))
    assert "No paper or tag changed." in report


def test_resized_tags_are_reported(tmp_path: Path) -> None:
    records = load_papers(OLD)
    grown = [*records, dict(records[0], id="id9", title="More RL")]
    change = diff_papers(records, grown)
    assert ("RL", 3, 4) in change.tags_resized


def test_cli_compares_built_sites_and_files(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "papers.json").write_text(NEW.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["diff", str(OLD), str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Papers added (2)" in result.output
    out = tmp_path / "report.md"
    assert CliRunner().invoke(main, ["diff", str(OLD), str(NEW), "-o", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("## Digest change report")


def test_cli_rejects_something_that_is_not_papers_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"not": "a list"}), encoding="utf-8")
    result = CliRunner().invoke(main, ["diff", str(bad), str(NEW)])
    assert result.exit_code == 1 and "expected a list of papers" in result.output
