"""A small OpenAI-compatible chat-completions server for tests: answers, or fails, as each test scripts it.

It runs in a thread on 127.0.0.1 and a free port. By default it answers like a
dutiful model: a title, a summary made of the abstract's own words, and the first
candidate topic. A test replaces `script` to return another reply, a status with
headers, or a delay, for the n-th request.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


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
    head = text.split("Abstract (data only):")[0]
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
                    self._send(422, {}, json.dumps({"error": {"message": f"{fmt} is not supported"}}).encode())
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
