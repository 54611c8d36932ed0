"""The GitHub workflows: valid against GitHub's schema, clean under zizmor, and doing what docs/guide/publishing.md says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import yaml

from tests.conftest import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
#: The workflows `paper-digest new` gives a project: held to the same schema and audit.
AUDITED = [*WORKFLOWS, *(ROOT / "generator" / "skeleton" / name for name in ("deploy.yml", "check.yml", "infer.yml"))]
TREE_SCRIPT = ROOT / ".github" / "scripts" / "update-pages-tree.sh"


def workflow(name: str) -> dict:
    data = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True.
    data["on"] = data.pop(True, data.get("on"))
    return data


def steps_of(data: dict) -> list[dict]:
    return [step for job in data["jobs"].values() for step in job["steps"]]


def test_workflows_pass_the_github_workflow_schema() -> None:
    assert [p.name for p in WORKFLOWS] == ["deploy.yml", "preview-deploy.yml", "pull-request.yml"]
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, AUDITED)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_uses_the_official_pages_actions_with_minimal_permissions() -> None:
    deploy = workflow("deploy.yml")
    steps = [s.get("uses", "") for s in steps_of(deploy)]
    assert any(s.startswith("actions/upload-pages-artifact@") for s in steps)
    assert any(s.startswith("actions/deploy-pages@") for s in steps)
    assert deploy["permissions"] == {"contents": "read"}
    assert "permissions" not in deploy["jobs"]["build"]
    # Only the job that runs no project code writes: the gh-pages tree and Pages.
    assert deploy["jobs"]["deploy"]["permissions"] == {"contents": "write", "pages": "write", "id-token": "write"}


def test_pull_requests_are_built_with_a_read_only_token_and_never_deploy() -> None:
    pr = workflow("pull-request.yml")
    assert set(pr["on"]) == {"pull_request"}  # never pull_request_target: the pull request's code runs here
    assert pr["permissions"] == {"contents": "read"}
    assert all("permissions" not in job for job in pr["jobs"].values())
    uses = [s.get("uses", "") for s in steps_of(pr)]
    assert not [u for u in uses if u.startswith(("actions/deploy-pages@", "actions/upload-pages-artifact@"))]
    text = (ROOT / ".github" / "workflows" / "pull-request.yml").read_text(encoding="utf-8")
    assert "paper-digest diff" in text and "GITHUB_STEP_SUMMARY" in text
    uploaded = {s["with"]["name"] for s in steps_of(pr) if s.get("uses", "").startswith("actions/upload-artifact@")}
    assert uploaded == {"pr-preview-site", "pr-preview-meta"}
    assert pr["on"]["pull_request"]["types"] == ["opened", "synchronize", "reopened", "closed"]


def test_previews_are_deployed_by_a_workflow_run_job_that_checks_out_no_pull_request_code() -> None:
    preview = workflow("preview-deploy.yml")
    assert preview["on"] == {"workflow_run": {"workflows": [workflow("pull-request.yml")["name"]],
                                              "types": ["completed"]}}
    assert preview["permissions"] == {}
    job = preview["jobs"]["deploy"]
    assert "github.event.workflow_run.conclusion == 'success'" in job["if"]
    for step in job["steps"]:
        if step.get("uses", "").startswith("actions/checkout@"):
            # The default branch's script only: no ref, so nothing of the pull request.
            assert step["with"] == {"persist-credentials": False, "sparse-checkout": ".github/scripts"}
        # Nothing from the pull request's run is interpolated into a command: it reaches them as checked data.
        assert "workflow_run.head" not in step.get("run", "") and "pull_request" not in step.get("run", "")
    text = (ROOT / ".github" / "workflows" / "preview-deploy.yml").read_text(encoding="utf-8")
    assert "pr-preview/pr-${NUMBER}/" in text and "PATCH" in text and "remove" in text
    # One concurrency group with deploy.yml: each replaces the published tree in turn.
    assert preview["concurrency"]["group"] == workflow("deploy.yml")["concurrency"]["group"] == "pages"


def test_deploy_and_preview_builds_restore_and_save_the_build_state_keyed_on_code_and_data() -> None:
    for name, job in (("deploy.yml", "build"), ("pull-request.yml", "preview")):
        steps = workflow(name)["jobs"][job]["steps"]
        restore = next(s for s in steps if s.get("uses", "").startswith("actions/cache/restore@"))
        save = next(s for s in steps if s.get("uses", "").startswith("actions/cache/save@"))
        build = next(s for s in steps if "paper-digest build" in s.get("run", ""))
        assert steps.index(restore) < steps.index(build) < steps.index(save), name
        assert ".paper-digest" in restore["with"]["path"].split() and restore["with"]["path"] == save["with"]["path"]
        # The hand-written pages come from the checkout, never from an older run's cache.
        assert "!site_src/assets" in restore["with"]["path"].split()
        assert "generator/**" in restore["with"]["key"] and "data/**" in restore["with"]["key"]
        assert restore["with"]["restore-keys"] == "digest-"
        # The incremental path (no --force), with the summary of what was analysed again and each stage's time.
        assert "--force" not in build["run"] and '--summary "$GITHUB_STEP_SUMMARY"' in build["run"], name
        # The published address, so that the 404 page works below it (a preview's: pr-preview/pr-<N>/).
        assert "--site-url" in build["run"], name
    assert "/pr-preview/pr-$NUMBER/" in next(
        s["run"] for s in workflow("pull-request.yml")["jobs"]["preview"]["steps"] if "paper-digest build" in s.get("run", "")
    )


def test_the_published_tree_keeps_the_site_and_each_preview_apart(tmp_path) -> None:
    # The script deploy.yml and preview-deploy.yml share, against a local repository instead of GitHub's.
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    env = {**os.environ, "PAGES_REPO": str(remote), "GH_TOKEN": "unused", "GITHUB_SHA": "abc1234"}
    for name, text in (("main-1", "first"), ("main-2", "second"), ("pr-7", "seven"), ("pr-8", "eight")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "index.html").write_text(text, encoding="utf-8")

    def tree(*args: str) -> dict[str, str]:
        out = tmp_path / f"out-{len(list(tmp_path.glob('out-*')))}"
        subprocess.run(["bash", str(TREE_SCRIPT), str(out), *args], cwd=tmp_path, env=env, check=True,
                       capture_output=True)
        return {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*"))
                if p.is_file() and ".git" not in p.relative_to(out).parts}

    assert tree("site", "main-1") == {".nojekyll": "", "index.html": "first"}
    assert tree("preview", "7", "pr-7")["pr-preview/pr-7/index.html"] == "seven"
    assert tree("preview", "8", "pr-8")["pr-preview/pr-7/index.html"] == "seven"
    # A new main site keeps the previews; a closed pull request's preview goes.
    assert tree("site", "main-2") == {".nojekyll": "", "index.html": "second", "pr-preview/pr-7/index.html": "seven",
                                      "pr-preview/pr-8/index.html": "eight"}
    assert tree("remove", "7") == {".nojekyll": "", "index.html": "second", "pr-preview/pr-8/index.html": "eight"}
    # What the pull request's run said is checked: anything but a number is refused.
    bad = subprocess.run(["bash", str(TREE_SCRIPT), str(tmp_path / "bad"), "remove", "7; touch pwned"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, check=False)
    assert bad.returncode != 0 and "not a pull request number" in bad.stderr and not (tmp_path / "pwned").exists()


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
        [zizmor, "--offline", "--persona=auditor", "--no-progress", *map(str, AUDITED)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout + result.stderr


def _skeleton(name: str) -> dict:
    data = yaml.safe_load((ROOT / "generator" / "skeleton" / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))
    return data


def test_the_infer_workflow_runs_only_by_hand_on_main_and_only_its_infer_step_sees_the_key() -> None:
    infer = _skeleton("infer.yml")
    # Off by default: never on a push, a schedule or a pull request (a fork's never sees the secret).
    assert set(infer["on"]) == {"workflow_dispatch"}
    assert infer["permissions"] == {"contents": "read"}
    (job,) = infer["jobs"].values()
    assert job["if"] == "github.ref == 'refs/heads/main'"
    with_secret = [step for step in job["steps"] if "secrets." in yaml.safe_dump(step)]
    assert [step["run"] for step in with_secret] == ["paper-digest infer"]
    assert with_secret[0]["env"] == {"LLM_API_KEY": "${{ secrets.LLM_API_KEY }}"}
    assert "git add paper-digest.inferred.jsonl" in job["steps"][-1]["run"]


def test_builds_and_checks_never_read_a_secret_so_they_build_from_the_stored_results() -> None:
    for path in [*WORKFLOWS, ROOT / "generator" / "skeleton" / "deploy.yml", ROOT / "generator" / "skeleton" / "check.yml"]:
        text = path.read_text(encoding="utf-8")
        assert "secrets." not in text and "paper-digest infer" not in text and "--infer" not in text, path.name
