"""Titles and summaries of abstracts not written in English, cut in their own script.

The English title machinery (titles/) reads English: run on a German abstract it
Title-Cases "Wir Stellen Ein Neues Verfahren … Vor", on a Chinese one it finds no
sentence end and returns the whole abstract. Here an abstract in another language
gets its title and summary from the sentence that states what the paper does (a
few words per language, "本文提出", "wir schlagen", "nous proposons"), else its
first sentence: the sentence as written (no case changed), a lead-in clause before
the contribution's words ("Dans cet article, ", "为此，") dropped, and cut at the last clause boundary that
fits (，、；： in Chinese and Japanese, , ; : – elsewhere), else at a word
boundary (or, in Chinese and Japanese, between two characters) with "…".

Chinese and Japanese say in one character what English says in three or four
letters: their limits are a share of the settings' (`_DENSE_SHARE`).
Pure functions of text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A sentence ends after 。！？ (or their full-width and ASCII forms followed by a space).
_DENSE_SENTENCE = re.compile(r"(?<=[。！？．!?])\s*|(?<=\.)\s+")
#: A clause ends before these (the comma-like marks of Chinese and Japanese, full-width or not).
_DENSE_CLAUSE = re.compile(r"[，、；：,;:]")
#: A sentence of a spaced script ends at . ! ? … before a space and a capital, digit or quote.
_SPACED_SENTENCE = re.compile(r"(?<=[.!?…؟])\s+(?=[\"'«„“¿¡(\[]?[^\W\d_]|\d)")
# "z. B.", "d. h.", "e.g.", "et al.", "bzw.", "p. ej.": a period there ends no sentence.
_ABBREVIATION = re.compile(
    r"(?:\b\w|\b\w\.\w|\b(?:bzw|ca|vgl|usw|etc|al|Abb|Tab|Nr|Dr|Prof|resp|cf|vs|ej|Fig|Sec|Eq|Bsp|ggf|sog|inkl|zB))\.$",
    re.I,
)
_SPACED_CLAUSE = re.compile(r"[,;:،؛](?=\s)|\s[\u2013\u2014-](?=\s)")
#: A lead-in clause before the one that states the contribution ("Dans cet article, ", "En nous appuyant sur X, ").
_SPACED_LEAD_IN = re.compile(r"^[^,;:.،؛]{2,50}[,،]\s+(?=\S)")

#: The limits of Chinese and Japanese text, as a share of the settings' (in characters).
_DENSE_SHARE = 2 / 7
#: A cut at a clause boundary is taken when it keeps at least this share of the limit.
_CLAUSE_SHARE = 0.35

#: Words that start or mark the sentence stating the contribution, by language (matched in lower case).
_CONTRIBUTION = {
    "zh": ("本文提出", "我们提出", "提出了一种", "提出一种", "本文设计", "我们设计", "我们引入", "本文介绍", "我们介绍",
           "本文构建", "我们构建", "我们开发"),
    "ja": ("提案する", "提案した", "提案します", "を提案", "開発した", "構築した"),
    "de": ("wir schlagen", "wir stellen", "wir präsentieren", "wir entwickeln", "wir führen", "stellen wir",
           "schlagen wir", "präsentieren wir", "entwickeln wir"),
    "fr": ("nous proposons", "nous présentons", "nous introduisons", "nous développons", "nous décrivons"),
    "es": ("proponemos", "presentamos", "introducimos", "desarrollamos", "describimos"),
    "pt": ("propomos", "apresentamos", "introduzimos", "desenvolvemos"),
    "it": ("proponiamo", "presentiamo", "introduciamo", "sviluppiamo"),
    "nl": ("wij stellen", "we stellen", "wij presenteren", "we presenteren", "wij introduceren", "we introduceren"),
    "ru": ("предлагаем", "представляем", "предложен", "разработали"),
    "ar": ("نقترح", "نقدم", "نطرح"),
}

#: How many opening sentences are read for the contribution: it comes early.
_READ_SENTENCES = 6
_READ_CHARS = 4000


@dataclass(frozen=True)
class NativeText:
    """A non-English abstract's title and summary, and where the title came from."""

    title: str
    summary: str
    #: "contribution" when a sentence states what the paper does, else "headline" (the first sentence).
    source: str


def is_dense(text: str) -> bool:
    """Return True when most letters of `text` are Chinese, Japanese or Korean characters (no spaces between words)."""
    letters = [ch for ch in text[:_READ_CHARS] if ch.isalpha()]
    dense = sum(_is_dense_char(ch) for ch in letters)
    return bool(letters) and dense * 2 > len(letters)


def _is_dense_char(ch: str) -> bool:
    code = ord(ch)
    # CJK ideographs (and extension A, compatibility), Hiragana, Katakana, Hangul syllables.
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF
            or 0x3040 <= code <= 0x30FF or 0xAC00 <= code <= 0xD7AF)


def sentences_of(text: str, dense: bool) -> list[str]:
    """Split a paragraph into sentences, by the punctuation of its script."""
    text = " ".join(text[:_READ_CHARS].split())
    if dense:
        return [part for part in _DENSE_SENTENCE.split(text) if part.strip()]
    parts: list[str] = []
    start = 0
    for match in _SPACED_SENTENCE.finditer(text):
        if _ABBREVIATION.search(text[start : match.start()]):
            continue
        parts.append(text[start : match.start()])
        start = match.end()
    parts.append(text[start:])
    return [part for part in parts if part.strip()]


def native_text(plain: str, lang: str, max_title: int, max_summary: int, tldr: str = "") -> NativeText:
    """Return the title and summary of an abstract in language `lang` (an ISO 639-1 code), in its own script."""
    dense = is_dense(plain)
    parts = sentences_of(plain, dense)
    if not parts:
        return NativeText("", shorten(" ".join(tldr.split()), max_summary, dense), "headline")
    cues = _CONTRIBUTION.get(lang, ())
    index = next((i for i, s in enumerate(parts[:_READ_SENTENCES]) if any(c in s.lower() for c in cues)), None)
    sentence = parts[0 if index is None else index]
    share = _DENSE_SHARE if dense else 1.0
    # A title cut at a clause boundary is whole as it is; only a cut inside a clause says so ("…").
    head = _without_end(sentence) if index is None else _without_lead_in(_without_end(sentence), dense, cues)
    title = shorten(head, int(max_title * share), dense, clause_mark="")
    summary = " ".join(tldr.split()) or shorten(sentence, int(max_summary * share), dense)
    return NativeText(title, summary, "headline" if index is None else "contribution")


def _without_end(sentence: str) -> str:
    return sentence.rstrip().rstrip("。．.！!？?…؟")


def _without_lead_in(sentence: str, dense: bool, cues: tuple[str, ...]) -> str:
    """Drop the clauses before the one stating the contribution ("En nous appuyant sur X, nous proposons Y").

    Only when the contribution's words come after them: "Diffusionsmodelle sind langsam, wir schlagen X vor"
    loses its lead-in, "Wir schlagen X vor, das ..." keeps its first clause. In Chinese and Japanese the
    title starts at the clause holding those words, wherever it is: a Japanese clause ends on its verb
    ("本研究では、X を分析し、Y を提案する" -> "Y を提案する").
    """
    if dense:
        lowered = sentence.lower()
        first = min((at for cue in cues if (at := lowered.find(cue)) >= 0), default=-1)
        starts = [m.end() for m in _DENSE_CLAUSE.finditer(sentence, 0, max(first, 0))]
        return sentence[starts[-1] :].lstrip() if first > 0 and starts else sentence
    match = _SPACED_LEAD_IN.match(sentence)
    if match is None:
        return sentence
    lead, rest = sentence[: match.end()].lower(), sentence[match.end() :]
    if any(cue in lead for cue in cues) or not any(cue in rest.lower() for cue in cues):
        return sentence
    return rest[:1].upper() + rest[1:] if not dense and rest[:1].islower() else rest


def shorten(sentence: str, max_chars: int, dense: bool, clause_mark: str = "…") -> str:
    """Cut `sentence` to `max_chars`: at the last clause boundary that keeps enough of it, else at a word boundary.

    A cut inside a clause ends in "…"; one at a clause boundary in `clause_mark`.
    """
    if len(sentence) <= max_chars:
        return sentence
    head = sentence[: max_chars - 1]
    # A clause may fill the limit to its last character: its boundary is the character after.
    clauses = [m.start() for m in (_DENSE_CLAUSE if dense else _SPACED_CLAUSE).finditer(sentence, 0, max_chars + 1)]
    clauses = [at for at in clauses if at + len(clause_mark) <= max_chars]
    if clauses and clauses[-1] >= _CLAUSE_SHARE * max_chars:
        return sentence[: clauses[-1]].rstrip(" ,;:-–—،؛") + clause_mark
    if dense:
        # Between two characters, but never inside a run of Latin letters or digits ("GSM8K", "3.5").
        run = re.search(r"[A-Za-z0-9.%+-]+$", head)
        inside = run and run.start() > 0 and re.match(r"[A-Za-z0-9]", sentence[len(head) : len(head) + 1])
        cut = run.start() if run and inside else len(head)
        return head[:cut].rstrip(" ，、；：,;:") + "…"
    words = head.rsplit(" ", 1)[0] if " " in head else head
    return words.rstrip(" ,;:-–—") + "…"
