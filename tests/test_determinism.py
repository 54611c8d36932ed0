"""The same input gives the same site on any machine: BLAS kernel, numpy's CPU dispatch and thread count.

Each setup generates the default digest in its own process, with the numeric
environment set before numpy loads, as another machine would have it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DEFAULT_CORPUS, ROOT, copy_project

_NUMERIC = ("OPENBLAS_", "OMP_", "MKL_", "NPY_", "GOTO", "BLIS_")

#: Other machines, as far as one machine can play them.
SETUPS = {
    "this machine's defaults": None,
    "generic OpenBLAS kernel, one thread": {
        "OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
    },
    "no BLAS variables, two threads": {"OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"},
    # numpy's baseline loops only: what a CPU without AVX2 or AVX-512 runs.
    "numpy without its AVX2/AVX-512 kernels": {"NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"},
}


def _environment(extra: dict[str, str] | None) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if extra is None:
        return env
    env = {k: v for k, v in env.items() if not k.startswith(_NUMERIC)}
    return {**env, **extra}


def _generate(folder: Path, extra: dict[str, str] | None) -> dict[str, bytes]:
    project = copy_project(folder)
    result = subprocess.run(
        [sys.executable, "-m", "generator", "generate", str(DEFAULT_CORPUS)],
        cwd=project, env=_environment(extra), capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    docs = project / "site_src"
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*")) if p.is_file()}


@pytest.mark.skipif(sys.platform != "linux" or os.uname().machine != "x86_64", reason="the setups name x86 kernels")
def test_every_generated_file_is_byte_identical_under_other_numeric_setups(tmp_path: Path) -> None:
    outputs = {name: _generate(tmp_path / f"setup{i}", extra) for i, (name, extra) in enumerate(SETUPS.items())}
    reference = outputs["this machine's defaults"]
    assert {"map.json", "papers.json", "filter.json", "papers.bib"} <= set(reference)
    for name, files in outputs.items():
        assert set(files) == set(reference), name
        differing = [rel for rel in sorted(reference) if files[rel] != reference[rel]]
        assert differing == [], f"{name}: {differing}"
