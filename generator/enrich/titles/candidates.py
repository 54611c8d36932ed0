"""Candidate titles cut from an abstract, each with the features the title model weighs.

A candidate is a span of one sentence that starts where a title plausibly
starts (after "we propose a", "we study", "we show that", at the sentence's
start, after "by introducing") and ends at a phrase boundary (before a
preposition, a relative pronoun, a comma, the sentence's end), or a phrase
that spells out or describes the paper's own name. Features are plain numbers:
where the span is, how long, how it ends, and how salient its words are in
this abstract against the corpus (`Vocabulary`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from functools import lru_cache

from .cleaning import NEEDS_MORE, SMALL_WORDS, word_set
from .compress import PARENTHETICAL, PUNCT, Compressor, compressions, keys_of, sentence_words
from .contribution import READ_SENTENCES, Scorer, sentence_scores, states_contribution
from .defects import title_defects
from .features import Candidate, SpanContext, Vocabulary, spans

# A sentence ends at . ! ? after a word of two or more characters (not "e.g.",
# "Fig.", "1."), before a capital.
_SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9%)\]\"”'][A-Za-z0-9%)\]\"”'][.!?])\s+(?=[A-Z\"“(\[])")
_ABBREVIATION_END = re.compile(r"\b(?:e\.g|i\.e|et al|etc|vs|Fig|Eq|Sec|resp|cf|approx)\.$", re.I)
# A sentence's lead-in, a whole word ("In", never the start of "Inspired": "Spired by ..." was a title).
_LEADERS = re.compile(
    r"^(?:(?:in(?=\s*,)|to (?:this|that) end|to address (?:this|these)(?: \w+)?|"
    r"to (?:tackle|overcome|bridge|fill|solve) "
    r"(?:this|these|the)(?: \w+){0,2}|in this (?:paper|work|study)|here|therefore|thus|specifically|consequently|"
    r"to this end|motivated by (?:this|these)(?: \w+)?|building on (?:this|these)(?: \w+)?|concretely|instead|"
    r"however|moreover|finally|overall|in particular|in addition|additionally|furthermore|first|second|third|"
    r"based on (?:this|these)(?: \w+)?)(?![\w-])\s*,?\s*)+",
    re.I,
)
# (The lookahead on the first letter lets the scan skip most positions at once.)
_CUE = re.compile(
    r"(?=[wWtToO])\b(?:we|this (?:paper|work|study)|our (?:work|paper))\s+(?:\w+ly\s+)?"
    r"(?:also\s+|further\s+|first\s+|then\s+)?"
    r"(introduce|propose|present|develop|design|study|investigate|show|demonstrate|analy[sz]e|explore|examine|"
    r"establish|prove|provide|derive|revisit|identify|address|tackle|formulate|consider|find|characteri[sz]e|"
    r"build|construct|release|curate|offer|leverage|extend|reveal|focus on|take|argue|theoretically show|"
    r"describe|report|evaluate|learn|use|aim|seek)(?:s|d|ed)?\b\s*(?:that\s+|to\s+|how\s+)?",
    re.I,
)
_BY_INTRODUCING = re.compile(
    r"(?=[bB])\bby (?:introducing|proposing|developing|presenting|designing|building|using) ", re.I
)
_OPENING = re.compile(
    r"^(?:(?:a|an|the)\s+)?(?:(?:new|novel|simple|general|first|unified|principled|simple yet effective|"
    r"effective|efficient|innovative|straightforward|comprehensive|systematic|generic)\s+|yet\s+|,\s*)*",
    re.I,
)
#: The verb families a span can follow, in the order of the kind features.
_CUE_KINDS = {
    "introduce": "propose", "propose": "propose", "present": "propose", "develop": "propose", "design": "propose",
    "build": "propose", "construct": "propose", "release": "propose", "curate": "propose", "offer": "propose",
    "formulate": "propose", "study": "study", "investigate": "study", "analyze": "study", "analyse": "study",
    "explore": "study", "examine": "study", "revisit": "study", "characterize": "study", "characterise": "study",
    "consider": "study", "focus on": "study", "show": "show", "demonstrate": "show", "prove": "show",
    "find": "show", "reveal": "show", "establish": "show", "argue": "show", "theoretically show": "show",
}
# "for autonomous driving", "in offline reinforcement learning": what a method is for, which real
# titles add to its description ("3CIL: Causality-Inspired ... Imitation Learning for Autonomous Driving").
_FOR_PHRASE = re.compile(
    r"(?=[fi])\b(?:for|in)\s+(?!(?:the|this|these|those|our|its|their|a|an|each|which|order|terms|particular|addition|"
    r"contrast|practice|general|both|such|many|most|some|all|any|other|turn|part|summary|short|fact|detail|"
    r"comparison|total|doing|response|return|light|line|which|that|this)\b)"
)
_FOR_WORDS = 6
#: Descriptions and "for" phrases combined at most (the ranker weighs each combination).
_COMBINED = 6
# In the sentence that introduces the name, what it is for: "ENACT, a benchmark that probes ...
# through world modeling from egocentric interaction".
_PURPOSE = re.compile(
    r"\b(?:through|via|(?:framework|benchmark|method|approach|model|dataset|system|algorithm|suite|toolkit|"
    r"environment|pipeline|technique|metric|testbed|library)s? (?:for|to)) (?=[a-z])"
)
# The word after a span that makes its end a phrase boundary.
_BOUNDARY_NEXT = SMALL_WORDS | NEEDS_MORE | word_set(
    "that which who where while whereas using based through leveraging achieves achieve outperforms "
    "enables allows improves yields shows demonstrates can could may might should would must has have "
    "had do does significantly substantially thereby"
)
_MIN_WORDS, _MAX_WORDS = 3, 14
#: How many sentences are read for candidates: titles come from the opening and the contribution.
_SENTENCES = 8

def sentences(plain: str) -> list[str]:
    """Split plain text into sentences."""
    return list(_sentences(plain))


@lru_cache(maxsize=8)
def _sentences(plain: str) -> tuple[str, ...]:
    # Kept: titles, their safe form and the summary all split the same abstract.
    parts: list[str] = []
    for piece in _SENTENCE_END.split(plain):
        piece = piece.strip()
        if not piece:
            continue
        # (Only the last characters can hold the abbreviation: the search starts there.)
        if parts and _ABBREVIATION_END.search(parts[-1], max(len(parts[-1]) - 9, 0)):
            parts[-1] = f"{parts[-1]} {piece}"
        else:
            parts.append(piece)
    return tuple(parts)


def term_counts(plain: str) -> Counter[str]:
    """Count each word key of the abstract."""
    return Counter(word.strip(PUNCT) for word in plain.lower().split())


def generate(
    plain: str, vocabulary: Vocabulary, name: str = "", described: list[tuple[str, str]] | None = None,
    from_name: bool = True, sentence_scorer: Scorer | None = None, compressor: Compressor | None = None,
    only: int | None = None,
) -> list[Candidate]:
    """Return the candidate titles of an abstract, in a stable order (sentence, start, length).

    With a `name` and `from_name`, sentences before the one that first mentions the name are skipped.
    With a `sentence_scorer`, each candidate weighs the score of its sentence; with a `compressor`,
    a paper without a name also gets titles compressed from its best-scored sentences. With `only`
    (a paper without a name), just the candidates of that sentence, as the whole list holds them.
    """
    counts = term_counts(plain)
    read = sentences(plain)[:READ_SENTENCES]
    parts = read[:_SENTENCES]
    contribution = next((i for i, s in enumerate(parts) if _CUE.search(s)), 0)
    # Scored among the sentences the scorer reads (the same scores the summary's choice sees).
    scores = tuple(sentence_scores(read, sentence_scorer)[: len(parts)]) if sentence_scorer else (0.0,) * len(parts)
    context = SpanContext(counts, vocabulary, name.lower(), contribution, -1, scores)
    out: list[Candidate] = []
    for kind, phrase in described or ():
        words = phrase.split()
        if words:
            # An expansion is taken whole; a description may be cut at any phrase boundary.
            keys = keys_of(words)
            ends = [len(words)] if kind == "expansion" or len(words) <= _MIN_WORDS else _ends(words, keys)
            out.extend(spans(words, keys, ends or [len(words)], kind, -1, context))
    if name and described:
        out.extend(_combined(out, parts, context))
    # A named paper's description comes from where the name is introduced or later:
    # "NAME: <the problem the opening sentence states>" would misstate what NAME is.
    mention = next((i for i, s in enumerate(parts) if name and name in s), -2) if name else -2
    first = max(mention, 0) if from_name else 0
    for index, sentence in enumerate(parts):
        if index < first or (only is not None and index != only):
            continue
        if name and not from_name and index < (mention if mention >= 0 else len(parts)) and not (
            states_contribution(sentence)
        ):
            # Before the name is introduced, only a sentence saying what the paper does describes it:
            # the background put "ClusComp: As Bit-Width Decreases, ..." and "PDETime: Recent Advancements
            # in Deep Learning" on pages.
            continue
        context = SpanContext(counts, vocabulary, name.lower(), contribution, index if index == mention else -2, scores)
        if "(" in sentence or "[" in sentence:
            sentence = PARENTHETICAL.sub("", sentence)
        if "—" in sentence:
            # An em dash ends a phrase as a comma does ("Models—adapting").
            sentence = sentence.replace("—", ", ")
        starts = _starts(sentence, index)
        if index == mention:
            starts += [("purpose", m.end()) for m in _PURPOSE.finditer(sentence, sentence.find(name))]
        for kind, offset in starts:
            words = sentence[offset:].split()[: _MAX_WORDS + 1]
            keys = keys_of(words)
            out.extend(spans(words, keys, _ends(words, keys), kind, index, context))
    if compressor and not name:
        out.extend(_compressed(parts, scores, compressor, context, only))
    return out


#: Sentences (the best-scored) a title is compressed from.
_COMPRESSED_SENTENCES = 3


def _compressed(
    parts: list[str], scores: tuple[float, ...], compressor: Compressor, context: SpanContext, only: int | None = None
) -> list[Candidate]:
    """Return the titles the compressor keeps from the best-scored sentences (`compress.py`; `only`: of that one)."""
    vocabulary = context.vocabulary
    best = sorted(range(len(parts)), key=lambda i: (-scores[i], i))[:_COMPRESSED_SENTENCES]
    out: list[Candidate] = []
    for index in sorted(best):
        if only is not None and index != only:
            continue
        words = sentence_words(parts[index])
        rates = word_rates(words, vocabulary)
        for compression in compressions(compressor, words, rates, index):
            kept = [w.strip(PUNCT) for w in compression.words]
            kept = [w for w in kept if w]
            keys = keys_of(kept)
            if len(kept) >= _MIN_WORDS:
                margin = replace(context, margin=compression.margin)
                out.extend(spans(kept, keys, [len(kept)], "compressed", index, margin))
    return out


def word_rates(words: list[str], vocabulary: Vocabulary) -> list[int]:
    """Return how often each word reaches real titles, in tenths (0-9): a feature of the compressor."""
    rates, unknown = vocabulary.title_rate, vocabulary.unknown_rate
    return [min(int(10 * rates.get(key, unknown)), 9) for key in keys_of(words)]


def _combined(described: list[Candidate], parts: list[str], context: SpanContext) -> list[Candidate]:
    """Return descriptions of the name followed by what it is for: "<expansion> for <task>"."""
    heads = [c for c in described if c.kind in ("expansion", "appositive", "before") and len(c.text.split()) <= 8]
    # (Not a head cut after "capable" or "designed": "Foundation Model Capable for Training" was a title.)
    heads = [c for c in heads if " for " not in c.text and " in " not in c.text
             and "ending" not in title_defects(c.text)][:3]
    if not heads:
        return []
    purposes: list[str] = []
    for sentence in parts[:6]:
        if "(" in sentence or "[" in sentence:
            sentence = PARENTHETICAL.sub("", sentence)
        for match in _FOR_PHRASE.finditer(sentence):
            words = sentence[match.end():].split()[:_FOR_WORDS + 1]
            keys = keys_of(words)
            for end in range(1, min(len(words), _FOR_WORDS) + 1):
                key, last = keys[end - 1], words[end - 1]
                if not key or key in SMALL_WORDS or key in NEEDS_MORE:
                    continue
                if last[-1] in ".,;:!?" or end == len(words) or keys[end] in _BOUNDARY_NEXT:
                    purposes.append(f"{match.group(0).split()[0]} {' '.join(words[:end]).rstrip('.,;:!?')}")
                    if last[-1] in ".,;:!?":
                        break
    out: list[Candidate] = []
    for head in heads:
        for purpose in purposes:
            if len(out) == _COMBINED:
                return out
            words = f"{head.text} {purpose}".split()
            keys = keys_of(words)
            out.extend(spans(words, keys, [len(words)], "combined", -1, context))
    return out


def _starts(sentence: str, index: int) -> list[tuple[str, int]]:
    """Return (kind, character offset) where a title may start in the sentence."""
    starts: list[tuple[str, int]] = []
    if index < 3:
        lead = _LEADERS.match(sentence)
        starts.append(("sentence", lead.end() if lead else 0))
    for cue in _CUE.finditer(sentence):
        verb = cue.group(1).lower()
        verb = verb[:-1] if verb.endswith("s") and verb[:-1] in _CUE_KINDS else verb
        opening = _OPENING.match(sentence, cue.end())
        starts.append((_CUE_KINDS.get(verb, "cue"), opening.end() if opening else cue.end()))
    for by in _BY_INTRODUCING.finditer(sentence):
        opening = _OPENING.match(sentence, by.end())
        starts.append(("by", opening.end() if opening else by.end()))
    return starts


def _ends(words: list[str], keys: list[str]) -> list[int]:
    """Return each span length at a phrase boundary, from _MIN_WORDS to _MAX_WORDS words (keys: their word_key)."""
    ends = []
    for end in range(1, min(len(words), _MAX_WORDS) + 1):
        last = words[end - 1]
        # (a colon right after the opening name, "MENTOR: Mixed-Policy ...", does not end the phrase)
        clause_end = last[-1] == ";" or (last[-1] == ":" and end >= _MIN_WORDS)
        if clause_end or (last[-1] == "," and end < len(words) and keys[end].endswith("ing")):
            if end >= _MIN_WORDS and keys[end - 1] not in SMALL_WORDS:
                ends.append(end)
            break  # ", enabling ...", "; we ...": what follows is another clause
        key = keys[end - 1]
        if end < _MIN_WORDS or not key or key in SMALL_WORDS or key in NEEDS_MORE or last.endswith(("(", "-", "/")):
            continue
        if last[-1] == "," and ("and" in keys[end : end + 4] or "or" in keys[end : end + 4]):
            continue  # "Diverse, Verifiable, and Controllable": a list goes on after the comma
        if last[-1] in ".,;:!?)" or end == len(words) or keys[end] in _BOUNDARY_NEXT:
            ends.append(end)
    return ends
