"""The BibTeX and biblatex reader: every entry read whole, its LaTeX made plain text.

Real exports (Zotero, Google Scholar, a group's bibliography) repeat citation
keys and fields: a repeated key keeps both entries (two papers, or one when
their abstracts are the same), and a repeated field is merged (joined for
keywords and notes, else the first kept); both are reported. Braces and text
commands (`{BIM}`, `\\emph{x}`, `M{\\"u}ller`) become plain text in every field
but the URLs, which only lose their escapes (`paper\\_files` -> `paper_files`);
math in an abstract stays as it was written.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from ..model import ET_AL, Problem
from .raw import RawRecord

logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)

#: Fields holding an address: escapes removed, nothing else changed.
_ADDRESSES = frozenset({"url", "doi", "file", "eprint", "pdf", "howpublished"})
#: Fields whose repeated values are all kept, joined.
_JOINED = frozenset({"keywords", "annotation", "note", "tags", "file"})
#: Fields holding BibTeX name lists: split into persons as BibTeX does.
_PERSONS = frozenset({"author", "editor"})
_CITE = re.compile(r"\\(?:cite[a-z]*|ref|label|footnote)\*?(?:\[[^\]]*\])*\{[^{}]*\}")
_URL_ESCAPE = re.compile(r"\\([_%&#$~])")


@lru_cache(maxsize=2)
def _converter(math: str):
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    db = get_default_latex_context_db()
    # pylatexenc writes U+02C6 (a modifier letter) for \textasciicircum: an abstract means the caret.
    db.add_context_category("paper-digest", prepend=True, macros=[MacroTextSpec("textasciicircum", "^")],
                            environments=[], specials=[])
    return LatexNodes2Text(latex_context=db, math_mode=math, strict_latex_spaces=True)


class LatexError(ValueError):
    """A field whose LaTeX the converter cannot read (`\\href(...)(...)`): kept as written, and reported."""


#: Links written as LaTeX (`\href{url}{text}`, `\url{url}`, and the `\href(url)(text)` some exports write) and
#: bare addresses: lifted out before conversion, so that `%`, `_` or `#` in an address is never read as LaTeX.
_LINKS = re.compile(
    r"\\href\s*[{(]([^{}()\s]{1,2000})[})]\s*[{(]([^{}()]{0,500})[})]|\\url\s*[{(]([^{}()\s]{1,2000})[})]"
    r"|\bhttps?://[^\s{}\\]+",
)
_HOLD = re.compile("\ue010(\\d+)\ue011")


def _lift_links(text: str) -> tuple[str, list[str]]:
    """Return `text` with its links as placeholders, and each link as plain text ("text (url)", or the url)."""
    links: list[str] = []
    text = text.replace("\ue010", "").replace("\ue011", "")

    def hold(match: re.Match[str]) -> str:
        url = match.group(1) or match.group(3) or match.group(0)
        label = " ".join((match.group(2) or "").split())
        shown = url if not label or label.rstrip("/") == url.rstrip("/") else f"{label} ({url})"
        links.append(_URL_ESCAPE.sub(r"\1", shown))
        return f"\ue010{len(links) - 1}\ue011"

    return (_LINKS.sub(hold, text) if "\\" in text or "://" in text else text), links


def bib_text(value: str, keep_math: bool = False) -> str:
    """Return a field's LaTeX as plain text: braces, accents and text commands resolved.

    Math is kept as written with `keep_math` (an abstract: the page renders it), else made text
    (`Cu$_{2}$O` -> `Cu_2O` in a title). Raise LatexError when the LaTeX cannot be read even
    without its braces.
    """
    text = _CITE.sub("", value)
    if "\\" in text or "{" in text or "~" in text or "--" in text or "$" in text:
        text, links = _lift_links(text)
        converter = _converter("verbatim" if keep_math else "text")
        try:
            text = converter.latex_to_text(text)
        except Exception:
            try:
                text = converter.latex_to_text(text.replace("{", "").replace("}", ""))
            except Exception as exc:
                raise LatexError(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__) from exc
        if links:
            text = _HOLD.sub(lambda m: links[int(m.group(1))], text)
    return " ".join(text.split())


def bib_names(value: str) -> tuple[list[str], str]:
    """Return the persons of a BibTeX name list as BibTeX defines them, shown and written back.

    Persons are split on a top-level `and` (`{Barnes and Noble}` is one); `Last, First`,
    `von Last, Jr, First` and `First von Last` are one person each; `and others` is et al.
    Each person is shown as `First von Last Jr` and written back, as plain text, as
    `von Last, Jr, First` (a name in braces stays in braces). Raise LatexError as bib_text does.
    """
    from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names

    shown: list[str] = []
    written: list[str] = []
    for person in split_multiple_persons_names(" ".join(value.split())):
        if person.strip().lower() == "others":
            shown.append(ET_AL)
            written.append("others")
            continue
        try:
            parts = parse_single_name_into_parts(person, strict=False)
        except Exception:
            parts = None
        if parts is None or not (parts.last or parts.first):
            text = bib_text(person)
            shown.append(text)
            written.append("{" + text + "}")
            continue
        first, von, last, jr = (bib_text(" ".join(words)) for words in (parts.first, parts.von, parts.last, parts.jr))
        shown.append(" ".join(part for part in (first, von, last, jr) if part))
        # A last name of one braced group ("{Barnes and Noble}", "{Hehua Zhang}") keeps its braces.
        whole = len(parts.last) == 1 and parts.last[0].startswith("{") and parts.last[0].endswith("}")
        surname = " ".join(part for part in (von, "{" + last + "}" if whole else last) if part)
        written.append(", ".join(part for part in (surname, jr, first) if part))
    shown = [name for name in shown if name]
    return shown, " and ".join(name for name in written if name) if shown else ""


def bib_address(value: str) -> str:
    """Return a URL or DOI field without its LaTeX escapes."""
    text = value.replace("{\\textasciitilde}", "~").replace("\\textasciitilde{}", "~").replace("\\~{}", "~")
    return _URL_ESCAPE.sub(r"\1", text.replace("{", "").replace("}", "")).strip()


def _raw(value: Any) -> str:
    """Return a field's value without the braces or quotes that delimit it."""
    text = str(value).strip()
    if len(text) >= 2 and ((text[0] == "{" and text[-1] == "}") or (text[0] == '"' and text[-1] == '"')):
        text = text[1:-1]
    return text


def _clean(key: str, value: Any) -> str:
    raw = _raw(value)
    return bib_address(raw) if key in _ADDRESSES else bib_text(raw, keep_math=key == "abstract")


_HEAD = re.compile(r"^\s*@(\w+)\s*[{(]\s*([^,\s]+)\s*,")
_FIELD = re.compile(r"^\s*([A-Za-z][\w:.-]*)\s*=\s*(.*?)\s*,?\s*$")


def _line_by_line(raw: str, line: int):
    """Return an entry whose fields are one a line (`name = {value},`), or None when it is not written so."""
    from bibtexparser.model import Entry, Field

    lines = raw.split("\n")
    head = _HEAD.match(lines[0]) if lines else None
    if head is None or head.group(1).lower() in ("comment", "string", "preamble"):
        return None
    fields = []
    for text in lines[1:]:
        found = _FIELD.match(text)
        if found:
            value = found.group(2)
            if value.startswith("{") != value.endswith("}"):
                return None  # a value cut off (or going on to the next line): the entry is really broken
            fields.append(Field(found.group(1), value[1:-1] if value.startswith("{") else value.strip('"')))
        elif text.strip() not in ("", "}", ")") and fields:
            return None  # a value over several lines: not one field a line
    return Entry(head.group(1), head.group(2), fields, start_line=line - 1) if fields else None


def read_bib(text: str, name: str) -> Iterator[RawRecord | Problem]:
    """Yield every entry of a BibTeX or biblatex file, and a report of each repeated key or field."""
    import bibtexparser
    from bibtexparser.model import Entry

    library = bibtexparser.parse_string(text)
    blocks: list[tuple[int, Any]] = sorted(
        [(entry.start_line or 0, entry) for entry in library.entries]
        + [(block.start_line or 0, block) for block in library.failed_blocks],
        key=lambda pair: pair[0],
    )
    keys: dict[str, int] = {}
    index = 0
    for start, block in blocks:
        index += 1
        line = start + 1
        entry = block if isinstance(block, Entry) else getattr(block, "ignore_error_block", None)
        if not isinstance(entry, Entry):
            # An entry with a broken field (unbalanced braces) is read a field a line, as exports write it.
            entry = _line_by_line(str(getattr(block, "raw", "")), line)
            if entry is None:
                reason = str(getattr(block, "error", "")) or "syntax error"
                yield Problem("error", name, line, f"entry {index}: BibTeX entry does not parse ({reason})")
                continue
            yield Problem("warning", name, line, f"entry {index} ({entry.key}): unbalanced braces; read one field "
                          "a line (check its fields)")
        fields: dict[str, Any] = {}
        for field in entry.fields:
            key = field.key.lower()
            value: Any
            try:
                if key in _PERSONS:
                    # The persons shown (as they are: "Google, Inc." is one), and as BibTeX writes them
                    # (for papers.bib) under `bibtex_author`.
                    value, written = bib_names(_raw(field.value))
                    fields.setdefault(f"bibtex_{key}", written)
                    fields.setdefault(f"bibtex_{key}_names", value)
                else:
                    value = _clean(key, field.value)
            except LatexError as exc:
                value = _raw(field.value)
                yield Problem("warning", name, line, f"entry {index} ({entry.key}): field `{key}`: its LaTeX does not "
                              f"convert ({exc}); kept as written")
            if key not in fields or not fields[key]:
                fields[key] = value
            elif value and value != fields[key]:
                if key in _JOINED:
                    fields[key], kept = f"{fields[key]}; {value}", "the values were joined"
                elif key == "abstract":
                    # The longer abstract is the more complete one (an export may hold a cut one too).
                    fields[key], kept = max(fields[key], value, key=len), "the longer was kept"
                else:
                    kept = "the first was kept"
                yield Problem("info", name, line, f"entry {index} ({entry.key}): field `{key}` given twice; {kept}",
                              kind="bibtex")
        if entry.key in keys:
            yield Problem("info", name, line, f"entry {index}: citation key `{entry.key}` was used before "
                          f"(line {keys[entry.key]}); both entries are read", kind="bibtex")
        keys.setdefault(entry.key, line)
        # A library catalogue's `description` ("Vita.; Thesis (Ph. D.) ...") is no abstract, as it is elsewhere.
        if "description" in fields:
            fields["catalogue_description"] = fields.pop("description")
        fields.setdefault("key", entry.key)
        fields.setdefault("entrytype", entry.entry_type)
        yield RawRecord(fields, index, line)
