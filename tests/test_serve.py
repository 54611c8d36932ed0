"""`paper-digest serve`: an edited source file shows in the preview within seconds."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import write_tree

pytestmark = pytest.mark.slow

A1 = "We introduce GRACE, a framework for contrastive policy optimization of text encoders."
A2 = "We introduce ZORBLAX, a benchmark for counting imaginary creatures in generated images."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.read().decode("utf-8")
    except OSError:
        return None


def wait_for(url: str, predicate, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = fetch(url)
        if body is not None and predicate(body):
            return body
        time.sleep(0.3)
    raise AssertionError(f"{url} did not show the change within {seconds} s")


def test_an_edited_source_shows_in_the_preview(project: Path) -> None:
    source = write_tree(project, {"in/digest.txt": f"Preview 2026 Papers\n\n{A1}"}) / "in" / "digest.txt"
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", str(source), "--project", str(project),
         "--dev-addr", f"127.0.0.1:{port}", "--interval", "0.3"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/papers.json"
        first = json.loads(wait_for(url, lambda body: "GRACE" in body, 60))
        assert [r["title"].split(":")[0] for r in first] == ["GRACE"]
        started = time.monotonic()
        source.write_text(f"Preview 2026 Papers\n\n{A1}\n\n{A2}", encoding="utf-8")
        second = json.loads(wait_for(url, lambda body: "ZORBLAX" in body, 30))
        assert len(second) == 2
        assert time.monotonic() - started < 30
        home = fetch(f"http://127.0.0.1:{port}/")
        assert home is not None and "2 papers" in home
    finally:
        process.terminate()
        process.wait(timeout=10)
