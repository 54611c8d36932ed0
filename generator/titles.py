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
_INTRO = re.compile(
    rf"\b(?:[Ww]e|[Tt]his (?:paper|work)|[Oo]ur (?:work|paper))\s+(?:also\s+|further\s+|first\s+|then\s+)?{_VERBS}s?\s+"
    rf"(?:(?:a|an|the)\s+)?(?:(?:new|novel|simple|unified|general|first|large-scale|scalable|lightweight|"
    rf"comprehensive|principled|efficient|effective)\s+)*"
    rf"(?:(?:method|framework|approach|model|benchmark|dataset|algorithm|system|technique|paradigm|"
    rf"architecture|pipeline|suite|toolkit|library|agent|strategy|metric|objective)\s+(?:called|named|dubbed|termed)?\s*)?"
    rf"({_NAME})",
)
_CALLED = re.compile(rf"\b(?:called|named|dubbed|termed|coined|denoted(?: as| by)?)\s+[\"“']?({_NAME})")
_APPOSITIVE = re.compile(rf"(?:^|[.;:]\s+|\bintroduc\w+\s+|\bpropos\w+\s+|\bpresent\w*\s+)({_NAME}),\s+(?:a|an|the)\s+")
_ACRONYM = re.compile(r"((?:[A-Z][\w'-]*|of|for|and|in|on|via|with|to|the|a|from|by)(?:\s+(?:[A-Z][\w'-]*|of|for|and|in|on|via|with|to|the|a|from|by|[a-z][\w-]*)){1,12})\s+\(([A-Z][A-Za-z0-9-]{1,15})\)")
_BOLD_LETTERS = re.compile(r"((?:[A-Za-z-]*\*\*[A-Z]{1,3}\*\*[A-Za-z-]*\s*){2,})")
_TEXTBF_LETTERS = re.compile(r"((?:[A-Za-z-]*\$?\\textbf\{[A-Z]{1,3}\}\$?[A-Za-z-]*\s*){2,})")
_BOLD_NAME = re.compile(rf"\*\*({_NAME})\*\*|\\textbf\{{({_NAME})\}}")
_MACRO_NAME = re.compile(r"\\([A-Z][A-Za-z0-9]{1,20})\{\}")
# A sentence ends at . ! ? after a word of two or more characters (not "e.g.",
# "Fig.", "1."), before a capital.
_SENTENCE_END = re.compile(r"(?<=[a-z0-9%)\]\"”'][a-z0-9%)\]\"”'][.!?])\s+(?=[A-Z\"“(\[])")
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
    r",\s+(?:which|where|while|whereas|and we|thereby|allowing|enabling|showing|achieving|leading|resulting|"
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
    raw = clean(abstract[:_READ_CHARS])
    # URLs are never part of a title; remove them before reading the sentences.
    plain = _URL_IN_TEXT.sub("", to_plain(raw))
    name, expansion = find_own_name_with_expansion(raw, plain)
    if name:
        description = _title_case(expansion) if expansion else describe(name, plain)
        if not description:
            # No expansion or appositive: say what the paper does instead.
            description = re.sub(rf"^{re.escape(name)}\b[:,]?\s*", "", headline(plain)).strip()
        title = f"{name}: {description}" if description and description.lower() != name.lower() else name
        return InferredTitle(_shorten(title, max_chars), "named-method", name)
    return InferredTitle(_shorten(headline(plain), max_chars), "headline")


def find_own_name(raw: str, plain: str) -> str:
    """Return the name the abstract gives its own contribution, or ''."""
    return find_own_name_with_expansion(raw, plain)[0]


def find_own_name_with_expansion(raw: str, plain: str) -> tuple[str, str]:
    """Return the paper's own name and, when the text spells it out, its expansion."""
    candidates: Counter[str] = Counter()
    expansions: dict[str, str] = {}
    for match in _BOLD_LETTERS.finditer(raw):
        letters = "".join(re.findall(r"\*\*([A-Z]{1,3})\*\*", match.group(1)))
        if len(letters) >= 3:
            name = _acronym_with_suffix(letters, raw, match.end())
            candidates[name] += 6
            # "**L**ength-b**A**sed **S**t**E**p **R**eward shaping (LASER)"
            spelled = match.group(1).replace("**", "") + _words_before_paren(raw[match.end():])
            expansions[name] = " ".join(w[:1].upper() + w[1:].lower() for w in spelled.split())
    for match in _TEXTBF_LETTERS.finditer(raw):
        letters = "".join(re.findall(r"\\textbf\{([A-Z]{1,3})\}", match.group(1)))
        if len(letters) >= 3:
            candidates[letters] += 6
    for match in _MACRO_NAME.finditer(raw):
        candidates[match.group(1)] += 4
    for match in _BOLD_NAME.finditer(raw):
        candidates[match.group(1) or match.group(2)] += 3
    for match in _INTRO.finditer(plain):
        candidates[match.group(1)] += 5
    for match in _CALLED.finditer(plain):
        candidates[match.group(1)] += 4
    for match in _APPOSITIVE.finditer(plain):
        candidates[match.group(1)] += 3
    for match in _ACRONYM.finditer(plain):
        if _expansion_matches(match.group(1), match.group(2)):
            candidates[match.group(2)] += 3
    best, best_score = "", 0.0
    for name, score in candidates.items():
        if not _looks_like_name(name) or name in _NOT_OWN_NAMES:
            continue
        # The paper's own name recurs; a baseline is mentioned once or twice.
        mentions = len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", plain))
        total = score + min(mentions, 6)
        if total > best_score:
            best, best_score = name, total
    if best_score < 5:
        return "", ""
    return best, expansions.get(best, "")


def _words_before_paren(text: str) -> str:
    # Up to three lowercase words between a spelled-out acronym and its "(NAME)".
    match = re.match(r"((?:\s*[a-z][\w-]*){0,3})\s*\(", text)
    return match.group(1) if match else ""


def _acronym_with_suffix(letters: str, raw: str, end: int) -> str:
    # "**L**ength-b**A**sed ... (LASER)": prefer the acronym as the text spells it.
    spelled = re.search(rf"\b({letters}(?:-[A-Z0-9]+)?)\b", raw)
    return spelled.group(1) if spelled else letters


def _looks_like_name(word: str) -> bool:
    if len(word) < 2 or len(word) > 30 or word.lower() in _SMALL_WORDS:
        return False
    upper = sum(c.isupper() for c in word)
    # A name has a capital past its first letter (GRACE, VisionReasoner, Zebra-CoT) or a digit.
    return upper >= 2 or (upper >= 1 and any(c.isdigit() for c in word)) or (
        word[0].isupper() and any(c.isupper() for c in word[1:])
    )


def _expansion_matches(phrase: str, acronym: str) -> bool:
    initials = "".join(w[0] for w in re.split(r"[\s-]+", phrase) if w and w[0].isupper())
    letters = "".join(c for c in acronym if c.isupper())
    return len(letters) >= 2 and letters[:2] in initials


def describe(name: str, plain: str) -> str:
    """Return the expansion of `name` or a short description of what it is."""
    escaped = re.escape(name)
    # "Generative Representation Learning via Contrastive Policy Optimization (GRACE)"
    for match in _ACRONYM.finditer(plain):
        if match.group(2) == name:
            phrase = _trim_expansion(match.group(1), name)
            if phrase:
                return _title_case(phrase)
    # "GRACE (Generative Representation Learning via ...)"
    after = re.search(rf"(?<![\w-]){escaped}\s+\(([^()]{{8,120}})\)", plain)
    if after and _expansion_matches(after.group(1), name):
        return _title_case(after.group(1))
    # "WorldGym, a world-model environment for policy evaluation"
    appositive = re.search(
        rf"(?<![\w-]){escaped}(?:\s+\([^()]*\))?,\s+(?:a|an|the)\s+(?:(?:new|novel|simple)\s+)?([^.;]{{6,200}})", plain
    )
    if appositive:
        return _title_case(_clip(appositive.group(1)))
    # "we propose a novel framework, GRACE, that ..." -> the phrase before the name.
    before = re.search(rf"{_VERBS}s?\s+(?:a|an|the)\s+(?:(?:new|novel|simple)\s+)?([^.;,]{{6,120}}?),?\s+(?:called\s+|named\s+|dubbed\s+|termed\s+)?{escaped}\b", plain, re.I)
    if before:
        return _title_case(_clip(before.group(1)))
    # "GRACE is a ..." / "GRACE that ..."
    copula = re.search(rf"(?<![\w-]){escaped}(?:\s+\([^()]*\))?\s+(?:is|as|which is)\s+(?:a|an)\s+([^.;]{{6,200}})", plain)
    if copula:
        return _title_case(_clip(copula.group(1)))
    return ""


def _trim_expansion(phrase: str, acronym: str) -> str:
    """Keep the tail of a capitalised phrase that spells the acronym."""
    words = phrase.split()
    letters = [c for c in acronym if c.isupper()]
    # Walk back from the end until the capitalised words cover the acronym's letters.
    covered, start = 0, len(words)
    for i in range(len(words) - 1, -1, -1):
        if words[i][0].isupper():
            covered += 1
        start = i
        if covered >= len(letters) or (words[i][0].isupper() and words[i][0] == letters[0] and covered >= len(letters) - 1):
            break
    phrase = " ".join(words[start:])
    return _ARTICLE.sub("", phrase)


def _clip(text: str) -> str:
    """Cut a description at its first clause boundary and at _MAX_WORDS words."""
    cut = _CUT.search(text)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"\s*\([^()]*\)?$", "", text.strip())
    words = text.split()
    if len(words) > 10:
        words = _drop_dangling(words[:10])
    return " ".join(words).strip(" ,")


def _drop_dangling(words: list[str]) -> list[str]:
    # A title must not end on "of", "and", "the": drop trailing small words.
    while len(words) > 2 and (words[-1].lower() in _SMALL_WORDS or words[-1].endswith((",", "("))):
        words = words[:-1]
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
