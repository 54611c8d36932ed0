"""Titles made by deleting words from a sentence, as authors title a paper after its contribution sentence.

"In this work, we propose a novel self-supervised weighted information bottleneck
method for solving the multi-view clustering problem" -> "Self-Supervised Weighted
Information Bottleneck for Multi-View Clustering". A learned labeller
(`model.py`'s "compress" weights, fitted by scripts/train_title_model.py on real
titles aligned word by word to their abstracts) gives every word of a sentence a
keep score from plain features: the word and its neighbours, its shape, where it
stands from the sentence's cue verb ("we propose"), in which clause, how often
the word reaches real titles. The best keep/drop sequence (a two-state Viterbi
with learned transition weights) is decoded at a few length biases, so each
sentence gives titles of a few lengths; the ranker chooses among them and the
other candidates. Scores are rounded sums in a fixed order: every machine
decodes the same words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import repeat

from .cleaning import SMALL_WORDS

PUNCT = ".,;:!?\"'“”()[]"
# An aside in brackets, not a name's own "(3)" ("E(3)-Equivariant", "SO(3)") nor the start of a word
# ("(ϵ, δ)-DP Algorithms": dropped, it left "An-DP Algorithms").
PARENTHETICAL = re.compile(r"\s*(?<![\w-])[(\[][^()\[\]]*[)\]](?![\w-])")
# "1)", "(ii)", "i)": an item marker of the abstract's own list, never a title's word.
_LIST_ITEM = re.compile(r"(?:^|(?<=\s))\(?(?:\d{1,2}|[ivx]{1,4}|[a-h])\)(?=\s)")
# The verb a title's words most often follow ("we propose a ...", "we study ...").
_CUE = re.compile(
    r"(?=[a-z])\b(?:introduc|propos|present|develop|design|stud(?:y|ie)|investigat|show|demonstrat|analy[sz]|explor|"
    r"examin|prov|find|reveal|establish|buil|construct|releas|curat|offer|formulat|consider|address|tackl|deriv|"
    r"identif)\w*$"
)
_CLAUSE_WORDS = frozenset(("that", "which", "where", "while", "whereas", "whose", "who"))
#: Words of a sentence read at most: a title comes from a sentence's first clauses.
MAX_WORDS = 48
#: Length biases (added to every word's keep score) at which a sentence is decoded.
BIASES = (-1.0, 0.0, 1.0)
MIN_WORDS, MAX_TITLE_WORDS = 3, 14
# A title joins at most two runs of a sentence's words, the second saying what for or how
# ("... Bottleneck" + "for Multi-View Clustering"): freer deletions read as garbled text.
_JOINS = frozenset(("for", "via", "with", "in", "on", "from", "under", "through", "by", "without", "across", "towards",
                    "toward", "beyond", "against"))
SCORE_DECIMALS = 6


@dataclass(frozen=True)
class Compressor:
    """The learned labeller: a weight per word feature, a bias, and the keep/drop transition weights."""

    weights: dict[str, float]
    bias: float
    #: [[drop->drop, drop->keep], [keep->drop, keep->keep]], from the start state as "drop".
    transitions: tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Compression:
    """Words kept from one sentence, and how sure the labeller is of them."""

    words: tuple[str, ...]
    #: Mean keep score of the kept words minus mean keep score of the dropped ones.
    margin: float


def key(word: str) -> str:
    """Return the lowercase form of a word without its punctuation."""
    return word.strip(PUNCT).lower()


def keys_of(words: list[str]) -> list[str]:
    """Return the key of each word (one comprehension: this runs for every word read)."""
    return [word.strip(PUNCT).lower() for word in words]


def sentence_words(sentence: str) -> list[str]:
    """Return the words of a sentence a title may keep: no aside in brackets, no list marker, a dash as a comma."""
    if "(" in sentence or "[" in sentence:
        sentence = _LIST_ITEM.sub(" ", sentence)
        sentence = PARENTHETICAL.sub("", sentence)
    return sentence.replace("\u2014", ", ").split()[:MAX_WORDS]


def word_features(words: list[str], keys: list[str], rates: list[int], sentence: int) -> list[list[str]]:
    """Return each word's active features (names only: every feature is 0 or 1)."""
    cue = next((i for i, k in enumerate(keys) if _CUE.match(k)), -1)
    clause, out = 0, []
    # (The same features as spelled out per word, built with fewer steps: this runs for every word read.)
    padded = ["<s>", "<s>", *keys, "</s>", "</s>"]
    length = len(words)
    sentence_feature = "sentence=" + str(min(sentence, 5))
    for i, (word, k) in enumerate(zip(words, keys, strict=True)):
        before = padded[i + 1]
        features = [
            "w=" + k, "p=" + before, "n=" + padded[i + 3], "p2=" + padded[i], "n2=" + padded[i + 4],
            "pw=" + before + "|" + k, _RATES[rates[i]] if 0 <= rates[i] < len(_RATES) else "rate=" + str(rates[i]),
            _POSITIONS[min(i, 8)], "rel=" + str(10 * i // length), sentence_feature, _CLAUSES[min(clause, 3)],
            "cue=" + _distance(cue, i - cue),
        ]
        stripped = word.strip(PUNCT)
        if stripped[:1].isupper():
            features.append("capital")
        if len(stripped) > 1 and stripped.isupper():
            features.append("upper")
        if "-" in stripped:
            features.append("hyphen")
        if any(map(str.isdigit, stripped)):
            features.append("digit")
        last = word[-1:]
        if last in ",;:":
            features.append("comma")
        if i and words[i - 1][-1:] in ",;:":
            features.append("after_comma")
        if k in SMALL_WORDS:
            features.append("small")
        out.append(features)
        if cue >= 0 and i > cue and (last in ",;:" or k in _CLAUSE_WORDS):
            clause += 1
    return out


_RATES = tuple(f"rate={r}" for r in range(10))
_POSITIONS = tuple(f"pos={i}" for i in range(9))
_CLAUSES = tuple(f"clause={i}" for i in range(4))


def _distance(cue: int, distance: int) -> str:
    """Return how far a word stands from the cue verb, in buckets ("none" without one)."""
    if cue < 0:
        return "none"
    if -3 <= distance <= 6:
        return str(distance)
    return "far" if distance > 6 else "before"


def keep_scores(compressor: Compressor, features: list[list[str]]) -> list[float]:
    """Return each word's keep score (log-odds), a sum over its features in a fixed order."""
    get, bias, zero = compressor.weights.get, compressor.bias, repeat(0.0)
    # (sum over map: the same additions in the same order as a loop, without a Python frame per feature)
    return [round(bias + sum(map(get, row, zero)), SCORE_DECIMALS) for row in features]


def decode(scores: list[float], transitions: tuple[tuple[float, float], ...], bias: float) -> list[int]:
    """Return the indexes of the kept words: the best keep/drop sequence with `bias` added to every keep score.

    A two-state Viterbi (0 drop, 1 keep) from a "drop" start; a tie goes to "keep". (Sums of
    floats in a fixed order: the same bits on every machine.)
    """
    (drop_drop, drop_keep), (keep_drop, keep_keep) = transitions
    drop, keep = 0.0, float("-inf")
    # Per word, the state before it on the best path to "drop" and to "keep" there.
    from_drop: list[int] = []
    from_keep: list[int] = []
    to_drop, to_keep = from_drop.append, from_keep.append
    for score in scores:
        stay, leave = drop + drop_drop, keep + keep_drop
        start, go_on = drop + drop_keep, keep + keep_keep
        if leave >= stay:
            to_drop(1)
            drop = leave
        else:
            to_drop(0)
            drop = stay
        if go_on >= start:
            to_keep(1)
            keep = go_on + score + bias
        else:
            to_keep(0)
            keep = start + score + bias
    state = 1 if keep >= drop else 0
    kept = []
    for i in range(len(scores) - 1, -1, -1):
        if state:
            kept.append(i)
        state = from_keep[i] if state else from_drop[i]
    return kept[::-1]


def compressions(compressor: Compressor, words: list[str], rates: list[int], sentence: int) -> list[Compression]:
    """Return the distinct compressions of a sentence's words at each length bias, shortest first."""
    words = words[:MAX_WORDS]
    keys = keys_of(words)
    scores = keep_scores(compressor, word_features(words, keys, rates, sentence))
    out: dict[tuple[int, ...], Compression] = {}
    for bias in BIASES:
        kept = decode(scores, compressor.transitions, bias)
        starts = [j for j, i in enumerate(kept) if j and kept[j - 1] != i - 1]
        if not MIN_WORDS <= len(kept) <= MAX_TITLE_WORDS or tuple(kept) in out:
            continue
        if len(starts) > 1 or (starts and keys[kept[starts[0]]] not in _JOINS):
            continue
        if _cuts_a_name(words, kept):
            continue  # "Carlo Tree Search" from "leveraging Monte Carlo Tree Search": a name loses a word
        if any(words[i][-1:] in ":;" for i in kept[:-1]):
            continue  # "AI Confidence Adjustment: Inter-Group-Alignment" would lose its colon: two phrases run on
        chosen = set(kept)
        dropped = [s for i, s in enumerate(scores) if i not in chosen]
        margin = sum(scores[i] for i in kept) / len(kept) - (sum(dropped) / len(dropped) if dropped else 0.0)
        out[tuple(kept)] = Compression(tuple(words[i] for i in kept), round(margin, SCORE_DECIMALS))
    return sorted(out.values(), key=lambda c: (len(c.words), c.words))


def _capital(word: str) -> bool:
    return word[:1].isupper() and word.strip(PUNCT).isalpha()


def _cuts_a_name(words: list[str], kept: list[int]) -> bool:
    """Return True when a kept word and a dropped one next to it are both capitalized mid-sentence: one name.

    (The sentence's first word is capitalized whatever it is; a word ending in punctuation ends the name.)
    """
    chosen = set(kept)
    for i in kept:
        before, after = i - 1, i + 1
        if before >= 1 and before not in chosen and _capital(words[before]) and _capital(words[i]) \
                and words[before][-1:].isalpha():
            return True
        if i >= 1 and after < len(words) and after not in chosen and _capital(words[i]) and _capital(words[after]) \
                and words[i][-1:].isalpha():
            return True
    return False
