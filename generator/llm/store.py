"""The results file (`paper-digest.inferred.jsonl`): what the model wrote for each paper, committed as data.

One JSON object a line, sorted by paper id, so that a diff shows the papers that changed:

    {"id": "3f9a0c1b2d4e", "fingerprint": "…", "prompt": 1, "model": "llama3.2:3b",
     "title": "…", "summary": "…", "topics": [["Diffusion Models", 0.82]], "area": "…",
     "rejected": {"summary": {"reason": "more than one sentence", "value": "…"}}, "tokens": [412, 61]}

A result belongs to a paper while its `fingerprint` (the abstract's, as `read.paper_id`
makes it) and `prompt` (`prompt.PROMPT_VERSION`) are the paper's and this code's: an
edited abstract is inferred again, an unchanged one never. A field the validation
rejected is null, with the reason in `rejected`; the build then keeps the offline
result for it. `area` is there only for a paper offered its field's areas (a digest of
another field). A run appends each result as it arrives (one flushed line, so that a
crash or Ctrl-C loses none) and rewrites the file sorted, atomically, when it ends.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ..errors import DigestError
from ..stamps import write_atomically

#: The results file's name, beside the lock in the project folder.
INFERRED_FILE = "paper-digest.inferred.jsonl"


@dataclass(frozen=True)
class Result:
    """What the model wrote for one paper, after validation."""

    id: str
    fingerprint: str
    prompt: int
    model: str
    title: str | None = None
    summary: str | None = None
    #: The topics chosen, each with the offline model's confidence in it; None: rejected (the offline topics stay).
    topics: tuple[tuple[str, float], ...] | None = None
    #: The area chosen among the paper's field's areas (a digest of another field); None: none asked, or rejected.
    area: str | None = None
    #: Field -> {"reason": why it was rejected, "value": what the model wrote (cut short)}.
    rejected: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Prompt and completion tokens the request used.
    tokens: tuple[int, int] = (0, 0)

    def to_json(self) -> str:
        data = {
            "id": self.id, "fingerprint": self.fingerprint, "prompt": self.prompt, "model": self.model,
            "title": self.title, "summary": self.summary,
            "topics": None if self.topics is None else [[name, confidence] for name, confidence in self.topics],
        }
        if self.area is not None:
            data["area"] = self.area
        if self.rejected:
            data["rejected"] = {name: dict(sorted(value.items())) for name, value in sorted(self.rejected.items())}
        data["tokens"] = list(self.tokens)
        return json.dumps(data, ensure_ascii=False)

    def current(self, fingerprint: str, prompt: int) -> bool:
        """Return True when this result was made from the abstract with `fingerprint`, by prompt `prompt`."""
        return self.fingerprint == fingerprint and self.prompt == prompt


def _result(data: object) -> Result:
    if not isinstance(data, dict):
        raise TypeError("not an object")
    topics = data.get("topics")
    rejected = data.get("rejected", {})
    tokens = data.get("tokens", [0, 0])
    if not isinstance(rejected, dict) or not all(isinstance(v, dict) for v in rejected.values()):
        raise TypeError("rejected")
    return Result(
        id=_text(data, "id"), fingerprint=_text(data, "fingerprint"), prompt=int(data["prompt"]),
        model=_text(data, "model"), title=_optional(data, "title"), summary=_optional(data, "summary"),
        topics=None if topics is None else tuple((str(name), float(confidence)) for name, confidence in topics),
        area=_optional(data, "area"),
        rejected={str(k): {str(a): str(b) for a, b in v.items()} for k, v in rejected.items()},
        tokens=(int(tokens[0]), int(tokens[1])),
    )


def _text(data: dict, key: str) -> str:
    value = data[key]
    if not isinstance(value, str) or not value:
        raise TypeError(key)
    return value


def _optional(data: dict, key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise TypeError(key)
    return value


def read_results(path: Path) -> dict[str, Result]:
    """Return the results of the file at `path` by paper id ({} when there is none); a later line wins.

    A last line cut short (a crash while it was written) is ignored; any other line that does not
    read is an error naming the file and line.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise DigestError(f"{path}: cannot read the inference results: {exc}") from exc
    lines = text.split("\n")
    results: dict[str, Result] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            result = _result(json.loads(line))
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            if number == len(lines) and not text.endswith("\n"):
                continue  # the line a crash cut short: that paper is inferred again
            raise DigestError(
                f"{path}:{number}: not an inference result ({exc}); restore the file from version control, "
                "or delete the line to infer that paper again"
            ) from exc
        results[result.id] = result
    return results


def results_text(results: dict[str, Result]) -> str:
    """Return the file's text for `results`: sorted by paper id, one line each."""
    return "".join(results[key].to_json() + "\n" for key in sorted(results))


def write_results(path: Path, results: dict[str, Result]) -> None:
    """Write the file sorted, in one atomic step (unchanged bytes are not written again)."""
    text = results_text(results)
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    write_atomically(path, text.encode("utf-8"))


class Appender:
    """Adds results to the end of the file as they arrive, each one flushed to the disk at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def add(self, result: Result) -> None:
        if self._file is None:
            _drop_cut_line(self.path)
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(result.to_json() + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _drop_cut_line(path: Path) -> None:
    """Remove a last line a crash cut short (it holds no whole result), so that appended lines stay whole."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)
