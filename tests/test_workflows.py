"""The GitHub workflow files are valid against GitHub's workflow schema."""

from __future__ import annotations

import subprocess
import sys

import yaml

from tests.conftest import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def test_workflows_pass_the_github_workflow_schema() -> None:
    assert len(WORKFLOWS) == 2
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_uses_the_official_pages_actions_with_minimal_permissions() -> None:
    deploy = yaml.safe_load((ROOT / ".github" / "workflows" / "deploy.yml").read_text(encoding="utf-8"))
    steps = [s.get("uses", "") for job in deploy["jobs"].values() for s in job["steps"]]
    assert any(s.startswith("actions/upload-pages-artifact@v") for s in steps)
    assert any(s.startswith("actions/deploy-pages@v") for s in steps)
    assert all("@v" in s and s.count(".") >= 2 for s in steps if s), "pin exact action versions"
    assert deploy["permissions"] == {"contents": "read"}
    assert deploy["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_pull_requests_get_a_preview_and_a_change_report() -> None:
    text = (ROOT / ".github" / "workflows" / "pull-request.yml").read_text(encoding="utf-8")
    assert "actions/upload-artifact@" in text and "paper-digest diff" in text and "GITHUB_STEP_SUMMARY" in text
