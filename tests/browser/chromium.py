"""Find a Chromium for the browser tests, wherever the machine keeps one.

Order: the `PAPER_DIGEST_CHROMIUM` environment variable (or pytest's
`--chromium PATH`), then `chromium`, `chromium-browser`, `google-chrome` and
`google-chrome-stable` on PATH, then the browser `python -m playwright install
chromium` downloads. Each candidate must answer `--version`: Ubuntu's
`chromium-browser` is a shim that only asks for a snap.

    python -m tests.browser.chromium      # prints the browser found, or how to get one (exit 1)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

ENVIRONMENT = "PAPER_DIGEST_CHROMIUM"
COMMANDS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

MISSING = (
    "No Chromium found for the browser tests. Get one in any of these ways: "
    f"set {ENVIRONMENT}=/path/to/chromium; install Debian's package (`apt-get install chromium`); "
    "or run `python -m playwright install --with-deps chromium`. "
    "`bash .ci/run` does the last two by itself."
)


def _answers(executable: str) -> bool:
    """Return True when `executable` runs and prints a browser version."""
    try:
        result = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and any(name in result.stdout for name in ("Chromium", "Chrome"))


def _playwright_browser() -> str | None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as playwright:
        path = playwright.chromium.executable_path
    return path if path and Path(path).is_file() else None


@cache
def find_chromium(explicit: str | None = None) -> str | None:
    """Return the path of the first working Chromium, in the order of the module docstring, or None."""
    named = explicit or os.environ.get(ENVIRONMENT)
    if named:
        # A browser the user named is the only one tried: a silent fallback would hide a typo.
        chosen = shutil.which(named) or named
        return chosen if _answers(chosen) else None
    for command in COMMANDS:
        found = shutil.which(command)
        if found and _answers(found):
            return found
    downloaded = _playwright_browser()
    return downloaded if downloaded and _answers(downloaded) else None


def missing_message(explicit: str | None = None) -> str:
    """Return the one message that says no browser was found and how to get one."""
    named = explicit or os.environ.get(ENVIRONMENT)
    if named:
        return f"The Chromium named for the browser tests, {named!r}, does not run (`--version` failed). " + MISSING
    return MISSING


#: How the tests start Chromium: headless, and silent on this machine's closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright, explicit: str | None = None):
    """Start the Chromium `find_chromium` finds through a playwright instance; exit with the message if none."""
    executable = find_chromium(explicit)
    if executable is None:
        raise SystemExit(missing_message(explicit))
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


def main() -> int:
    path = find_chromium()
    if path is None:
        print(missing_message(), file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
