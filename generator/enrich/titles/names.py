"""Find the name an abstract introduces for its own method, model, dataset or benchmark.

`name_candidates` lists every word the abstract may be naming its contribution
with, each with the evidence for it (the patterns that found it, how often it
recurs, whether other abstracts use it); the shipped model weighs that evidence
(`model.py`). `describe.py` finds what the abstract says a name is.
All functions are pure: text in, text out.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .acronyms import acronym_with_suffix, acronyms, capitalised, expansion_matches, trim_expansion, words_before_paren
from .cleaning import SMALL_WORDS, dictionary, word_set

# Names that abstracts mention but rarely introduce: baselines, benchmarks, generic acronyms.
_NOT_OWN_NAMES = word_set(
    "AI ML RL LLM LLMs MLLM MLLMs VLM VLMs LM LMs NLP CV GPU GPUs CPU API APIs SOTA GRPO DPO PPO RLHF "
    "RLVR SFT KL MSE SGD Adam AdamW LoRA CNN CNNs RNN RNNs GNN GNNs ViT ViTs MLP MLPs GAN GANs VAE "
    "VAEs MTEB GSM8K MATH AIME MMLU HumanEval COCO ImageNet CIFAR BERT GPT CLIP LLaMA Llama Qwen "
    "Mistral Gemini Claude DeepSeek OOD IID PDE PDEs ODE ODEs SDE SDEs MDP MDPs POMDP ICL RAG CoT QA "
    "VQA TTA NeRF DiT DiTs UNet Transformer Transformers MoE KV FID BLEU ROUGE"
)
_VERBS = (
    r"(?:introduce|propose|present|develop|design|build|release|curate|construct|contribute|offer|"
    r"put forward|formulate|establish|create)"
)
# A name may start with digits when letters follow ("3DMolFormer", "4K4DGen", "3D-MolT5").
_NAME = r"(?:\d{1,2}(?=[A-Za-z0-9]*[A-Za-z]{2}))?[A-Za-z][A-Za-z0-9]*(?:[-.+][A-Za-z0-9]+)*(?:-\d+)?"
# A name the text introduces has a capital letter somewhere ("WebShaper", "nnU-Net").
_CAPITALISED_NAME = r"(?=[\w.+-]*[A-Z])" + _NAME
# (A lookahead on the first letter lets the scan skip most positions at once.)
_INTRO = re.compile(
    rf"(?=[WwTtOoUu])\b(?:[Ww]e|[Tt]his (?:paper|work)|[Oo]ur (?:work|paper)|us to)\s+"
    rf"(?:also\s+|further\s+|first\s+|then\s+)?"
    rf"{_VERBS}(?:s|d|ed)?\s+"
    rf"(?:(?:a|an|the)\s+)?(?:(?:new|novel|simple|unified|general|first|large-scale|scalable|lightweight|"
    rf"comprehensive|principled|efficient|effective)\s+)*"
    rf"(?:(?:[\w-]+\s+){{0,5}}?(?:method|framework|approach|model|benchmark|dataset|algorithm|system|technique|"
    rf"paradigm|architecture|pipeline|suite|toolkit|library|agent|strategy|metric|objective|module|network|"
    rf"environment|tool|loss|scheme|mechanism|platform|family|corpus)s?,?\s+(?:called\s+|named\s+|dubbed\s+|"
    rf"termed\s+)?)?[\"“']?({_CAPITALISED_NAME})",
)
_CALLED = re.compile(
    rf"\b(?:called|named|dubbed(?: as)?|termed|coined|entitled|abbreviated as|namely|denoted(?: as| by)?)\s+"
    rf"[\"“'`]?({_NAME})"
)
# "Our approach, 3D-Prover, is ...", "the proposed LeMoLE model", "We term this new framework M-VAR",
# "our resulting model (OC-CLIP)": the paper speaks of its own thing by name.
_OURS = re.compile(
    rf"(?=[OoTtWw])\b(?:(?:[Oo]ur|[Tt]he)\s+(?:(?:proposed|resulting|new|novel|final|redesigned)\s+)+(?:[\w-]+\s+){{0,3}}?|"
    rf"[Oo]ur\s+(?:[\w-]+\s+){{0,2}}?(?:method|model|approach|framework|algorithm|architecture|system|agent|"
    rf"benchmark|dataset|pipeline|technique)s?\s*[,(]?\s*|"
    rf"[Ww]e\s+(?:term|name|call|dub)\s+(?:(?:this|our|the)\s+(?:[\w-]+\s+){{0,3}}?)?(?:as\s+)?|"
    rf"[Ww]e\s+(?:\w+ly\s+)?(?:created|create|develop(?:ed)?|buil[dt]|construct(?:ed)?|curate[d]?)\s+(?:the|our)\s+)"
    rf"[\"“'`(]?({_CAPITALISED_NAME})(?![\w-])"
)
# "experiments demonstrate that PF3plat sets a new state-of-the-art": a result claimed for a name.
_CLAIM = re.compile(
    rf"(?=[tSsDd])\b(?:that|[Ss]how|[Dd]emonstrate)\s+({_CAPITALISED_NAME})(?:'s)?\s+(?:\w+ly\s+)?"
    rf"(?:outperforms|surpasses|achieves|sets|attains|delivers|excels|superiority|realizes|improves|reduces|"
    rf"yields|exceeds|enables|can|consistently|significantly)\b"
)
# A repository or project page named after the method: "github.com/annegnx/PnP-Flow".
_URL = re.compile(r"(?:https?://|www\.)[^\s)\]]+", re.I)
_URL_SEGMENT = re.compile(r"/([A-Za-z0-9][A-Za-z0-9+._-]{1,30}?)(?:-[0-9A-F]{4})?(?=[/?#]|[.,;:)]*$)")
# The lookahead fails fast at most characters: a match starts only at the text's start, [.;:] or i/p.
_APPOSITIVE = re.compile(rf"(?=[.;:ip]|^)(?:^|[.;:]\s+|\bintroduc\w+\s+|\bpropos\w+\s+|"
    rf"\bpresent\w*\s+)({_NAME}),\s+(?:a|an|the)\s+")
_BOLD_LETTERS = re.compile(r"((?:[A-Za-z-]*\*\*[A-Z]{1,3}\*\*[A-Za-z-]*\s*){2,})")
_TEXTBF_LETTERS = re.compile(
    r"((?:[A-Za-z-]*\$?\\textbf\{[A-Z]{1,3}\}\$?[A-Za-z-]*[\s/]*(?:(?:with|of|and|for|the|via|in|on|to|from)\s+)?){2,})"
)
_COINED_IN_PARENS = re.compile(r"[A-Za-z]\s+\(((?=[A-Za-z0-9-]*[a-z][A-Za-z0-9-]*[A-Z]|"
    r"[A-Z][a-z]+[A-Z])[A-Z][A-Za-z0-9-]{2,24})\)")
_BOLD_NAME = re.compile(rf"\*\*({_NAME})\*\*|\\textbf\{{({_NAME})\}}")
_MACRO_NAME = re.compile(r"\\([A-Z][A-Za-z0-9]{1,20})\{\}")
@dataclass(frozen=True)
class NameCandidate:
    """A word the abstract may name its contribution with, and the evidence for it."""

    name: str
    features: tuple[float, ...]
    expansion: str = ""
    position: int = 0  # where the name is first mentioned (characters into the plain text)


#: The evidence `name_candidates` gives for each name, in the order of NameCandidate.features.
NAME_FEATURES = (
    "bold_letters", "textbf_letters", "macro", "bold", "introduced", "called", "appositive", "acronym",
    "coined_in_parens", "ours", "claimed", "in_url", "mentions", "mentioned_once", "common", "not_own",
    "inside_expansion", "first_position", "has_digit", "has_hyphen", "all_capitals", "short", "long", "camel_case",
    "one_capital", "in_first_sentence", "pattern_count", "lower_start", "plural", "cue_before", "after_first_cue",
    "rule_score", "data_like", "rival", "data_like_rival", "variant", "base_of_variant", "rule_choice",
)
# "we propose / introduce / present ...", "... allows us to propose": a name mentioned soon after is the
# paper's own.
_CUE_VERB = re.compile(
    r"(?=[wWtTuU])\b(?:we|this (?:paper|work)|us to)\s+(?:\w+ly\s+)?(?:also\s+|further\s+|then\s+|first\s+)?"
    r"(?:introduc|propos|present|develop|design|buil|releas|construct|curat|contribut|formulat|devis|creat)", re.I
)
#: How far after "we propose" a mention counts as the proposed thing's.
_CUE_REACH = 200
# The hand-written rules' weights for each pattern (bold letters ... coined in parentheses):
# their score is one more piece of evidence, and their choice another.
_RULE_WEIGHTS = (6, 6, 4, 3, 5, 4, 3, 3, 3, 4, 1, 4)
_PATTERNS = len(_RULE_WEIGHTS)
# Name-shaped words: a capital past the first letter or a digit ("VisionReasoner", "M3-Agent", "GPT-4o").
_NAME_WORD = re.compile(
    r"(?<![\w-])((?:\d{1,2}(?=[A-Za-z]))?[A-Za-z](?=[A-Za-z0-9+.-]*[A-Z0-9])[A-Za-z0-9]*(?:[-+.][A-Za-z0-9]+)*\+*)(?![\w-])"
)
_MENTION_CAP = 6
#: The patterns of the plain text whose first group is a name, each with the feature it marks (the order of
#: NAME_FEATURES). _COINED_IN_PARENS: "World-Model-Based Policy Evaluation Environment (WorldGym), an ...".
_PLAIN_PATTERNS = ((_INTRO, 4), (_CALLED, 5), (_APPOSITIVE, 6), (_COINED_IN_PARENS, 8), (_OURS, 9), (_CLAIM, 10))


def name_candidates(raw: str, plain: str) -> list[NameCandidate]:
    """Return every word the abstract may introduce as its own name, in order of first mention."""
    evidence: dict[str, list[float]] = {}
    expansions: dict[str, str] = {}

    def mark(name: str, feature: int) -> None:
        evidence.setdefault(name, [0.0] * _PATTERNS)[feature] = 1.0

    bold = "**" in raw
    for match in _BOLD_LETTERS.finditer(raw) if bold else ():
        letters = "".join(re.findall(r"\*\*([A-Z]{1,3})\*\*", match.group(1)))
        if len(letters) >= 3:
            name = acronym_with_suffix(letters, raw)
            mark(name, 0)
            # "**L**ength-b**A**sed **S**t**E**p **R**eward shaping (LASER)"
            spelled = match.group(1).replace("**", "") + words_before_paren(raw[match.end():])
            expansions[name] = " ".join(w[:1].upper() + w[1:].lower() for w in spelled.split())
    for match in _TEXTBF_LETTERS.finditer(raw) if "\\textbf" in raw else ():
        letters = "".join(re.findall(r"\\textbf\{([A-Z]{1,3})\}", match.group(1)))
        if len(letters) >= 3:
            mark(letters, 1)
    for match in _MACRO_NAME.finditer(raw) if "\\" in raw else ():
        mark(match.group(1), 2)
    for match in _BOLD_NAME.finditer(raw) if bold or "\\textbf" in raw else ():
        mark(match.group(1) or match.group(2), 3)
    for pattern, feature in _PLAIN_PATTERNS:
        for match in pattern.finditer(plain):
            mark(match.group(1), feature)
    inside_expansions: set[str] = set()
    for phrase, acronym in acronyms(plain):
        if expansion_matches(phrase, acronym) and capitalised(phrase, acronym):
            # "Path of Least Resistance (PoLR)" names a contribution; "self-supervised learning (SSL)" a field.
            mark(acronym, 7)
            inside_expansions.update(trim_expansion(phrase, acronym).split())
            inside_expansions.discard(acronym)
    in_urls = _url_names(raw) if "/" in raw else set()
    for name in in_urls:
        mark(name, 11)

    def coined(name: str) -> bool:
        # "we propose Drop-Upcycling, a ..." names a method; "we propose Context-Aware State ..." starts a phrase.
        found = evidence.get(name)
        if found is None or not (found[4] or found[5] or found[9]):
            return False  # neither introduced, called nor spoken of as "our approach, NAME"
        return name[0].isupper() and len(name) >= 3 and _stands_alone(plain, name)

    first_seen: dict[str, int] = {}
    for match in _NAME_WORD.finditer(plain):
        word = match.group(1).rstrip(".")
        if word not in first_seen and (word in evidence or looks_like_name(word)):
            first_seen[word] = match.start()
    for name in sorted(evidence.keys() - first_seen.keys()):
        # A one-capital name the text claims ("we introduce Eureka"), or one only its repository's address gives.
        at = next(_unjoined_starts(plain, name), -1)
        if at >= 0 and coined(name) and name.lower() not in dictionary():
            first_seen[name] = at
        elif name in in_urls and at < 0:
            first_seen[name] = len(plain)
    common = _common_names()
    cues = [m.end() for m in _CUE_VERB.finditer(plain)]
    first_cue = cues[0] if cues else len(plain)
    first_end = plain.find(". ") if ". " in plain else len(plain)
    opening_cue = bool(cues) and cues[0] < first_end
    spelled_out = {acronym for _, acronym in acronyms(plain)}
    rows = []
    for name, position in sorted(first_seen.items(), key=lambda item: (item[1], item[0])):
        found = evidence.get(name)
        if name in _NOT_OWN_NAMES or not ((looks_like_name(name) and not _compound_word(name)) or coined(name)):
            continue
        if name in inside_expansions and _LEADING_CAPITALS.match(name):
            continue  # "COmmunity INformed ... (COINs)": the capitals spell the name, the word is not one
        if position < first_end and name in spelled_out and not opening_cue and not (found and any(found[:4])):
            continue  # "Temporal Video Grounding (TVG) aims to ...": the opening names the field, not the paper
        mentions = count_word(plain, name)
        if found is None and mentions < 2:
            continue  # a name-shaped word mentioned once, by no pattern: not worth weighing
        patterns = found or [0.0] * _PATTERNS
        marked = patterns[0] or patterns[1] or patterns[2]
        rule = sum(w * p for w, p in zip(_RULE_WEIGHTS, patterns, strict=True)) + min(mentions, _MENTION_CAP)
        rule -= 6 * (name in common and not marked) + 6 * (name in inside_expansions) + 99 * (name in _NOT_OWN_NAMES)
        upper = sum(c.isupper() for c in name)
        features = (
            *patterns,
            min(mentions, _MENTION_CAP) / _MENTION_CAP,
            float(mentions <= 1),
            float(name in common and not marked),
            float(name in _NOT_OWN_NAMES),
            float(name in inside_expansions),
            round(position / max(len(plain), 1), 3),
            float(any(c.isdigit() for c in name)),
            float("-" in name),
            float(name.isupper()),
            float(len(name) <= 3),
            float(len(name) >= 9),
            float(upper >= 2 and not name.isupper()),
            float(upper <= 1 and not any(c.isdigit() for c in name)),
            float(position < first_end),
            sum(patterns) / 3,
            float(name[0].islower()),
            float(name.endswith("s") and name[:-1].isupper()),
            float(_cue_before(plain, name, cues)),
            float(position >= first_cue),
            max(rule, -10) / 10,
        )
        rows.append((name, features, rule, position))
    # The rules took the first name with the highest score, if it reached 5.
    top = max((r for _, _, r, _ in rows), default=0)
    choice = next((name for name, _, r, _ in rows if r == top), "") if top >= 5 else ""
    # Several names in one abstract: the paper is about its method more often than the data it builds
    # for it ("AutomaTikZ" trained on "DaTikZ"), and about "BigDocs" more than its "BigDocs-7.5M".
    introduced = [name for name, features, _, _ in rows if any(features[3:_PATTERNS])]
    names = [name for name, _, _, _ in rows]
    return [
        NameCandidate(name, (*features, *_rivalry(name, names, introduced), float(name == choice)),
                      expansions.get(name, ""), position)
        for name, features, _, position in rows
    ]


_DATA_LIKE = re.compile(r"(?:Bench|Eval|Set|Data|Dataset|Corpus|Arena|QA|Instruct|Gym|-\d[\w.]*|\d+[KMB])$")


def _rivalry(name: str, names: list[str], introduced: list[str]) -> tuple[float, ...]:
    """Features of a name against the abstract's other names: data-like, a rival introduced, a variant of another."""
    rival = any(other != name for other in introduced)
    data_like = bool(_DATA_LIKE.search(name))
    variant = any(name != other and name.startswith(other + "-") for other in names)
    base = any(name != other and other.startswith(name + "-") for other in names)
    return float(data_like), float(rival), float(data_like and rival), float(variant), float(base)


_TWO_CAPITALS = re.compile(r"^[A-Z]{2}[a-z]{5,}$")
# "GENerative", "COmmunity": a word whose first capitals spell an acronym (inside its expansion).
_LEADING_CAPITALS = re.compile(r"^[A-Z]{2,4}[a-z]{3,}$")
_INNER_CAPITAL = re.compile(r"^[a-z]+[A-Z][a-z]+$")


def _cue_before(plain: str, name: str, cues: list[int]) -> bool:
    """Return True when some mention of `name` follows a "we propose" within _CUE_REACH characters."""
    for start in _unjoined_starts(plain, name):
        i = bisect_right(cues, start)
        if i and start - cues[i - 1] <= _CUE_REACH:
            return True
    return False


def _compound_word(name: str) -> bool:
    """Return True for words shaped like a name that are not one.

    A capitalised compound of plain words ("Fine-Tuning", "Visually-Perceptive"), a compound
    ending in a plain word ("AI-assisted", "LLM-based"), or acronym typography on a
    dictionary word ("DEtached", "Length-bAsed": the name is the acronym they spell).
    """
    parts = name.split("-")
    if len(parts) > 1 and all(len(p) >= 3 and p.isalpha() and p[0].isupper() and p[1:].islower() for p in parts):
        return True
    if len(parts) > 1 and parts[-1].islower() and parts[-1] in dictionary():
        return True
    return any(_TWO_CAPITALS.match(p) or (_INNER_CAPITAL.match(p) and p.lower() in dictionary()) for p in parts)


def count_word(text: str, word: str) -> int:
    """Count the occurrences of `word` in `text` not joined to a letter, digit, _ or hyphen."""
    end = len(word)
    return sum(1 for start in _unjoined_starts(text, word) if not _joins(text[start + end : start + end + 1]))


def _unjoined_starts(text: str, word: str) -> Iterator[int]:
    """Yield where `word` starts in `text` without a letter, digit, _ or hyphen right before it."""
    start = text.find(word)
    while start >= 0:
        if not _joins(text[start - 1 : start] if start else ""):
            yield start
        start = text.find(word, start + 1)


def _joins(char: str) -> bool:
    """Return True when `char` would join a word to its neighbour: a letter, digit, _ or hyphen."""
    return bool(char) and (char.isalnum() or char in "_-")


@lru_cache(maxsize=1)
def _common_names() -> frozenset[str]:
    text = resources.files("generator").joinpath("data/common_names.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


_PHRASE_GOES_ON = re.compile(r"\s*(?:[A-Z0-9(]|of\b|for\b|and\b|-)")
_ENDS_PHRASE = re.compile(r"[,.;:)!?\u2014]|\s+(?:is|was|which|that|achieves|outperforms|improves|enables)\b|$")


def _stands_alone(plain: str, name: str) -> bool:
    """Return True when `name` does not start a longer phrase ("Context-Aware State", "Cross-Representation modeling").

    No mention may run on into capitalised words; a compound's first mention must end its phrase
    ("Drop-Upcycling, a ..."); acronym typography ("DEtached") is never a name.
    """
    if _TWO_CAPITALS.match(name) or _LEADING_CAPITALS.match(name):
        return False  # "DEtached value learning (DEAS)": the capitals spell another name
    end = len(name)
    starts = list(_unjoined_starts(plain, name))
    if any(_PHRASE_GOES_ON.match(plain, start + end) for start in starts):
        return False
    return "-" not in name or not starts or bool(_ENDS_PHRASE.match(plain, starts[0] + end))


def _url_names(raw: str) -> set[str]:
    """Return the name-shaped path parts of the abstract's links ("github.com/annegnx/PnP-Flow" -> PnP-Flow)."""
    names = set()
    for url in _URL.findall(raw):
        parts = _URL_SEGMENT.findall(url.split("//", 1)[-1])
        # "github.com/<owner>/<repository>": the owner is a person or a lab, the repository the method.
        for part in parts[1:] if len(parts) > 1 else parts:
            if looks_like_name(part) and not part.lower().endswith((".html", ".pdf", ".io", ".com")):
                names.add(part.rstrip("."))
    return names


def looks_like_name(word: str) -> bool:
    """Return True for words shaped like a method name: GRACE, VisionReasoner, M3-Agent."""
    if len(word) < 2 or len(word) > 30 or word.lower() in SMALL_WORDS:
        return False
    if word[0].isdigit() and sum(c.isalpha() for c in word) < 3:
        return False  # "3D", "13B", "100K" are quantities, "3DMolFormer" a name
    upper = sum(c.isupper() for c in word)
    # A name has a capital past its first letter (GRACE, VisionReasoner, Zebra-CoT) or a digit.
    return upper >= 2 or (upper >= 1 and any(c.isdigit() for c in word)) or (
        word[0].isupper() and any(c.isupper() for c in word[1:])
    )
