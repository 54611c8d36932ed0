"""The language an abstract is written in, and the languages the site's interface can speak.

Detection is py3langid's (a naive Bayes classifier over byte n-grams, its model
shipped inside its wheel: nothing is downloaded). Measured by
bench/language_detection.py: every abstract of the test set (Chinese, German,
French, Spanish, Japanese; whole, first sentence, first 40 characters) right,
none of the 103,015 English abstracts of the corpora (ICLR 2024 and 2025, other
venues, other fields) taken for another language, and the English winner's lead
over the next language never under 45 (log probability), far beyond any
difference in the last bits of a float.

Most English abstracts never reach the model: one whose opening uses English's
commonest words (`_ENGLISH_WORDS`, none of them a word of another language the
detector knows well) is English. That decides 99.8% of the corpora's English
abstracts and none of the test set's (the model costs about 1.7 ms an abstract,
and 1.5 to 2.5 s to load); the model decides the rest.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

#: The language of an abstract the detector cannot judge (too few letters), and the interface's default.
ENGLISH = "en"

#: The languages Material for MkDocs translates its interface into (`theme.language`), as of 9.8:
#: its templates/partials/languages/ (tests/test_languages.py checks the installed theme against it).
MATERIAL_LANGUAGES = (
    "af", "ar", "az", "be", "bg", "bn", "ca", "cs", "cy", "da", "de", "el", "en", "eo", "es", "et", "eu", "fa",
    "fi", "fr", "gl", "he", "hi", "hr", "hu", "hy", "id", "is", "it", "ja", "ka", "kn", "ko", "ku-IQ", "lb", "lt",
    "lv", "mk", "mn", "ms", "my", "nb", "nl", "nn", "pl", "pt", "pt-BR", "ro", "ru", "sa", "sh", "si", "sk", "sl",
    "sq", "sr", "sv", "ta", "te", "th", "tl", "tr", "uk", "ur", "uz", "vi", "zh", "zh-Hant", "zh-TW",
)

#: Languages written right to left (py3langid's labels): their text on a page says so (dir="rtl").
RIGHT_TO_LEFT = frozenset({"ar", "fa", "he", "ps", "ug", "ur", "yi", "dv"})

#: Detector labels Material spells otherwise (langid's Norwegian is Bokmål).
_MATERIAL_SPELLING = {"no": "nb"}

#: Below this many letters a text is not judged: a few words are too little to tell a language by.
_MIN_LETTERS = 12
#: How much likelier (log probability per byte) another language must make a text than English does.
#: The test set's abstracts lead English by 1.1 or more whole or by their first sentence, and by 0.5
#: or more in their first 40 characters; fragments of markup and code by 0.33 or less.
_LEAD_PER_BYTE = 0.4
#: py3langid's label for text without language.
_NO_LANGUAGE = "zxx"
#: Only the opening is read: it tells the language as well as the whole, and a 1 MB abstract stays cheap.
_READ_CHARS = 1500
#: Words of English that are no word of German, French, Spanish, Italian, Portuguese or Dutch.
_ENGLISH_WORDS = frozenset({
    "the", "and", "that", "with", "which", "this", "these", "from", "our", "are", "while", "however", "such",
    "their", "have", "its", "into", "both", "can", "through", "between", "than", "be", "it", "how", "what",
})
#: An opening that has at least this many of them, and at least this share of its words, is English.
_ENGLISH_COUNT, _ENGLISH_SHARE = 4, 0.05
_ENGLISH_OPENING = 600
_WORD = re.compile(r"[^\W\d_]+")

_identifier: Any = None


def _load() -> Any:
    global _identifier  # noqa: PLW0603
    if _identifier is None:
        # Imported here: a run that detects nothing (every abstract cached) never pays for the model (about 1.5 s).
        from py3langid.langid import MODEL_FILE, LanguageIdentifier

        _identifier = LanguageIdentifier.from_model_file(MODEL_FILE)
    return _identifier


def load_detector() -> None:
    """Load the detector's model now (before forking workers, so that they share it)."""
    _load()


def detect_language(text: str) -> str:
    """Return the ISO 639-1 code of the language `text` is written in ("en" when there is too little to tell)."""
    head = text[:_READ_CHARS]
    if sum(ch.isalpha() for ch in head) < _MIN_LETTERS or plainly_english(head):
        return ENGLISH
    # Scores are log probabilities summed in float32 by numpy (its log1p and BLAS differ in the last bits
    # across CPUs): rounded to whole units, so that no such difference decides; a tie goes to English.
    scores = {str(label): round(score) for label, score in _load().rank(head)}
    label = min(scores, key=lambda lang: (-scores[lang], lang != ENGLISH, lang))
    if label in (ENGLISH, _NO_LANGUAGE):
        return ENGLISH
    # Another language must explain the text better than English does, by a margin for every byte: a
    # short fragment of markup or code ("<iframe src=...>") is no language, and stays on the English path.
    lead = scores[label] - scores[ENGLISH]
    return label if lead >= _LEAD_PER_BYTE * len(head.encode("utf-8", "surrogatepass")) else ENGLISH


def plainly_english(text: str) -> bool:
    """Return True when the opening of `text` uses English's commonest words as only English does."""
    words = _WORD.findall(text[:_ENGLISH_OPENING].lower())
    hits = sum(word in _ENGLISH_WORDS for word in words)
    return hits >= _ENGLISH_COUNT and hits >= _ENGLISH_SHARE * len(words)


def dominant_language(languages: list[str]) -> str:
    """Return the language more than half the abstracts are written in; English when none is.

    A digest of many languages, none of them most of it, is read in English: it is the one
    language such a digest's readers are likeliest to share.
    """
    counts = Counter(languages)
    top = min(counts, key=lambda lang: (-counts[lang], lang), default=ENGLISH)
    return top if counts[top] * 2 > len(languages) else ENGLISH


def interface_language(language: str) -> str:
    """Return Material's name for `language`, or English when Material has no translation for it."""
    spelled = _MATERIAL_SPELLING.get(language, language)
    return spelled if spelled in MATERIAL_LANGUAGES else ENGLISH
