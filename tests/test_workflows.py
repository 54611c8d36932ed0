"""The GitHub workflow files are valid against GitHub's workflow schema."""

from __future__ import annotations

import re
import shutil
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
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_uses_the_official_pages_actions_with_minimal_permissions() -> None:
    deploy = yaml.safe_load((ROOT / ".github" / "workflows" / "deploy.yml").read_text(encoding="utf-8"))
    steps = [s.get("uses", "") for job in deploy["jobs"].values() for s in job["steps"]]
    assert any(s.startswith("actions/upload-pages-artifact@") for s in steps)
    assert any(s.startswith("actions/deploy-pages@") for s in steps)
    assert deploy["permissions"] == {"contents": "read"}
    assert deploy["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_pull_requests_get_a_preview_and_a_change_report() -> None:
    text = (ROOT / ".github" / "workflows" / "pull-request.yml").read_text(encoding="utf-8")
    assert "actions/upload-artifact@" in text and "paper-digest diff" in text and "GITHUB_STEP_SUMMARY" in text


def test_every_action_is_pinned_to_a_commit_with_its_version_beside_it() -> None:
    for path in WORKFLOWS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if "uses:" in line:
                # A tag can be moved to other code; a commit cannot.
                assert re.search(r"uses: [\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$", line), f"{path.name}: {line.strip()}"


def test_checkouts_keep_no_credentials() -> None:
    for path in WORKFLOWS:
        workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert step.get("with", {}).get("persist-credentials") is False, path.name


def test_zizmor_finds_nothing_in_the_workflows() -> None:
    zizmor = shutil.which("zizmor")
    assert zizmor, "zizmor is a test dependency: pip install -e '.[test]'"
    # --offline: no GitHub API look-ups; the audits that need none all run.
    result = subprocess.run(
        [zizmor, "--offline", "--persona=auditor", "--no-progress", *map(str, WORKFLOWS)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout + result.stderr
