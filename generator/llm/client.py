"""One OpenAI-compatible chat-completions endpoint, through the official `openai` client.

The client retries a request that met a rate limit (429), a server error (5xx), a
timeout or a dropped connection, with exponential backoff, waiting as long as a
`Retry-After` header asks (up to two minutes). What structured output the server
takes is found on the first request: a JSON schema (`json_schema`: OpenAI, vLLM,
llama.cpp's llama-server, Ollama), else a JSON object with a schema
(`json_object`: llama-cpp-python's server), else plain text with the schema in
the prompt's words. A server that refuses one is asked the next; none fails the run.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from ..errors import DigestError
from .prompt import MAX_TOKENS, Limits, Question, answer_schema, messages

log = logging.getLogger(__name__)

#: The response formats tried, in order: the first the server takes is used for the whole run.
MODES = ("json_schema", "json_object", "text")
#: Retries of one request after a 429, 5xx, timeout or dropped connection (then the paper counts as failed).
RETRIES = 4


class EndpointError(Exception):
    """A request that failed after its retries: this paper gets no result this run."""

    def __init__(self, message: str, wait: float = 0.0) -> None:
        super().__init__(message)
        #: Seconds the server asked to wait before the next request (Retry-After), else a short pause.
        self.wait = wait


class EndpointRefused(DigestError):
    """An answer that no retry changes (a refused key, an unknown model): the run stops at once."""


@dataclass(frozen=True)
class Reply:
    """The model's text for one paper, and the tokens the request used."""

    content: str | None
    prompt_tokens: int
    completion_tokens: int


def _response_format(mode: str, schema: dict) -> dict | None:
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "paper", "strict": True, "schema": schema}}
    if mode == "json_object":
        return {"type": "json_object", "schema": schema}
    return None


class Endpoint:
    """The configured server and model; `ask` is safe to call from several threads."""

    def __init__(self, url: str, model: str, key: str, timeout: float, retries: int = RETRIES) -> None:
        try:
            from openai import OpenAI
        except ImportError as exc:  # the dependency is pinned; a broken install says so
            raise DigestError("inference needs the `openai` package: pip install paper-digest again") from exc
        # A server that needs no key gets a placeholder: OPENAI_API_KEY from the environment is never sent
        # to a server the settings did not give it to.
        self._client = OpenAI(base_url=url, api_key=key or "no-key", timeout=timeout, max_retries=retries,
                              organization=None, project=None)
        self.url, self.model = url, model
        #: The response format the server took ("" until one request succeeded).
        self.mode = ""
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the connections (a request still running then fails at once)."""
        self._client.close()

    def ask(self, question: Question, limits: Limits) -> Reply:
        """Return the model's reply for one paper; raise EndpointError when the request failed after retries."""
        schema = answer_schema(question, limits)
        if self.mode:
            try:
                return self._request(self.mode, schema, question, limits, probe=False)
            except _Refused as refused:
                raise EndpointError(str(refused)) from None
        for mode in MODES:
            try:
                # Probed without retries: a server refusing a format often says so with a 500 (llama-cpp-python).
                reply = self._request(mode, schema, question, limits, probe=mode != "text")
            except _Refused as refused:
                log.info("the server refused response_format %s (%s)", mode, refused)
                continue
            except EndpointError as error:
                # Not about the format (a rate limit, a stall): the same request, with its retries, after the
                # wait the server asked for.
                time.sleep(error.wait)
                try:
                    reply = self._request(mode, schema, question, limits, probe=False)
                except _Refused as refused:
                    raise EndpointError(str(refused)) from None
            with self._lock:
                self.mode = self.mode or mode
            return reply
        raise EndpointError("the server refused every request format")

    def _request(self, mode: str, schema: dict, question: Question, limits: Limits, probe: bool) -> Reply:
        import openai

        request: dict[str, Any] = {
            "model": self.model, "messages": messages(question, limits), "temperature": 0,
            "max_tokens": MAX_TOKENS, "n": 1,
        }
        fmt = _response_format(mode, schema)
        if fmt:
            request["response_format"] = fmt
        client = self._client.with_options(max_retries=0) if probe else self._client
        try:
            response = client.chat.completions.create(**request)
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise EndpointRefused(f"{self.url} refused the key ({_said(exc)}); check llm_api_key_env") from exc
        except openai.NotFoundError as exc:
            raise EndpointRefused(
                f"{self.url} has no chat completions for model {self.model!r} ({_said(exc)}); "
                "check llm_url (it usually ends in /v1) and llm_model"
            ) from exc
        except openai.APIStatusError as exc:
            if fmt and (exc.status_code in (400, 422) or (exc.status_code >= 500 and _about_format(exc))):
                raise _Refused(_said(exc)) from exc
            raise EndpointError(_said(exc), _retry_after(exc)) from exc
        except openai.OpenAIError as exc:
            raise EndpointError(_said(exc)) from exc
        choices = getattr(response, "choices", None) or []
        if not choices:
            raise EndpointError("the server's reply has no choices")
        usage = getattr(response, "usage", None)
        return Reply(
            choices[0].message.content,
            int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0),
        )


class _Refused(Exception):
    """The server does not take the request's response format."""


#: The longest wait a Retry-After header is obeyed for, as the client does (seconds).
_LONGEST_WAIT = 120.0


def _retry_after(exc: Exception) -> float:
    """Return the seconds a failed response asks to wait (its Retry-After header), else half a second."""
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after", "") if response is not None else ""
    try:
        return min(max(float(value), 0.0), _LONGEST_WAIT)
    except ValueError:
        return 0.5


def _about_format(exc: Exception) -> bool:
    text = str(exc).lower()
    return "response_format" in text or "json_schema" in text or "json_object" in text


def _said(exc: Exception) -> str:
    """Return an error's first line, short (a server's reply can be a page of HTML)."""
    text = " ".join(str(exc).split())
    status = getattr(exc, "status_code", None)
    prefix = f"{status}: " if status and not text.startswith(str(status)) else ""
    return f"{prefix}{text[:200]}" if text else f"{prefix}{type(exc).__name__}"
