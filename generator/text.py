"""Turn untrusted abstract text into safe Markdown and clean plain text.

The contract: `to_markdown(text)` returns Markdown that renders the author's
emphasis, links and math and nothing else: no HTML, no page structure, no
template syntax. `to_plain(text)` returns the same content as plain prose for
titles, summaries and search.

How: spans the author meant (math, links, URLs, emphasis, LaTeX text commands)
are lifted out as tokens; every other character is escaped for Markdown; the
tokens are then written back in a form we control.
"""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal
from urllib.parse import quote

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexwalker import LatexWalker
from pylatexenc.latexwalker import get_default_latex_context_db as default_parsing_context

# Private-use characters mark lifted spans inside the text while it is processed.
# Any such character in the input is removed first, so they cannot be forged.
_OPEN, _CLOSE = "\ue000", "\ue001"
_BOLD_ON, _BOLD_OFF, _EM_ON, _EM_OFF = (chr(c) for c in range(0xE002, 0xE006))
_MARKERS = {_BOLD_ON: "**", _BOLD_OFF: "**", _EM_ON: "*", _EM_OFF: "*"}
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")

# pylatexenc logs every macro it cannot fully parse; malformed LaTeX is expected input.
logging.getLogger("pylatexenc").setLevel(logging.ERROR)

# Unicode categories removed from text: controls, format characters (bidi
# overrides, zero-width joiners outside emoji), surrogates, unassigned.
_DROP_CATEGORIES = {"Cc", "Cs", "Co", "Cn"}
_KEEP_FORMAT = {"\u200d"}  # zero-width joiner: part of emoji sequences

# Punctuation with an inline meaning in Markdown or its extensions: escaped with
# a backslash (pymdownx.escapeall makes every backslash escape literal).
# < > & become entities instead. The text is always one line, so block syntax
# ("# ", "> ", "1. ", "---", "!!!") can only start at its first character.
_ESCAPED = set("\\`*_{}[]#!|~^=$")
_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
# str.translate tables: one C-level pass instead of a Python loop per character.
_ESCAPE = str.maketrans({**{ch: "\\" + ch for ch in _ESCAPED}, **_ENTITIES})
_WITH_MARKERS = str.maketrans({**{ch: "\\" + ch for ch in _ESCAPED}, **_ENTITIES, **_MARKERS})
_NO_MARKERS = str.maketrans(dict.fromkeys(_MARKERS))
_LINE_START = set("#>+-=|!?:{[%*_~`")
_ORDERED_LIST = re.compile(r"^(\d+)([.)])")

_DISPLAY_MATH = re.compile(r"\$\$(?!\s*\$)(.+?)\$\$|\\\[(.+?)\\\]", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$\w])\$(?![\s$])([^$\n]{1,600}?)(?<![\s\\])\$(?![\d$])|\\\((.+?)\\\)")
_MD_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]\(\s*<?([^()\s<>]{1,2000})>?\s*\)")
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"'`\[\]{}|\\^]{2,2000}", re.I)
_URL_TRAILING = ".,;:!?*'\""
_LATEX_URL = re.compile(r"\\url\{([^{}\s]{1,2000})\}")
_LATEX_HREF = re.compile(r"\\href\{([^{}\s]{1,2000})\}\{([^{}]{0,500})\}")
_LATEX_CITE = re.compile(r"~?\\(?:cite|citep|citet|ref|eqref|label|footnote)\*?(?:\[[^\]]*\])?\{[^{}]*\}")
_MD_BOLD = re.compile(r"(?<![*\\])\*\*(?=[^\s*])([^*]{1,500}?)(?<=[^\s*\\])\*\*(?!\*)")
_MD_EM = re.compile(r"(?<![*\w\\])\*(?=[^\s*])([^*]{1,500}?)(?<=[^\s*\\])\*(?![*\w])")
# A LaTeX command with its optional and brace arguments (nested three deep).
_LATEX_MACRO = re.compile(
    r"\\[A-Za-z]+\*?(?:\s*(?:\[[^\[\]{}]{0,200}\])?\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"
)
# Old-style font switches inside a group ("{\\em algorithm-dependent}", "{\\bf X}"): the same as the commands.
_LATEX_SWITCH = re.compile(
    r"\{\\(em|it|itshape|sl|slshape|bf|bfseries|sc|scshape|tt|ttfamily|rm|rmfamily|sf|sffamily|normalfont)"
    r"(?![A-Za-z])\s*([^{}]{0,500})\}"
)
_SWITCH_COMMANDS = {
    "em": "emph", "it": "textit", "itshape": "textit", "sl": "textsl", "slshape": "textsl", "bf": "textbf",
    "bfseries": "textbf", "sc": "textsc", "scshape": "textsc", "tt": "texttt", "ttfamily": "texttt",
    "rm": "textrm", "rmfamily": "textrm", "sf": "textsf", "sffamily": "textsf", "normalfont": "textrm",
}
_LATEX_ESCAPE = re.compile(r"\\([%&_#${}])")
# An accent written as LaTeX (Cram\'{e}r, na\"ive, {\'a}): its letter braced, or a vowel inside a word.
# An escaped quote is no accent: "the \'Decompose\' step", "don\'t", '\"How' stay as written.
_LATEX_ACCENT = re.compile(
    r"\{\\(['\"`^~=.])([A-Za-z])\}|\\(['\"`^~=.])(?:\{([A-Za-z])\}|(?<=[A-Za-z]\\.)([aeiouyAEIOUY]))"
)
_ACCENT_MARKS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304", ".": "\u0307",
}
# A letter accent (`{\\H o}`, `\\H{o}`, `\\v c`, `{\\c{c}}`): the command with its letter, braced or after a space.
_LATEX_LETTER_ACCENT = re.compile(
    r"\{\\([HcvukrdbU])(?:\s+|\s*\{)([A-Za-z])\}?\}|\\([HcvukrdbU])(?:\{([A-Za-z])\}|\s+([A-Za-z])(?![A-Za-z]))"
)
_LETTER_ACCENT_MARKS = {
    "H": "\u030b", "c": "\u0327", "v": "\u030c", "u": "\u0306", "k": "\u0328", "r": "\u030a", "d": "\u0323",
    "b": "\u0331", "U": "\u030e",
}
# Text symbols written as commands (`\\textasciicircum`, `{\\textasciitilde}`): the symbol itself.
_LATEX_SYMBOL = re.compile(r"\{\\(textasciicircum|textasciitilde|textbackslash|textunderscore|textbar)\}"
                           r"|\\(textasciicircum|textasciitilde|textbackslash|textunderscore|textbar)(?![A-Za-z])(?:\{\})?")
_SYMBOLS = {"textasciicircum": "^", "textasciitilde": "~", "textbackslash": "\\", "textunderscore": "_",
            "textbar": "|"}
# A control space (`i.e.\\ graphs`) is a space; a forced break (`\\\\ `) is left to the command pattern.
_LATEX_CONTROL_SPACE = re.compile(r"(?<!\\)\\(?=[ \t])")
# One converted letter still in braces inside a word (`Erd{ő}s`): the braces were only grouping.
_LETTER_GROUP = re.compile(r"(?<=\w)\{(\w)\}|\{(\w)\}(?=\w)")
_LATEX_TIE = re.compile(r"(?<=\w)~(?=\w)")
# A LaTeX group around one word ("{adversarial}") is only grouping; "{{ x }}" is not.
_LATEX_GROUP = re.compile(r"(?<![{\w])\{([\w-]+)\}(?![}\w])")
_DASHES = (("---", "\u2014"), ("--", "\u2013"))
_SPACES = re.compile(r"\s+")
_SAFE_SCHEMES = ("http://", "https://", "mailto:")


@dataclass(frozen=True)
class _Token:
    kind: Literal["math", "display", "link", "text"]
    text: str
    url: str = ""


# Characters that may need removing: ASCII controls and everything outside ASCII.
# Most abstracts are plain ASCII, so only the rare others are looked at one by one.
_SUSPECT = re.compile(r"[^\x20-\x7e\n]")


def clean(text: str) -> str:
    """Remove invisible and dangerous characters; decode HTML entities once; one line."""
    if "&" in text:
        text = html.unescape(text)
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    if not (text.isascii() and text.isprintable()):
        text = _SUSPECT.sub(_replace_suspect, text)
    return _SPACES.sub(" ", text).strip()


def _replace_suspect(match: re.Match[str]) -> str:
    return _suspect_replacement(match.group(0))


def _is_bidi_control(ch: str) -> bool:
    # Bidi overrides and isolates can make text read in another order than it is stored;
    # other format characters are invisible. Keep the emoji joiner and the soft hyphen.
    return "\u202a" <= ch <= "\u202e" or "\u2066" <= ch <= "\u2069" or ch in "\u200e\u200f\u061c" or (
        unicodedata.category(ch) == "Cf" and ch not in _KEEP_FORMAT and ch != "\u00ad"
    )


@lru_cache(maxsize=4096)
def _suspect_replacement(ch: str) -> str:
    if ch in "\t\r\f\v":
        return " "
    if unicodedata.category(ch) in _DROP_CATEGORIES or _is_bidi_control(ch):
        return ""
    return ch


def to_markdown(text: str) -> str:
    """Return `text` as inert Markdown: emphasis, links and math, nothing else."""
    body, tokens = _lift(clean(text))
    markdown = escape_markdown(body, markers=True)
    if body[:1] not in _MARKERS and body[:1] != _OPEN:
        # Emphasis or a lifted span at the start is ours; anything else may not start a block.
        markdown = _protect_line_start(markdown)
    return _PLACEHOLDER.sub(lambda m: _render_token(tokens[int(m.group(1))]), markdown)


_PARAGRAPH_BREAK = re.compile(r"\n[ \t\f\v\u00a0\u3000]*\n")


def paragraphs_to_markdown(text: str) -> str:
    """Return an abstract as inert Markdown paragraphs: each blank-line separated part is its own paragraph."""
    parts = [to_markdown(part) for part in _PARAGRAPH_BREAK.split(text)]
    return "\n\n".join(part for part in parts if part)


def escape_markdown(text: str, markers: bool = False) -> str:
    """Escape text so Markdown shows every character literally.

    With `markers`, the private emphasis markers left by `_lift` become Markdown.
    """
    return text.translate(_WITH_MARKERS if markers else _ESCAPE)


@lru_cache(maxsize=65536)
def escape_line(text: str) -> str:
    """Escape one line of plain text (a title, a name) for Markdown, block syntax included."""
    return _protect_line_start(escape_markdown(" ".join(_PRIVATE_USE.sub("", clean(str(text))).split())))


def _protect_line_start(markdown: str) -> str:
    # Block syntax only starts a line: escape a leading marker or "1." list number.
    if markdown[:1] in _LINE_START:
        return "\\" + markdown
    return _ORDERED_LIST.sub(r"\1\\\2", markdown, count=1)


def to_plain(text: str) -> str:
    """Return `text` as plain prose: no markup, math as readable text."""
    return plain_from_clean(clean(text))


def plain_from_clean(cleaned: str) -> str:
    """Return to_plain's result for text that clean() has already cleaned (one pass less)."""
    body, tokens = _lift(cleaned)
    if any(marker in body for marker in _MARKERS):
        body = body.translate(_NO_MARKERS)
    plain = _PLACEHOLDER.sub(lambda m: _plain_token(tokens[int(m.group(1))]), body)
    return _SPACES.sub(" ", plain).strip()


_PLACEHOLDER = re.compile(_OPEN + r"(\d+)" + _CLOSE)


def _lift(text: str) -> tuple[str, list[_Token]]:
    """Replace author-meant spans by placeholders; convert LaTeX text commands."""
    text = _PRIVATE_USE.sub("", text)
    tokens: list[_Token] = []

    def keep(token: _Token) -> str:
        tokens.append(token)
        return f"{_OPEN}{len(tokens) - 1}{_CLOSE}"

    def math(kind: Literal["math", "display"]):
        return lambda m: keep(_Token(kind, (m.group(1) or m.group(2)).strip()))

    # Each pattern runs only when its trigger character is present: most
    # abstracts have no math, link or markup, and a scan costs a pass each.
    if "$" in text or "\\" in text:
        text = _DISPLAY_MATH.sub(math("display"), text)
        text = _INLINE_MATH.sub(math("math"), text)
    if "\\" in text:
        text = _LATEX_HREF.sub(lambda m: _link(keep, m.group(2) or m.group(1), m.group(1), m.group(0)), text)
        text = _LATEX_URL.sub(lambda m: _link(keep, m.group(1), m.group(1), m.group(0)), text)
    if "](" in text:
        text = _MD_LINK.sub(lambda m: _link(keep, m.group(1), m.group(2), m.group(0)), text)
    if "://" in text or "www." in text.lower():
        text = _URL.sub(lambda m: _bare_url(keep, m.group(0)), text)
    if "\\" in text:
        text = _LATEX_CITE.sub("", text)
        text = _LATEX_SWITCH.sub(lambda m: f"\\{_SWITCH_COMMANDS[m.group(1)]}{{{m.group(2)}}}", text)
        text = _LATEX_ACCENT.sub(_accented, text)
        text = _LATEX_LETTER_ACCENT.sub(_letter_accented, text)
        text = _LATEX_SYMBOL.sub(lambda m: _SYMBOLS[m.group(1) or m.group(2)], text)
        text = _LATEX_CONTROL_SPACE.sub("", text)
        text = _LATEX_MACRO.sub(lambda m: _latex_to_text(m.group(0)), text)
        text = _LATEX_ESCAPE.sub(r"\1", text)
    text = text.replace("``", "\u201c").replace("''", "\u201d")
    if "~" in text:
        text = _LATEX_TIE.sub(" ", text)
    if "{" in text:
        text = _LATEX_GROUP.sub(r"\1", text)
        text = _LETTER_GROUP.sub(lambda m: m.group(1) or m.group(2), text)
    for source, dash in _DASHES:
        text = text.replace(source, dash)
    text = _SPACES.sub(" ", text).strip()
    if "*" in text:
        text = _MD_BOLD.sub(lambda m: f"{_BOLD_ON}{m.group(1)}{_BOLD_OFF}", text)
        text = _MD_EM.sub(lambda m: f"{_EM_ON}{m.group(1)}{_EM_OFF}", text)
    return text, tokens


def _accented(match: re.Match[str]) -> str:
    """Return the letter of a LaTeX accent command with its accent, composed where Unicode has it."""
    accent = match.group(1) or match.group(3)
    letter = match.group(2) or match.group(4) or match.group(5)
    return unicodedata.normalize("NFC", letter + _ACCENT_MARKS[accent])


def _letter_accented(match: re.Match[str]) -> str:
    """Return the letter of a LaTeX letter accent (`\\H{o}`, `\\c c`) with its accent, composed where Unicode has it."""
    accent = match.group(1) or match.group(3)
    letter = match.group(2) or match.group(4) or match.group(5)
    return unicodedata.normalize("NFC", letter + _LETTER_ACCENT_MARKS[accent])


def _link(keep, label: str, url: str, original: str) -> str:
    url = url.strip()
    if not url.lower().startswith(_SAFE_SCHEMES):
        # Not a web or mail link: show exactly what the author wrote, as text.
        return keep(_Token("text", original))
    return keep(_Token("link", to_plain(label) or url, url))


def _bare_url(keep, url: str) -> str:
    trail = ""
    while url and (url[-1] in _URL_TRAILING or (url[-1] == ")" and url.count("(") < url.count(")"))):
        trail = url[-1] + trail
        url = url[:-1]
    target = url if url.lower().startswith(("http://", "https://")) else "https://" + url
    return keep(_Token("link", url, target)) + trail


def _wrap(before: str, after: str = ""):
    """Return a pylatexenc replacement that wraps a command's last argument."""

    def replace(node, l2tobj=None) -> str:
        args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
        inner = l2tobj.nodelist_to_text([args[-1]]) if args and l2tobj is not None else ""
        return f"{before}{inner}{after}" if inner.strip() else inner

    return replace


@lru_cache(maxsize=1)
def _latex_converter() -> LatexNodes2Text:
    db = get_default_latex_context_db()
    db.add_context_category(
        "paper-digest",
        prepend=True,
        macros=[
            MacroTextSpec("textbf", simplify_repl=_wrap(_BOLD_ON, _BOLD_OFF)),
            MacroTextSpec("textit", simplify_repl=_wrap(_EM_ON, _EM_OFF)),
            MacroTextSpec("emph", simplify_repl=_wrap(_EM_ON, _EM_OFF)),
            MacroTextSpec("textsl", simplify_repl=_wrap(_EM_ON, _EM_OFF)),
            MacroTextSpec("texttt", simplify_repl=_wrap("")),
            MacroTextSpec("url", simplify_repl=_wrap("")),
            MacroTextSpec("textsc", simplify_repl=_wrap("")),
            # Structure commands pasted with their text ("\\title{...}"): keep the text.
            *(MacroTextSpec(name, simplify_repl=_wrap("")) for name in (
                "title", "section", "subsection", "paragraph", "caption", "mbox", "text", "textrm",
                "textnormal", "textsf", "textup", "footnote", "mathrm", "operatorname")),
            MacroTextSpec("underline", simplify_repl=_wrap("")),
            MacroTextSpec("texttimes", simplify_repl="\u00d7"),
            MacroTextSpec("times", simplify_repl="\u00d7"),
            MacroTextSpec("xspace", simplify_repl=""),
        ],
        environments=[],
        specials=[],
    )
    # An unknown macro such as \GRACE{} is the paper's own shorthand: keep its name.
    db.set_unknown_macro_spec(MacroTextSpec("", simplify_repl=lambda node, l2tobj=None: node.macroname))
    return LatexNodes2Text(latex_context=db, math_mode="verbatim", strict_latex_spaces=True)


# Characters that are special to LaTeX but plain in abstracts ("50% of a_b"):
# escaped so the LaTeX reader keeps them as text.
_LATEX_LITERALS = re.compile(r"(?<!\\)([%&#_$])")


# A caret is LaTeX's superscript or accent; outside math it is text, so it hides
# behind a private character while pylatexenc reads the command.
_CARET = "\ue008"


def _to_text(converter: LatexNodes2Text, latex: str) -> str | None:
    """Convert LaTeX to text with literal % & # _ $ ^; None when the parser fails."""
    protected = _LATEX_LITERALS.sub(r"\\\1", latex).replace("^", _CARET)
    try:
        # converter.latex_to_text(protected), with the parser's default context built once, not per call.
        nodes = LatexWalker(protected, latex_context=_parsing_context()).get_latex_nodes()[0]
        return converter.nodelist_to_text(nodes).replace(_CARET, "^")
    except Exception:
        return None


@lru_cache(maxsize=1)
def _parsing_context():
    return default_parsing_context()


@lru_cache(maxsize=8192)
def _latex_to_text(command: str) -> str:
    """Convert one LaTeX command with its arguments to text (with emphasis markers)."""
    converted = _to_text(_latex_converter(), command)
    return command if converted is None else converted.replace("\u00a0", " ")


def _render_token(token: _Token) -> str:
    if token.kind == "math":
        return "$" + _escape_math(token.text) + "$"
    if token.kind == "display":
        # Display math inside a paragraph: an inline span in display style.
        return "$\\displaystyle " + _escape_math(token.text) + "$"
    if token.kind == "link":
        return f"[{escape_markdown(token.text)}](<{safe_url(token.url)}>)"
    return escape_markdown(token.text)


def _plain_token(token: _Token) -> str:
    if token.kind in ("math", "display"):
        return _math_to_plain(token.text)
    if token.kind == "link" and token.url.rstrip("/") not in (token.text.rstrip("/"), "https://" + token.text):
        # Plain text keeps the target too: it is searchable and nothing is lost.
        return f"{token.text} ({token.url})"
    return token.text


def _escape_math(tex: str) -> str:
    # Arithmatex escapes the math for HTML itself; only a $ would end the span early.
    return tex.replace("$", "\\$")


def safe_url(url: str) -> str:
    """Percent-encode everything in a URL that could end a Markdown link or an HTML attribute."""
    return quote(url, safe="/:?#[]@!$&'()*+,;=%~.-_")


# Math without a command, group or LaTeX special ("O(n log n)", "k=1", "x_t") reads as written.
_MATH_COMMAND = re.compile(r"[\\{}%&#~$]")


@lru_cache(maxsize=4096)
def _math_to_plain(tex: str) -> str:
    if not _MATH_COMMAND.search(tex):
        return _SPACES.sub(" ", tex).strip()
    text = _to_text(_math_converter(), tex)
    return _SPACES.sub(" ", tex if text is None else text).strip()


@lru_cache(maxsize=1)
def _math_converter() -> LatexNodes2Text:
    return LatexNodes2Text(math_mode="text", strict_latex_spaces=True)
