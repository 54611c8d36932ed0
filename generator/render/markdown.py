"""The Jinja2 environment for Markdown pages, and the filters that make untrusted text inert in them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ..errors import DigestError
from ..text import clean, escape_line, paragraphs_to_markdown, safe_url

_ATTR_SAFE = re.compile(r"[^\w\s,.-]")


def front_matter_string(text: str) -> str:
    """Quote text for a front matter field, escaped for HTML.

    Material and Zensical insert `title`, `description` and `tags` into the page
    unescaped (in <title>, the header, a <meta> attribute, Zensical's tag list),
    so `<`, `>` and `"` become entities here. An `&` does only where it could start
    a character reference ("&lt;", "&#60;"): "Audio & Language" stays as it is,
    which HTML reads as the same text, and which Zensical's search shows (as text)
    in its tag filter. A JSON string is a valid YAML double-quoted scalar;
    non-ASCII stays as is because YAML rejects the surrogate-pair escapes JSON
    would write for emoji. Splitting on whitespace also removes line and
    paragraph separators.
    """
    value = _REFERENCE_START.sub("&amp;", " ".join(clean(str(text)).split()))
    return json.dumps(value.translate(_HTML_SPECIALS), ensure_ascii=False)


_REFERENCE_START = re.compile(r"&(?=[#A-Za-z0-9])")
_HTML_SPECIALS = str.maketrans({"<": "&lt;", ">": "&gt;", '"': "&quot;"})


def attr_text(text: str) -> str:
    """Reduce text to characters safe inside a quoted attr_list value."""
    return _ATTR_SAFE.sub("", str(text))


def web_url(url: str) -> str:
    """Return an http(s) URL made safe for a Markdown link target, or '' for anything else."""
    url = str(url).strip()
    return safe_url(url) if re.match(r"https?://[^\s<>]+$", url, re.I) else ""


def counted(number: int, noun: str) -> str:
    """Return "1 paper", "2 papers", "1,234 papers": the number with thousands separators and the noun agreeing."""
    return f"{number:,} {noun if number == 1 else noun + 's'}"


def make_environment(templates_dir: Path | list[Path]) -> Environment:
    """Return the Jinja2 environment for Markdown templates, looked up in `templates_dir` (folders in order)."""
    folders = templates_dir if isinstance(templates_dir, list) else [templates_dir]
    for folder in folders:
        if not folder.is_dir():
            raise DigestError(f"{folder}: templates folder not found")
    env = Environment(
        loader=FileSystemLoader(folders),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=StrictUndefined,
        # Markdown, not HTML: untrusted text goes through the md filters instead.
        autoescape=select_autoescape(enabled_extensions=(), default=False),
    )
    env.filters.update(
        md=paragraphs_to_markdown, md_text=escape_line, yaml=front_matter_string, attr=attr_text, web_url=web_url,
        counted=counted,
    )
    return env
