"""Clean a candidate title: markup, casing, brackets, dangling ends, lifted clauses.

`polish` turns a phrase cut from an abstract into a title as a venue would
print it (`defects.title_defects` then names what is still broken). Pure
functions of text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources


def word_set(text: str) -> frozenset[str]:
    """Return the words of a space-separated list."""
    return frozenset(text.split())


SMALL_WORDS = word_set(
    "a an and as at but by for from in into nor of on onto or over the to up via vs with without per "
    "than"
)
# Words that promise a continuation: a title cut right after one reads unfinished
# ("... Response Quality Based", "... Models Using").
NEEDS_MORE = word_set(
    "based using that which whose where while when such through including across between toward "
    "towards leveraging given like against beyond within among along under is are was were be been "
    "can will this these those their our its we us it they them whether how aims seeks tends needs "
    "attempts tries allows enables helps requires fails struggles remains serves see"
)
# Words that point at something outside the title ("... Resolves These Issues").
_SUPERSCRIPTS = str.maketrans("0123456789+-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿ")
_POWER = re.compile(r"\^\{?([0-9+\-n]{1,3})\}?")
_SUBSCRIPT = re.compile(r"_\{?([A-Za-z0-9]{1,3})\}?")
# ("N > 5000 LLMs" keeps its comparison: dropping it gave "N 5000 LLMs".)
_STRAY = re.compile(r"[\\$*_`{}^~|#\"“”]|(?<!\s)[<>]|[<>](?!\s\d)")
# "cApability", "reinfOrcement": a word typeset to spell an acronym, not a name's own casing.
_ACRONYM_CASED = re.compile(r"^[a-z]+[A-Z][a-z]{2,}$|^[a-z]{2,}[A-Z][a-z]+$|^[a-z]{5,}[A-Z]$")
_LEADING_BOTH = re.compile(r"^(?:Both|Either)\s+(?=\S+\s+\S)")
# "A Efficient" and "A LLM" are said "An": a vowel, or an acronym whose first letter's name starts with one
# ("An LLM", "An RL Agent", "An SVM", "An Ultra-Light", "An Unsupervised"; but "A Unified", "A UNet", "A GAN").
_A_VOWEL = re.compile(r"\bA (?=[AEIO][a-z]|U(?:lt|n(?!i)|pp|mb)|[AEFHILMNORSX][A-Z0-9]+s?\b)")
# Typeset ligatures a PDF's text keeps ("ﬁrst" is "first"): a title spells the letters.
_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"})
_EMPTY_BRACKETS = re.compile(r"\(\s*\)")


def math_as_text(text: str) -> str:
    """Render simple math in a name as text: "BrainM^3" -> "BrainM³", "x_{t}" -> "xt"."""
    if "^" in text:
        text = _POWER.sub(lambda m: m.group(1).translate(_SUPERSCRIPTS), text)
    if "_" in text:
        text = _SUBSCRIPT.sub(r"\1", text)
    return text


@lru_cache(maxsize=1)
def dictionary() -> frozenset[str]:
    """Return the lowercase words common in abstracts (generator/data/words.txt)."""
    text = resources.files("generator").joinpath("data/words.txt").read_text(encoding="utf-8")
    return frozenset(text.split())


def acronym_cased(part: str) -> bool:
    """Return True for a dictionary word typeset to spell an acronym ("cApability", "reinfOrcement")."""
    # Only a dictionary word is mended: "fastText" or "mixGen" are names, "cApability" is not.
    if len(part) < 5 or not part.isalpha() or part.islower():
        return False
    if part[0].isupper():
        # "REward Learning": two capitals opening a dictionary word spell the acronym's letters.
        return part[1].isupper() and part[2:].islower() and len(part) >= 6 and part.lower() in dictionary()
    return part.lower() in dictionary()


def mend_casing(word: str) -> str:
    """Lower a word whose capitals spell an acronym inside it ("cApability" -> "capability")."""
    if word.islower() or word.isupper():
        return word
    return "-".join(part.lower() if acronym_cased(part) else part for part in word.split("-"))


def mend_expansion(text: str) -> str:
    """Write an acronym's expansion as words: "Length-bAsed StEp Reward" -> "Length-Based Step Reward".

    One capital inside a word of an expansion marks the acronym's letter ("bAsed", "extensioN");
    a word with more ("RoPE") is a name and keeps its casing.
    """
    words = []
    for word in text.split():
        parts = word.split("-")
        words.append("-".join(
            p[:1].upper() + p[1:].lower() if p.isalpha() and sum(c.isupper() for c in p[1:]) == 1 else p
            for p in parts
        ))
    return " ".join(words)


def title_case(text: str) -> str:
    """Capitalise like a venue title, keeping acronyms and names as written."""
    text = _STRAY.sub("", math_as_text(text)).strip().strip(" ,;:").rstrip(".")
    out: list[str] = []
    for i, word in enumerate(text.split()):
        word = mend_casing(word)
        lower = word.lower()
        if i > 0 and lower in SMALL_WORDS and not out[-1].endswith(":"):
            out.append(lower)
        else:
            # Capitalise each all-lowercase part ("length-based" -> "Length-Based");
            # keep parts with capitals as written (acronyms, names: "GaLLoP" stays), and
            # math as the authors wrote it: "π³" is never "Π³".
            out.append("-".join(
                p[:1].upper() + p[1:] if p.islower() and p[:1].isascii() else p for p in word.split("-")
            ))
    return " ".join(out)


def drop_dangling(words: list[str]) -> list[str]:
    """Drop trailing words a title must not end on ("of", "and", "using", "these")."""
    while len(words) > 1 and (
        words[-1].lower().strip(",;:") in SMALL_WORDS
        or words[-1].lower().strip(",;:") in NEEDS_MORE
        or words[-1].endswith(("(", "-", "/"))
        or len(words[-1].strip(",.;:")) < 2
    ):
        words = words[:-1]
    if words:
        words[-1] = words[-1].rstrip(",;:")
    return words


def balance_brackets(text: str) -> str:
    """Remove brackets that do not close (or open) within the title."""
    for left, right in ("()", "[]", "{}"):
        while text.count(left) != text.count(right):
            index = text.rfind(left) if text.count(left) > text.count(right) else text.find(right)
            text = (text[:index] + text[index + 1 :]).replace("  ", " ")
    return text.strip()


# A relative clause lifted from a sentence, said as a title says it: "Framework Designed for X" and
# "Framework Capable of X" -> "Framework for X"; "Method That Aims to X" -> "Method to X"; "Framework
# That Integrates X" -> "Framework Integrating X" (when the "-ing" form is a word of the dictionary).
_FOR_CLAUSE = re.compile(r"(?<=\w) (?:Designed|Tailored|Developed|Built|Intended|Specifically Designed) for ")
_CAPABLE_OF = re.compile(r"(?<=\w) Capable of (?=\w+ing\b)")
_AIMS_TO = re.compile(r"(?<=\w) (?:That|Which) (?:Aims|Seeks|Tries|Strives) to ")
_THAT_VERB = re.compile(
    r"\b((?:Framework|Method|Approach|Model|System|Pipeline|Algorithm|Benchmark|Dataset|Tool|Technique|"
    r"Strategy|Paradigm|Architecture|Module|Mechanism|Network|Agent|Simulator|Metric|Loss|Objective|Scheme|"
    r"Library|Platform|Suite|Environment|Procedure|Estimator|Policy|Encoder|Decoder|Layer|Regularizer|"
    r"Attack|Defense|Protocol|Solver|Optimizer|Planner|Generator|Formulation|Criterion|Bonus)) "
    r"(?:That|Which) ([A-Z][a-z]{2,}s) (?!(?:[Tt]hat|[Ii]s|[Aa]re)\b)"
)


_AND_VERB = re.compile(r"\s(?:and|or)\s[A-Z][a-z]+s\b")


def _gerund(verb: str) -> str:
    """Return the "-ing" form of a verb in the third person ("Integrates" -> "Integrating"), or ''."""
    stem = verb[:-1].lower()
    forms = [stem + "ing", stem[:-1] + "ing" if stem.endswith("e") else "", stem + stem[-1] + "ing"]
    if stem.endswith(("sse", "she", "che", "xe", "ze")):
        forms.insert(0, stem[:-1] + "ing")  # "Processes" -> "Processing"
    words = dictionary()
    known = next((form for form in forms if form and form in words), "")
    return known.capitalize() if known else ""


def compress(text: str) -> str:
    """Return a title with its lifted relative clauses said briefly (see above); `text` is title-cased."""
    # Most titles have none of these words: the regexes run only where they can match (titles are hot).
    if " for " in text and ("Designed" in text or "Tailored" in text or "Developed" in text or "Built" in text
                            or "Intended" in text):
        text = _FOR_CLAUSE.sub(" for ", text)
    if " Capable of " in text:
        text = _CAPABLE_OF.sub(" for ", text)
    if " That " not in text and " Which " not in text:
        return text
    text = _AIMS_TO.sub(" to ", text)
    match = _THAT_VERB.search(text)
    # "... That Accelerates X and Employs Y": a second verb would be left in the third person.
    if match is None or _AND_VERB.search(text, match.end() - 1) or not _gerund(match.group(2)):
        return text
    return f"{text[: match.start()]}{match.group(1)} {_gerund(match.group(2))} {text[match.end():]}"


# "1)", "(ii)", "(a)": an item marker of the abstract's own list, never a title's word.
_LIST_ITEM = re.compile(r"(?:^|(?<=\s))\(?(?:\d{1,2}|[ivx]{1,4}|[a-h])\)(?=\s|$)")


# "NAME: A Novel Approach", "NAME: Innovative Protein Generation Model", "NAME: First Large-Scale ...": a
# strict reader calls the praise promotional and "First Benchmark" clumsy; the description says what it is.
# ("Novel" stays where it is a term, "Novel View Synthesis", and where a manner follows: "in a Novel Way".)
_PROMOTION = re.compile(
    r"\b(?:([Aa])n? (?:Novel|Innovative|Brand-New)|Innovative)(?: and)? (?!Yet\b|Way\b|Fashion\b|Manner\b|"
    r"Perspective\b|View\b|Insight\b|Angle\b|Lens\b)(?=\w)"
)
_FIRST = re.compile(r"(: |, [Aa] )(?:The )?First (?=[A-Z])")
# "BIRD, a Probabilistic ...", "HydraMDP++, an End-To-End ...": the lowercase article after a name and a comma.
_A_VOWEL_AFTER_COMMA = re.compile(_A_VOWEL.pattern.replace(r"\bA ", r"(?<=, )a "))


def unpromoted(title: str) -> str:
    """Return a named title's description without praise ("A Novel", "Innovative") or a claim to be first.

    "NAME: First Benchmark for X" reads "NAME: A Benchmark for X". Applied to the title chosen, not to
    candidates: their checks and ranking read the words as the abstract has them.
    """
    if "Novel" in title or "Innovative" in title or "Brand-New" in title:
        title = _PROMOTION.sub(lambda m: f"{m.group(1)} " if m.group(1) else "", title)
    if "First " in title:
        title = _FIRST.sub(lambda m: m.group(1) if m.group(1).startswith(",") else ": A ", title)
    return _A_VOWEL_AFTER_COMMA.sub("an ", _A_VOWEL.sub("An ", title))


def first_upper(text: str) -> str:
    """Return the text with its first letter in capitals; math keeps its case ("π³, ..." is never "Π³, ...")."""
    return text[:1].upper() + text[1:] if text[:1].isascii() else text


def polish(text: str) -> str:
    """Return `text` as a clean title: no markup, balanced brackets, no dangling end, venue casing."""
    if ")" in text:
        text = _LIST_ITEM.sub("", text)
    text = text.translate(_LIGATURES)
    # "Over-Refusal—the Tendency ...": a dash joins another sentence's words; the title ends before it.
    head = text.split("\u2014", 1)[0]
    if len(head.split()) >= 3:
        text = head
    text = compress(balance_brackets(" ".join(title_case(text).split())))
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1]  # "(Budget-Aware Logit Editing)": the brackets held the expansion, the title is it
    text = _A_VOWEL.sub("An ", _EMPTY_BRACKETS.sub("", text) if "(" in text else text)
    # "Both X and Y" cut from "performs both X and Y": a title does not start with "Both".
    text = _LEADING_BOTH.sub("", text)
    return " ".join(drop_dangling(text.split())).strip(" ,;:")

