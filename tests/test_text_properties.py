"""Property-based tests: the reader and the text normaliser on arbitrary text."""

from __future__ import annotations

import html
import re
import unicodedata

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.errors import DigestError
from generator.read import decode, parse_digest
from generator.render import front_matter_string
from generator.text import clean, escape_line, to_markdown, to_plain

# Every code point, surrogates and controls included.
ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
ANY_TEXT = st.text(alphabet=ANY_CHAR, max_size=300)
# Text that looks like abstracts: words, digits, markup characters, spaces, no LaTeX commands.
MARKUP_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("abcdefxyzGRACE0123456789 $*_[](){}<>&#!|~^=:;.,-'\"`/%@\n\t")),
        ANY_CHAR.filter(lambda c: c != "\\"),
    ),
    max_size=200,
)
MANY = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ascii_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", unicodedata.normalize("NFC", html.unescape(text))))


@MANY
@given(ANY_TEXT)
def test_normaliser_never_crashes_and_gives_valid_utf8(text: str) -> None:
    for output in (clean(text), to_markdown(text), to_plain(text), escape_line(text)):
        output.encode("utf-8")  # raises on a lone surrogate
        assert "\n" not in output and "\x00" not in output
        assert not re.search("[\ue000-\uf8ff]", output)


@MANY
@given(MARKUP_TEXT)
@example("50% of a_b and $a%b$ and &amp; {word} [x](javascript:y) [t](https://u.v/w)")
@example("generaliza- tion **bold** *em* `code` ~10 --- `` quotes ''")
def test_every_word_of_the_input_is_in_the_plain_text(text: str) -> None:
    plain = to_plain(text)
    missing = [w for w in ascii_words(text) if w not in plain]
    assert not missing, (text, plain, missing)


@MANY
@given(ANY_TEXT)
def test_reader_never_crashes_on_arbitrary_text(text: str) -> None:
    _collection, paragraphs = parse_digest(text, "default")
    for paragraph in paragraphs:
        paragraph.text.encode("utf-8", "surrogatepass")
        assert "\n" not in paragraph.text and paragraph.text == paragraph.text.strip()


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=200))
def test_decoding_arbitrary_bytes_gives_text_or_a_clear_error(data: bytes) -> None:
    try:
        text = decode(data, "x.txt")
    except DigestError as error:
        assert str(error).startswith("x.txt:") and "byte offset" in str(error)
    else:
        assert "\r" not in text


@MANY
@given(ANY_TEXT)
def test_front_matter_strings_round_trip_through_yaml(text: str) -> None:
    quoted = front_matter_string(text)
    loaded = yaml.safe_load(f"title: {quoted}\n")
    value = loaded["title"]
    # Read as HTML, it is the text; it holds no markup, no attribute end, no character reference of its own.
    assert html.unescape(value) == " ".join(clean(text).split())
    assert not re.search(r'[<>"]', value)
    assert all(m.group(0).startswith(("&amp;", "&lt;", "&gt;", "&quot;")) for m in re.finditer(r"&[#A-Za-z0-9]+;?", value))
