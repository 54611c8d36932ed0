"""The package installed from a wheel (not a checkout) is a whole tool: `paper-digest new` in an empty
folder outside the repository, abstracts added, a site built."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

A = ("We introduce GRACE, a framework for contrastive policy optimization that learns representations "
     "from rewards. GRACE improves sample efficiency on twelve control benchmarks by a wide margin.")
B = ("We propose ReaPER, a replay method for offline reinforcement learning that reweights transitions "
     "by their reliability. ReaPER reaches higher returns than prioritized replay on Atari.")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    return next(out.glob("paper_digest-*.whl"))


def test_the_wheel_carries_the_default_project(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {"generator/defaults/mkdocs.yml", "generator/skeleton/paper-digest.toml"}
    expected |= {f"generator/defaults/{p.relative_to(ROOT).as_posix()}"
                 for folder in ("templates", "overrides", "site_src/assets")
                 for p in (ROOT / folder).rglob("*") if p.is_file()}
    assert expected <= names, sorted(expected - names)[:5]


@pytest.mark.slow
def test_an_installed_wheel_starts_a_digest_in_an_empty_folder_and_builds_it(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    # A fresh environment that sees this one's libraries but not its paper-digest (an editable install).
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    ours = [p for p in sys.path if p.endswith("site-packages")]
    Path(site, "libraries.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--quiet", str(wheel)], check=True)
    home = tmp_path / "elsewhere"
    home.mkdir()
    tool = str(env_dir / "bin" / "paper-digest")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([tool, *args], cwd=cwd, capture_output=True, text=True, env=environment, check=False)

    located = subprocess.run([str(python), "-c", "import generator; print(generator.__file__)"],
                             capture_output=True, text=True, check=True, cwd=home).stdout
    assert str(env_dir) in located, "the wheel's package, not this checkout's"
    outside = run("build", cwd=home)
    assert outside.returncode == 1 and "paper-digest new" in outside.stderr + outside.stdout
    created = run("new", "digest", cwd=home)
    assert created.returncode == 0, created.stderr
    project = home / "digest"
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()) == [
        ".github/workflows/check.yml", ".github/workflows/deploy.yml", ".gitignore", "data/example.txt",
        "mkdocs.yml", "paper-digest.toml", "requirements.txt",
    ]
    # Installed from a wheel on the disk: no address CI could install from, so no line to install by.
    assert all(line.startswith("#") for line in (project / "requirements.txt").read_text().splitlines())
    (project / "data" / "mine.txt").write_text(f"My Papers\n\n{A}\n\n{B}\n", encoding="utf-8")
    built = run("build", cwd=project / "data")
    assert built.returncode == 0, built.stderr + built.stdout
    assert "3 from 2 files" in built.stderr + built.stdout
    index = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert "<title>" in index and (project / "site" / "assets" / "digest.css").exists()
    assert len(list((project / "site" / "papers").glob("*/index.html"))) == 3
    assert (project / "paper-digest.lock").exists()
    # Only what the user changes is theirs: nothing of the package was copied into the project's own files.
    assert not (project / "templates").exists() and not (project / "overrides").exists()
    again = run("build", "--locked", cwd=project)
    assert again.returncode == 0, again.stderr
