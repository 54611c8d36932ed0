"""The browser tests find a Chromium wherever the machine keeps one, and say how to get one when none is there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import chromium


def fake_browser(folder: Path, name: str, prints: str, status: int = 0) -> Path:
    """Write an executable `name` that prints `prints` and exits with `status`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\necho '{prints}'\nexit {status}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def bare_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH that holds only the fakes a test writes , no browser of the machine's, no playwright browser."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.delenv(chromium.ENVIRONMENT, raising=False)
    monkeypatch.setattr(chromium, "_playwright_browser", lambda: None)
    chromium.find_chromium.cache_clear()
    yield folder
    chromium.find_chromium.cache_clear()


def test_a_snap_shim_is_passed_over_for_the_next_browser_on_path(bare_path: Path) -> None:
    fake_browser(bare_path, "chromium-browser", "Command requires the chromium snap to be installed.", status=1)
    chrome = fake_browser(bare_path, "google-chrome", "Google Chrome 131.0.6778.85")
    assert chromium.find_chromium() == str(chrome)


def test_chromium_comes_before_chrome(bare_path: Path) -> None:
    first = fake_browser(bare_path, "chromium", "Chromium 156.0.8078.73 built on Debian")
    fake_browser(bare_path, "google-chrome", "Google Chrome 131.0.6778.85")
    assert chromium.find_chromium() == str(first)


def test_the_environment_variable_names_the_browser(bare_path: Path, tmp_path: Path, monkeypatch) -> None:
    fake_browser(bare_path, "chromium", "Chromium 156.0.8078.73")
    mine = fake_browser(tmp_path / "elsewhere", "my-chrome", "Chromium 150.0.1")
    monkeypatch.setenv(chromium.ENVIRONMENT, str(mine))
    assert chromium.find_chromium() == str(mine)


def test_a_named_browser_that_does_not_run_is_reported_not_replaced(bare_path: Path, monkeypatch) -> None:
    fake_browser(bare_path, "chromium", "Chromium 156.0.8078.73")
    monkeypatch.setenv(chromium.ENVIRONMENT, "/nowhere/chrome")
    assert chromium.find_chromium() is None
    assert "'/nowhere/chrome'" in chromium.missing_message()


def test_no_browser_gives_one_message_that_says_how_to_get_one(bare_path: Path, capsys) -> None:
    assert chromium.find_chromium() is None
    assert chromium.main() == 1
    message = capsys.readouterr().err.strip()
    assert "\n" not in message
    assert "playwright install" in message and "apt-get install chromium" in message
    assert chromium.ENVIRONMENT in message
