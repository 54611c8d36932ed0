"""Build hook: the wheel carries the default project (see generator/project.py: defaults_dir).

This repository's top-level mkdocs.yml, templates/, overrides/ and site_src/assets/ are the default
digest project. A built package copies them into generator/defaults/, so that an installed
paper-digest works in any folder; the project configuration itself lives in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: What the default project is made of, relative to the repository root.
DEFAULTS = ("mkdocs.yml", "templates", "overrides", "site_src/assets")


class BuildWithDefaults(build_py):
    """build_py that also copies the default project into the built package."""

    def run(self) -> None:
        super().run()
        root = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "generator" / "defaults"
        shutil.rmtree(target, ignore_errors=True)
        for name in DEFAULTS:
            source = root / name
            if source.is_dir():
                shutil.copytree(source, target / name)
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildWithDefaults})
