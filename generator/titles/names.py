"""Infer a specific title for an abstract that has none.

Two strategies, tried in order:

* named-method: the abstract introduces its own method, model, dataset or
  benchmark by name ("We introduce GRACE (Generative Representation Learning
  via ...)"); the title pairs the name with its expansion or with a short
  description of what it is.
* headline: otherwise, a short headline made from the contribution sentence.

All functions are pure: text in, text out.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator
from importlib import resources

from .text import clean, to_plain

# Names that abstracts mention but rarely introduce: baselines, benchmarks, generic acronyms.
_NOT_OWN_NAMES = frozenset(
    """AI ML RL LLM LLMs MLLM MLLMs VLM VLMs LM LMs NLP CV GPU GPUs CPU API APIs SOTA
    GRPO DPO PPO RLHF RLVR SFT KL MSE SGD Adam AdamW LoRA CNN CNNs RNN RNNs GNN GNNs
    ViT ViTs MLP MLPs GAN GANs VAE VAEs MTEB GSM8K MATH AIME MMLU HumanEval COCO
    ImageNet CIFAR BERT GPT CLIP LLaMA Llama Qwen Mistral Gemini Claude DeepSeek
    OOD IID PDE PDEs ODE ODEs SDE SDEs MDP MDPs POMDP ICL RAG CoT QA VQA TTA
    NeRF DiT DiTs UNet Transformer Transformers MoE KV FID BLEU ROUGE""".split()
)
_VERBS = r"(?:introduce|propose|present|develop|design|build|release|curate|construct|contribute|offer|put forward|formulate|establish)"
_NAME = r"[A-Za-z][A-Za-z0-9]*(?:[-.+][A-Za-z0-9]+)*(?:-\d+)?"
# A name the text introduces has a capital letter somewhere ("WebShaper", "nnU-Net").
_CAPITALISED_NAME = r"(?=[\w.+-]*[A-Z])" + _NAME
_INTRO = re.compile(
    rf"\b(?:[Ww]e|[Tt]his (?:paper|work)|[Oo]ur (?:work|paper))\s+(?:also\s+|further\s+|first\s+|then\s+)?{_VERBS}s?\s+"
    rf"(?:(?:a|an|the)\s+)?(?:(?:new|novel|simple|unified|general|first|large-scale|scalable|lightweight|"
    rf"comprehensive|principled|efficient|effective)\s+)*"
    rf"(?:(?:[\w-]+\s+){{0,5}}?(?:method|framework|approach|model|benchmark|dataset|algorithm|system|technique|"
    rf"paradigm|architecture|pipeline|suite|toolkit|library|agent|strategy|metric|objective|module|network|"
    rf"environment|tool|loss|scheme|mechanism|platform|family|corpus)s?,?\s+(?:called\s+|named\s+|dubbed\s+|"
    rf"termed\s+)?)?[\"“']?({_CAPITALISED_NAME})",
)
_CALLED = re.compile(rf"\b(?:called|named|dubbed|termed|coined|denoted(?: as| by)?)\s+[\"“']?({_NAME})")
# The lookahead fails fast at most characters: a match starts only at the text's start, [.;:] or i/p.
_APPOSITIVE = re.compile(rf"(?=[.;:ip]|^)(?:^|[.;:]\s+|\bintroduc\w+\s+|\bpropos\w+\s+|\bpresent\w*\s+)({_NAME}),\s+(?:a|an|the)\s+")
_ACRONYM_WORD = r"(?:[A-Z][\w'-]*|of|for|and|in|on|via|with|to|the|a|from|by)"
_ACRONYM_NEXT = r"(?:[A-Z][\w'-]*|of|for|and|in|on|via|with|to|the|a|from|by|[a-z][\w-]*)"
# "Path of Least Resistance (PoLR)": the "(NAME)" is found first, then the
# phrase that ends right before it; trying the phrase at every word is slow.
_PAREN_ACRONYM = re.compile(r"\s+\(([A-Z][A-Za-z0-9-]{1,15})\)")
_PHRASE_BEFORE = re.compile(rf"{_ACRONYM_WORD}(?:\s+{_ACRONYM_NEXT}){{1,12}}\Z")
#: How far before "(NAME)" its phrase may start.
_PHRASE_REACH = 400
_BOLD_LETTERS = re.compile(r"((?:[A-Za-z-]*\*\*[A-Z]{1,3}\*\*[A-Za-z-]*\s*){2,})")
_TEXTBF_LETTERS = re.compile(
    r"((?:[A-Za-z-]*\$?\\textbf\{[A-Z]{1,3}\}\$?[A-Za-z-]*[\s/]*(?:(?:with|of|and|for|the|via|in|on|to|from)\s+)?){2,})"
)
_COINED_IN_PARENS = re.compile(r"[A-Za-z]\s+\(((?=[A-Za-z0-9-]*[a-z][A-Za-z0-9-]*[A-Z]|[A-Z][a-z]+[A-Z])[A-Z][A-Za-z0-9-]{2,24})\)")
_BOLD_NAME = re.compile(rf"\*\*({_NAME})\*\*|\\textbf\{{({_NAME})\}}")
_MACRO_NAME = re.compile(r"\\([A-Z][A-Za-z0-9]{1,20})\{\}")
# A sentence ends at . ! ? after a word of two or more characters (not "e.g.",
# "Fig.", "1."), before a capital.
_SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9%)\]\"”'][A-Za-z0-9%)\]\"”'][.!?])\s+(?=[A-Z\"“(\[])")
_ABBREVIATION_END = re.compile(r"\b(?:e\.g|i\.e|et al|etc|vs|Fig|Eq|Sec|resp|cf|approx)\.$", re.I)
_URL_IN_TEXT = re.compile(r"\s*\(?\b(?:https?://|www\.)\S+?(?=[.,;:!?)]*(?:\s|$))\)?", re.I)
_LEADERS = re.compile(
    r"^(?:(?:in|to (?:this|that) end|to address (?:this|these)(?: \w+)?|to (?:tackle|overcome|bridge|fill|solve) (?:this|these|the)(?: \w+){0,2}|"
    r"in this (?:paper|work|study)|here|therefore|thus|specifically|consequently|to this end|motivated by (?:this|these)(?: \w+)?|"
    r"building on (?:this|these)(?: \w+)?|concretely|instead|however|moreover|finally|overall)\s*,?\s*)+",
    re.I,
)
_CONTRIBUTION = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:work|paper))\s+(?:\w+ly\s+)?"
    r"(?:introduce|propose|present|develop|design|study|investigate|show|demonstrate|analy[sz]e|explore|examine|"
    r"establish|prove|provide|derive|revisit|identify|address|tackle|formulate|consider|find|characteri[sz]e|"
    r"build|construct|release|curate|offer|leverage|extend|reveal|focus on|take)s?\b",
    re.I,
)
_SUBJECT_VERB = re.compile(
    r"^(?:we|this (?:paper|work|study)|our (?:work|paper))\s+(?:\w+ly\s+)?(?:also\s+)?(\w+(?: on)?)\s+", re.I
)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+(?:(?:new|novel|simple|general|first|unified|principled)\s+)*", re.I)
_CUT = re.compile(
    r",\s+(?:i\.e\.|e\.g\.|namely|revealing|which|where|while|whereas|and we|thereby|allowing|enabling|showing|achieving|leading|resulting|"
    r"making|demonstrating|providing|yielding|we)\b|;|\s+(?:which|thereby|while|whereas|so that|such that|"
    r"in order to|where)\s|:\s|\s+[-–—]\s|\s+and\s+(?:then\s+)?(?:show|find|demonstrate|prove|propose|introduce|"
    r"present|reveal|observe|provide|use|evaluate|apply|validate)\b",
    re.I,
)
_SMALL_WORDS = frozenset(
    "a an and as at but by for from in into nor of on onto or over the to up via vs with without per than".split()
)
_MAX_WORDS = 14
_MIN_WORDS = 4
# Words that promise a continuation: a title cut right after one reads unfinished
# ("... Response Quality Based", "... Models Using").
_NEEDS_MORE = frozenset(
    "based using that which whose where while when such through including across between toward towards "
    "leveraging given like against beyond within among along under".split()
)


@dataclass(frozen=True)
class InferredTitle:
    """A title and how it was found."""

    title: str
    source: str  # "named-method" or "headline"
    name: str = ""


# Titles come from the opening of an abstract; reading further only costs time
# (a pathological 1 MB abstract must not make the regexes crawl).
_READ_CHARS = 6000


def infer_title(abstract: str, max_chars: int = 110) -> InferredTitle:
    """Return a specific, clean title for an abstract."""
    head = abstract[:_READ_CHARS]
    return _infer(clean(head), to_plain(head), max_chars)


def infer_title_from(abstract: str, plain: str, max_chars: int = 110) -> InferredTitle:
    """Infer a title when the abstract's plain text is already at hand (same result as infer_title)."""
    if len(abstract) > _READ_CHARS:
        return infer_title(abstract, max_chars)
    return _infer(clean(abstract), plain, max_chars)


def _infer(raw: str, plain: str, max_chars: int) -> InferredTitle:
    # URLs are never part of a title; remove them before reading the sentences.
    if "://" in plain or "www." in plain.lower():
        plain = _URL_IN_TEXT.sub("", plain)
    name, expansion = find_own_name_with_expansion(raw, plain)
    if name:
        description = _title_case(expansion) if expansion else describe(name, plain)
        if not description:
            # No expansion or appositive: say what the paper does instead.
            description = _without_leading_name(headline(plain), name)
        description = _one_clause(_TRAILING_APPOSITIVE.sub("", description))
        title = f"{name}: {description}" if description and description.lower() != name.lower() else name
        return InferredTitle(_shorten(title, max_chars), "named-method", name)
    return InferredTitle(_shorten(_headline_colon(headline(plain)), max_chars), "headline")


def _without_leading_name(text: str, name: str) -> str:
    """Remove `name` (and a ":" or "," after it) from the start of `text`, if it starts there as a word."""
    if not text.startswith(name):
        return text.strip()
    rest = text[len(name):]
    # A word boundary, as `\b` tests it, between the name's last character and the next.
    if name and rest and _is_word_char(name[-1]) == _is_word_char(rest[0]):
        return text.strip()
    if not rest and not _is_word_char(name[-1]):
        return text.strip()
    return (rest[1:] if rest[:1] in (":", ",") else rest).strip()


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _one_clause(description: str) -> str:
    """Keep one side of a colon ("Perspective: Similarity Is ..." -> "Similarity Is ..."); capitalise it.

    The title already has the colon after the name; a second one reads as a list.
    """
    if ": " in description:
        head, tail = description.split(": ", 1)
        description = tail if len(head.split()) <= 2 else head
    return description[:1].upper() + description[1:]


def find_own_name_with_expansion(raw: str, plain: str) -> tuple[str, str]:
    """Return the paper's own name and, when the text spells it out, its expansion."""
    candidates: Counter[str] = Counter()
    expansions: dict[str, str] = {}
    marked: set[str] = set()  # names the authors typeset as their own (bold letters, a macro)
    bold = "**" in raw
    for match in _BOLD_LETTERS.finditer(raw) if bold else ():
        letters = "".join(re.findall(r"\*\*([A-Z]{1,3})\*\*", match.group(1)))
        if len(letters) >= 3:
            name = _acronym_with_suffix(letters, raw)
            candidates[name] += 6
            marked.add(name)
            # "**L**ength-b**A**sed **S**t**E**p **R**eward shaping (LASER)"
            spelled = match.group(1).replace("**", "") + _words_before_paren(raw[match.end():])
            expansions[name] = " ".join(w[:1].upper() + w[1:].lower() for w in spelled.split())
    for match in _TEXTBF_LETTERS.finditer(raw) if "\\textbf" in raw else ():
        letters = "".join(re.findall(r"\\textbf\{([A-Z]{1,3})\}", match.group(1)))
        if len(letters) >= 3:
            candidates[letters] += 6
            marked.add(letters)
    for match in _MACRO_NAME.finditer(raw):
        candidates[match.group(1)] += 4
        marked.add(match.group(1))
    for match in _BOLD_NAME.finditer(raw) if bold or "\\textbf" in raw else ():
        candidates[match.group(1) or match.group(2)] += 3
    for match in _INTRO.finditer(plain):
        candidates[match.group(1)] += 5
    for match in _CALLED.finditer(plain):
        candidates[match.group(1)] += 4
    for match in _APPOSITIVE.finditer(plain):
        candidates[match.group(1)] += 3
    inside_expansions: set[str] = set()
    for phrase, acronym in _acronyms(plain):
        if _expansion_matches(phrase, acronym) and _capitalised(phrase, acronym):
            # "Path of Least Resistance (PoLR)" names a contribution; "self-supervised learning (SSL)" a field.
            candidates[acronym] += 3
            inside_expansions.update(_trim_expansion(phrase, acronym).split())
            inside_expansions.discard(acronym)
    for match in _COINED_IN_PARENS.finditer(plain):
        # "World-Model-Based Policy Evaluation Environment (WorldGym), an ...": a coined name in parentheses.
        candidates[match.group(1)] += 3
    common = _common_names()
    best, best_score = "", 0.0
    for name, score in candidates.items():
        if not looks_like_name(name) or name in _NOT_OWN_NAMES:
            continue
        # The paper's own name recurs; a baseline is mentioned once or twice.
        mentions = count_word(plain, name)
        total = score + min(mentions, 6)
        if name in common and name not in marked:
            # Many other abstracts use this name: a baseline, benchmark or field term.
            total -= 6
        if name in inside_expansions:
            # "DEtached value learning with Action Sequence (DEAS)": a word of the name's expansion.
            total -= 6
        if total > best_score:
            best, best_score = name, total
    if best_score < 5:
        return "", ""
    return best, expansions.get(best, "")


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


def _capitalised(phrase: str, acronym: str) -> bool:
    """Return True when the words spelling the acronym are mostly capitalised."""
    words = [w for w in phrase.split() if w.lower() not in _SMALL_WORDS]
    tail = words[-max(2, sum(c.isupper() for c in acronym)):]
    return bool(tail) and sum(w[0].isupper() for w in tail) / len(tail) >= 0.5


def _words_before_paren(text: str) -> str:
    # Up to three lowercase words between a spelled-out acronym and its "(NAME)".
    match = re.match(r"((?:\s*[a-z][\w-]*){0,3})\s*\(", text)
    return match.group(1) if match else ""


def _acronym_with_suffix(letters: str, raw: str) -> str:
    # "**L**ength-b**A**sed ... (LASER)": prefer the acronym as the text spells it.
    spelled = re.search(rf"\b({letters}(?:-[A-Z0-9]+)?)\b", raw)
    return spelled.group(1) if spelled else letters


def looks_like_name(word: str) -> bool:
    """Return True for words shaped like a method name: GRACE, VisionReasoner, M3-Agent."""
    if len(word) < 2 or len(word) > 30 or word.lower() in _SMALL_WORDS:
        return False
    upper = sum(c.isupper() for c in word)
    # A name has a capital past its first letter (GRACE, VisionReasoner, Zebra-CoT) or a digit.
    return upper >= 2 or (upper >= 1 and any(c.isdigit() for c in word)) or (
        word[0].isupper() and any(c.isupper() for c in word[1:])
    )


def _expansion_matches(phrase: str, acronym: str) -> bool:
    """Return True when the phrase spells the acronym: its capitals, in order, end the phrase."""
    letters = "".join(c for c in acronym if c.isupper())
    if len(letters) < 2:
        return False
    initials = "".join(w[0] for w in re.split(r"[\s-]+", phrase) if w and w[0].isupper())
    capitals = "".join(c for c in phrase if c.isupper())
    return letters[:2] in initials or _subsequence(letters, capitals[-2 * len(letters):])


@lru_cache(maxsize=16)
def _acronyms(plain: str) -> tuple[tuple[str, str], ...]:
    """Return each (phrase, "NAME") where a phrase of capitalised words is followed by "(NAME)"."""
    found = []
    floor = 0  # matches do not overlap: a phrase starts after the previous "(NAME)"
    for paren in _PAREN_ACRONYM.finditer(plain):
        phrase = _PHRASE_BEFORE.search(plain, max(floor, paren.start() - _PHRASE_REACH), paren.start())
        if phrase:
            found.append((phrase.group(0), paren.group(1)))
            floor = paren.end()
    return tuple(found)


def _subsequence(needle: str, haystack: str) -> bool:
    it = iter(haystack)
    return all(c in it for c in needle)


def describe(name: str, plain: str) -> str:
    """Return the expansion of `name` or a short description of what it is."""
    # "Generative Representation Learning via Contrastive Policy Optimization (GRACE)"
    for spelled, acronym in _acronyms(plain):
        if acronym != name:
            continue
        if _expansion_matches(spelled, name):
            phrase = _trim_expansion(spelled, name)
        else:
            # A coined name after what it is: "a World-Model-Based Policy Evaluation Environment (WorldGym)".
            phrase = _clip(_ARTICLE.sub("", _LEADING_VERB.sub("", _LEADERS.sub("", spelled))))
        if phrase and len(phrase.split()) >= 2:
            return _title_case(phrase)
    # The patterns below follow the name, so they are tried right after each of its
    # occurrences (not joined to a word or hyphen before it), first occurrence first:
    # the same match a search of "name + pattern" finds, without compiling a pattern per name.
    # "GRACE (Generative Representation Learning via ...)"
    after = _after_name(_EXPANSION_AFTER, name, plain)
    if after and _expansion_matches(after.group(1), name):
        return _title_case(after.group(1))
    # "WorldGym, a world-model environment for policy evaluation"
    appositive = _after_name(_APPOSITIVE_AFTER, name, plain)
    if appositive:
        return _title_case(_clip(appositive.group(1)))
    # "we propose a novel framework, GRACE, that ..." -> the phrase before the name.
    before = _described_before(name, plain)
    if before:
        return _title_case(_clip(before.group(1)))
    # "GRACE is a ..." / "GRACE that ..."
    copula = _after_name(_COPULA_AFTER, name, plain)
    if copula:
        return _title_case(_clip(copula.group(1)))
    return ""


_EXPANSION_AFTER = re.compile(r"\s+\(([^()]{8,120})\)")
_APPOSITIVE_AFTER = re.compile(r"(?:\s+\([^()]*\))?,\s+(?:a|an|the)\s+(?:(?:new|novel|simple)\s+)?([^.;]{6,200})")
_COPULA_AFTER = re.compile(r"(?:\s+\([^()]*\))?\s+(?:is|as|which is)\s+(?:a|an)\s+([^.;]{6,200})")
_VERB_ARTICLE = re.compile(rf"{_VERBS}(?:s|d|ed)?\s+(?:a|an|the)\s+", re.I)
#: How far a described name may follow "we propose a": the longest phrase the pattern allows, and slack.
_BEFORE_REACH = 160


def _after_name(pattern: re.Pattern[str], name: str, plain: str) -> re.Match[str] | None:
    """Return the first match of `pattern` right after `name` where the name is not part of a longer word."""
    for start in _unjoined_starts(plain, name):
        match = pattern.match(plain, start + len(name))
        if match:
            return match
    return None


def _described_before(name: str, plain: str) -> re.Match[str] | None:
    """Find "we propose a <phrase>, (called) NAME": the phrase that describes the name."""
    # Most abstracts have no "propose a ..." shortly before the name: the
    # pattern, compiled for this name, is only tried where one is.
    if plain.isascii():
        lower, key = plain.lower(), name.lower()
        ends = [m.end() for m in _VERB_ARTICLE.finditer(plain)]
        near, start = False, lower.find(key)
        while start >= 0 and not near:
            near = any(start - _BEFORE_REACH <= end <= start for end in ends)
            start = lower.find(key, start + 1)
        if not near:
            return None
    escaped = re.escape(name)
    return re.search(
        rf"{_VERBS}(?:s|d|ed)?\s+(?:a|an|the)\s+(?:(?:new|novel|simple)\s+)?([^.;,]{{6,120}}?),?\s+"
        rf"(?:called\s+|named\s+|dubbed\s+|termed\s+)?{escaped}\b",
        plain,
        re.I,
    )


_LEADING_VERB = re.compile(
    r"^(?:(?:we|this (?:paper|work))\s+)?(?:\w+ly\s+)?(?:introduce|propose|present|develop|design|call|term|name|dub)[sd]?\s+",
    re.I,
)


def _trim_expansion(phrase: str, acronym: str) -> str:
    """Keep the tail of a phrase that spells the acronym ("... via Contrastive Policy Optimization").

    The acronym's capitals are matched from the end against each word's capitals
    (or its first letter); up to three words that match nothing may sit between.
    """
    words = phrase.split()
    letters = [c.lower() for c in acronym if c.isupper()]
    j, start, misses = len(letters) - 1, len(words), 0
    for i in range(len(words) - 1, -1, -1):
        if j < 0:
            break
        word = words[i]
        capitals = [c.lower() for c in word if c.isupper()] or [word[0].lower()]
        k = len(capitals)
        if letters[max(0, j - k + 1): j + 1] == capitals[-(j + 1):] or capitals[0] == letters[j]:
            j -= min(k, j + 1) if letters[max(0, j - k + 1): j + 1] == capitals[-(j + 1):] else 1
            start, misses = i, 0
        elif word.lower() in _SMALL_WORDS or word[0].islower():
            misses += 1
            if misses > 3:
                break
        else:
            break
    if j >= 0 or start == len(words):
        # Letters that do not follow word initials ("SCORER"): take the run of
        # capitalised words (and small words between them) that ends the phrase.
        start = len(words)
        while start > 0 and (words[start - 1][:1].isupper() or (
            words[start - 1].lower() in _SMALL_WORDS and start < len(words)
        )):
            start -= 1
        while start < len(words) and words[start].lower() in _SMALL_WORDS:
            start += 1
        if len(words) - start < 2:
            return ""
    return _ARTICLE.sub("", _LEADING_VERB.sub("", " ".join(words[start:])))


def _clip(text: str) -> str:
    """Cut a description at its first clause boundary and at _MAX_WORDS words."""
    cut = _CUT.search(text)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"\s*\([^()]*\)?$", "", text.strip())
    words = _drop_dangling(text.split()[:10])
    return " ".join(words).strip(" ,")


def _drop_dangling(words: list[str]) -> list[str]:
    # A title must not end on "of", "and", "the": drop trailing small words.
    while len(words) > 2 and (
        words[-1].lower() in _SMALL_WORDS
        or words[-1].lower() in _NEEDS_MORE
        or words[-1].endswith((",", "("))
        or len(words[-1].strip(",.;:")) < 2
    ):
        words = words[:-1]
    if words:
        words[-1] = words[-1].rstrip(",;:")
    return words


def sentences(plain: str) -> list[str]:
    """Split plain text into sentences."""
    parts: list[str] = []
    for piece in _SENTENCE_END.split(plain):
        piece = piece.strip()
        if not piece:
            continue
        if parts and _ABBREVIATION_END.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {piece}"
        else:
            parts.append(piece)
    return parts


def headline(plain: str) -> str:
    """Return a headline built from the abstract's contribution sentence."""
    parts = sentences(plain)
    if not parts:
        return "Abstract"
    sentence = next((s for s in parts if _CONTRIBUTION.search(s)), parts[0])
    match = _CONTRIBUTION.search(sentence)
    if match:
        phrase = _LEADERS.sub("", sentence[match.start():])
        verb_match = _SUBJECT_VERB.match(phrase)
        if verb_match:
            verb = verb_match.group(1).lower()
            phrase = phrase[verb_match.end():]
            if verb.startswith(("show", "demonstrate", "find", "prove", "reveal")):
                phrase = re.sub(r"^that\s+", "", phrase, flags=re.I)
            elif verb.startswith(("study", "investigate", "analy", "explore", "examine", "revisit", "characteri")):
                phrase = re.sub(r"^(?:the|how)\s+", "", phrase, flags=re.I)
                phrase = f"{'On ' if not phrase.lower().startswith(('whether', 'why', 'when')) else ''}{phrase}"
    else:
        phrase = _LEADERS.sub("", sentence)
    phrase = _ARTICLE.sub("", phrase.strip())
    # "... this bottleneck by introducing a GPU-accelerated solver" -> the thing introduced.
    by = re.search(r"\bby (?:introducing|proposing|developing|presenting|designing|building) (?:a |an |the )?(.{12,})", phrase)
    if by and re.match(r"(?:this|these|the|that|such)\b", phrase, re.I):
        phrase = by.group(1)
    cut = _CUT.search(phrase)
    if cut and len(phrase[: cut.start()].split()) >= _MIN_WORDS:
        phrase = phrase[: cut.start()]
    words = phrase.rstrip(".!? ").split()
    if len(words) > _MAX_WORDS:
        words = _drop_dangling(_clip_at_preposition(words))
    else:
        words = _drop_dangling(words)
    text = " ".join(words).strip(" ,;:")
    text = re.sub(r"\s*\([^()]*$", "", text)  # a parenthesis opened but not closed
    return _title_case(text) if text else _title_case(" ".join(parts[0].split()[:_MAX_WORDS]))


def _clip_at_preposition(words: list[str]) -> list[str]:
    # Prefer to stop before a connective that begins a long trailing phrase.
    head = words[:_MAX_WORDS]
    for i in range(len(head) - 1, _MIN_WORDS + 2, -1):
        if head[i].lower() in {"by", "using", "through", "that", "which", "with", "to", "and", "while", "from", "in"}:
            return head[:i]
    return head


def _title_case(text: str) -> str:
    """Capitalise like a venue title, keeping acronyms and names as written."""
    text = text.strip().strip(" ,;:").rstrip(".")
    # Quotes around a coined word ('a "nudging" method') do not belong in a title.
    text = re.sub(r"[\"\u201c\u201d]", "", text)
    words = text.split(" ")
    out = []
    for i, word in enumerate(words):
        if not word:
            continue
        lower = word.lower()
        if i > 0 and lower in _SMALL_WORDS and not out[-1].endswith(":"):
            out.append(lower)
        else:
            # Capitalise each all-lowercase part ("length-based" -> "Length-Based");
            # keep parts with capitals as written (acronyms, names: "bAsed" stays).
            out.append("-".join(p[:1].upper() + p[1:] if p.islower() else p for p in word.split("-")))
    return " ".join(out)


# "Contextual Similarity Distillation, a Novel Approach That ..." reads as "Name: A Novel Approach ...".
_HEAD_APPOSITIVE = re.compile(r"^([^,:;]{6,70}), (?=(?:a|an|the) )", re.I)
# "..., a Framework" at the end of a description: the appositive says nothing more.
_TRAILING_APPOSITIVE = re.compile(r",\s+(?:a|an|the)\s+\S+(?:\s+\S+)?$", re.I)


def _headline_colon(title: str) -> str:
    match = _HEAD_APPOSITIVE.match(title)
    if not match or len(match.group(1).split()) > 8:
        return title
    rest = title[match.end():]
    return f"{match.group(1)}: {rest[:1].upper()}{rest[1:]}"


def _shorten(title: str, max_chars: int) -> str:
    title = _balance_brackets(" ".join(title.split()))
    if len(title) <= max_chars:
        return title
    cut = title[: max_chars + 1].rsplit(" ", 1)[0]
    words = _drop_dangling(cut.split())
    return _balance_brackets(" ".join(words).rstrip(" ,;:")) + "…"


def _balance_brackets(text: str) -> str:
    """Remove brackets that do not close (or open) within the title."""
    for left, right in ("()", "[]", "{}"):
        while text.count(left) != text.count(right):
            if text.count(left) > text.count(right):
                index = text.rfind(left)
            else:
                index = text.find(right)
            text = (text[:index] + text[index + 1 :]).replace("  ", " ")
    return text.strip()


def unique_titles(titles: list[str], disambiguators: list[str]) -> list[str]:
    """Make titles unique: colliding titles get a distinguishing suffix."""
    counts = Counter(t.casefold() for t in titles)
    seen: Counter[str] = Counter()
    out = []
    for title, extra in zip(titles, disambiguators, strict=True):
        key = title.casefold()
        if counts[key] > 1:
            seen[key] += 1
            title = f"{title} ({extra})" if extra else f"{title} ({seen[key]})"
        out.append(title)
    # A suffix could still collide ("X (2)" given twice): fall back to numbers.
    if len({t.casefold() for t in out}) != len(out):
        return unique_titles([f"{t}" for t in out], [""] * len(out))
    return out
