"""The topic vocabulary and its phrase evidence: loading topics, matching their phrases, keywords as topics.

Each function here is pure and looks at one abstract at a time, so a paper's
topic evidence does not depend on the rest of the digest (folding.py works
across the digest).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml
from slugify import slugify

from ..errors import DigestError
from ..model import Tag
from .evidence import StrictMatches

# A topic needs this much evidence in one abstract: two mentions, or one
# specific multi-word phrase and one more mention.
PHRASE_MIN_SCORE = 2.0
_PHRASE_WEIGHT = 1.5


@dataclass(frozen=True)
class Topic:
    """A topic of the vocabulary with its compiled matchers."""

    name: str
    phrases: tuple[str, ...]
    acronyms: tuple[str, ...]
    phrase_pattern: re.Pattern[str] | None
    acronym_pattern: re.Pattern[str] | None
    #: Broad synonyms that name the topic only as a whole author keyword ("optimization").
    keywords: frozenset[str] = frozenset()
    #: The broader topic this one folds into when too few papers of a digest have it ("Offline RL" into
    #: "Deep RL Algorithms"). Not part of what the topic matches, so not of its equality either.
    parent: str = field(default="", compare=False)
    #: Phrases that name the topic inside an author keyword ("constrained RL"), too broad as evidence in running text.
    keyword_pattern: re.Pattern[str] | None = None
    #: What an abstract must mention for the topic to be given at all (a language model, for an LLM-era topic).
    requires_pattern: re.Pattern[str] | None = None
    #: Given only when the abstract names it as its subject (topic_model.names_subject), not as a tool it uses.
    contribution_only: bool = False
    #: The field whose topics it competes with for a phrase (`topic_hits(strict=True)`): a vision topic's
    #: "visual odometry" does not take "odometry" from a robotics topic. Empty: one vocabulary.
    group: str = ""

    @property
    def slug(self) -> str:
        return tag_slug(self.name)


@lru_cache(maxsize=4096)
def tag_slug(name: str) -> str:
    """Return the URL slug of a tag name (a digest has few tag names and many tags: memoized)."""
    return slugify(name, max_length=60, word_boundary=True) or "tag"


def _phrase_regex(phrase: str) -> str:
    words = [re.escape(w) for w in phrase.strip().split()]
    body = r"[\s-]+".join(words)
    if body.endswith(r"\*"):
        return body[:-2] + r"\w*"
    return body + r"s?"


def _words_pattern(phrases: list[str] | tuple[str, ...], end: str = r"(?![\w-])") -> re.Pattern[str] | None:
    """Return a pattern of phrases (case-insensitive) and acronyms (all capitals: exact) on word boundaries."""
    if not phrases:
        return None
    parts = [f"(?-i:{re.escape(p)}s?)" if p.isupper() else _phrase_regex(p) for p in phrases]
    return re.compile(r"(?<![\w-])(?:" + "|".join(parts) + ")" + end, re.I)


#: What an abstract says when it is about language models: an LLM-era topic (`llm_era` in topics.yaml)
#: and the LLM area are given only to an abstract that says one of these. A model name may go on
#: with a hyphen ("GPT-4", "Llama-2").
LANGUAGE_MODEL_MENTIONS = (
    "language model*", "LLM", "MLLM", "VLM", "LVLM", "LRM", "SLM", "gpt*", "chatgpt", "llama*", "chatbot*",
    "foundation model*", "vision-language model*", "vision language model*", "multimodal model*", "large model*",
    "reasoning model*", "instruction-tuned", "instruction tuning", "BERT", "RoBERTa", "qwen*", "mistral", "claude",
    "gemini", "deepseek*", "vicuna", "llava", "text-to-text transformer*", "generative pre-trained", "copilot",
)
LANGUAGE_MODEL_PATTERN = _words_pattern(LANGUAGE_MODEL_MENTIONS, end=r"(?!\w)")


def mentions_language_model(text: str) -> bool:
    """Return whether a text mentions a language model (or an LLM by name)."""
    return bool(LANGUAGE_MODEL_PATTERN and LANGUAGE_MODEL_PATTERN.search(text))


def compile_topic(
    name: str,
    phrases: list[str],
    acronyms: list[str],
    keywords: list[str] | None = None,
    parent: str = "",
    keyword_phrases: list[str] | None = None,
    llm_era: bool = False,
    contribution_only: bool = False,
    group: str = "",
) -> Topic:
    """Build a Topic from its name, phrases (case-insensitive), acronyms (exact), whole-keyword synonyms, parent.

    `keyword_phrases` (phrases, or acronyms in capitals) name the topic inside an author keyword
    only; an `llm_era` topic is given only to an abstract that mentions a language model.
    """
    phrase_pattern = (
        re.compile(r"(?<![\w-])(?:" + "|".join(_phrase_regex(p) for p in phrases) + r")(?![\w-])", re.I)
        if phrases
        else None
    )
    acronym_pattern = (
        re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(a) for a in acronyms) + r")(?![\w-])") if acronyms else None
    )
    whole = frozenset(normalise_keyword(k) for k in [name, *(keywords or [])])
    return Topic(
        name, tuple(phrases), tuple(acronyms), phrase_pattern, acronym_pattern, whole, parent,
        _words_pattern(keyword_phrases or []), LANGUAGE_MODEL_PATTERN if llm_era else None, contribution_only,
        group,
    )


def load_topics(path: str | Path | None = None) -> tuple[Topic, ...]:
    """Load a topic vocabulary from YAML (the bundled one when `path` is empty)."""
    if path:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise DigestError(f"{path}: cannot read the topics file: {exc}") from exc
    else:
        source = "generator/data/topics.yaml"
        text = resources.files("generator").joinpath("data/topics.yaml").read_text(encoding="utf-8")
    return _parse_topics(text, source)


@lru_cache(maxsize=1)
def renamed_topics() -> dict[str, str]:
    """Return the bundled vocabularies' former topic and area names with the names that took their place."""
    text = resources.files("generator").joinpath("data/renamed_topics.yaml").read_text(encoding="utf-8")
    return {str(old): str(new) for old, new in (yaml.safe_load(text) or {}).items()}


@lru_cache(maxsize=8)
def _parse_topics(text: str, source: str) -> tuple[Topic, ...]:
    try:
        items = yaml.safe_load(text) or []
    except yaml.YAMLError as exc:
        raise DigestError(f"{source}: not valid YAML: {exc}") from exc
    if not isinstance(items, list):
        raise DigestError(f"{source}: expected a list of topics")
    return topics_from_entries(items, source)


def topics_from_entries(items: list, source: str) -> tuple[Topic, ...]:
    """Compile topic entries ({name, phrases, acronyms, keywords, parent, group}) read from a YAML file."""
    topics = []
    names = {item.get("name") for item in items if isinstance(item, dict)}
    for index, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise DigestError(f"{source}: topic {index} needs a `name`")
        phrases = [str(p) for p in item.get("phrases") or []]
        acronyms = [str(a) for a in item.get("acronyms") or []]
        keywords = [str(k) for k in item.get("keywords") or []]
        if not phrases and not acronyms:
            raise DigestError(f"{source}: topic {item['name']!r} needs `phrases` or `acronyms`")
        parent = str(item.get("parent") or "")
        if parent and (parent not in names or parent == item["name"]):
            raise DigestError(
                f"{source}: topic {item['name']!r}: its parent {parent!r} is not another topic of the file"
            )
        keyword_phrases = [str(k) for k in item.get("keyword_phrases") or []]
        flags = (bool(item.get("llm_era")), bool(item.get("contribution_only")))
        topics.append(compile_topic(item["name"], phrases, acronyms, keywords, parent, keyword_phrases, *flags,
                                    group=str(item.get("group") or "")))
    return tuple(topics)


_TOKEN = re.compile(r"[A-Za-z0-9]+")


@dataclass
class _Index:
    """Every phrase of a vocabulary as word tuples, for one pass over an abstract's words.

    Not frozen: it learns the words of the abstracts it meets (`start_words`,
    `seen_words`, `word_prefixes`), so each distinct word is tested once.
    """

    exact: dict[tuple[str, ...], tuple[int, ...]]
    prefix: dict[tuple[str, ...], tuple[int, ...]]  # last word is a prefix ("molecul*")
    acronyms: dict[str, tuple[int, ...]]
    #: Each topic's group (`Topic.group`) as a number: topics compete for a phrase within their group.
    groups: tuple[int, ...]
    longest: int
    prefix_lengths: tuple[int, ...]
    #: Word tuples that begin a longer phrase: a longer match is tried only after one of them.
    inner: frozenset[tuple[str, ...]]
    #: The leading words of multi-word prefix phrases ("graph neural" of "graph neural net*").
    prefix_heads: frozenset[tuple[str, ...]]
    #: Words a phrase can start with: the first words of phrases (and their
    #: plurals), then every word seen so far that a one-word prefix phrase matches. Words
    #: are learnt as abstracts come, so each distinct word is tested once.
    start_words: set[str]
    seen_words: set[str] = field(default_factory=set)
    #: The topics of the one-word prefix phrases each learnt word matches, longest stem first.
    word_prefixes: dict[str, tuple[int, ...]] = field(default_factory=dict)


_INDEXES: dict[int, tuple[tuple[Topic, ...], _Index]] = {}


def _index(topics: tuple[Topic, ...]) -> _Index:
    """Return the index of a vocabulary, built once per vocabulary object."""
    # Keyed by identity: hashing 70 topics on every abstract cost more than matching.
    cached = _INDEXES.get(id(topics))
    if cached is None or cached[0] is not topics:
        if len(_INDEXES) >= 8:
            _INDEXES.clear()
        cached = _INDEXES[id(topics)] = (topics, _build_index(topics))
    return cached[1]


def _build_index(topics: tuple[Topic, ...]) -> _Index:
    exact: dict[tuple[str, ...], list[int]] = {}
    prefix: dict[tuple[str, ...], list[int]] = {}
    acronyms: dict[str, list[int]] = {}
    longest = 1
    for number, topic in enumerate(topics):
        for phrase in topic.phrases:
            words = tuple(_TOKEN.findall(phrase.lower()))
            if not words:
                continue
            longest = max(longest, len(words))
            target = prefix if phrase.rstrip().endswith("*") else exact
            target.setdefault(words, []).append(number)
        for acronym in topic.acronyms:
            acronyms.setdefault(acronym, []).append(number)
    freeze = lambda d: {k: tuple(dict.fromkeys(v)) for k, v in d.items()}  # noqa: E731
    firsts = {words[0] for words in exact} | {words[0] for words in prefix if len(words) > 1}
    starts = firsts | {word + "s" for word in firsts} | {word + "es" for word in firsts}
    lengths = tuple(sorted({len(words[-1]) for words in prefix}, reverse=True))
    inner = frozenset(words[:k] for words in (*exact, *prefix) for k in range(1, len(words)))
    numbers: dict[str, int] = {}
    return _Index(
        groups=tuple(numbers.setdefault(topic.group, len(numbers)) for topic in topics),
        exact=freeze(exact),
        prefix=freeze(prefix),
        acronyms=freeze(acronyms),
        longest=longest,
        prefix_lengths=lengths,
        inner=inner,
        prefix_heads=frozenset(words[:-1] for words in prefix if len(words) > 1),
        start_words=set(starts),
    )


def _prefix_topics(index: _Index, head: tuple[str, ...], last: str) -> list[int]:
    """Return the topics of the prefix phrases that `head` and the start of `last` spell ("molecul*")."""
    return [
        topic for cut in index.prefix_lengths if cut <= len(last) for topic in index.prefix.get((*head, last[:cut]), ())
    ]


def _learn_words(index: _Index, words: list[str]) -> None:
    """Add to `index.start_words` the new words that a one-word prefix phrase matches."""
    new = set(words) - index.seen_words
    if new:
        index.seen_words.update(new)
        for word in new:
            found = _prefix_topics(index, (), word)
            if found:
                index.start_words.add(word)
                index.word_prefixes[word] = tuple(found)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def topic_hits(text: str, topics: tuple[Topic, ...], strict: bool = False) -> list[tuple[int, int, float, str]]:
    """Return every phrase or acronym match of an abstract: (topic index, character offset, weight, words).

    One pass over the words: at each word, the longest phrase of each topic that
    starts there counts (a plural matches its singular; "molecul*" any ending);
    a multi-word phrase weighs 1.5, a word or acronym 1. A topic's matches never overlap.

    `strict` (the field topic model's features: `strict_evidence`) keeps only what names a subject: a
    match inside a longer one of another topic of its field (`Topic.group`: "speech" of "hate speech",
    "video" of "video object segmentation") is none, nor is an acronym that begins a compound name ("SR"
    of "SR-LSTM") or that the abstract defines as other words; an acronym it defines as a topic's phrase
    ("relation extraction (RE)") is that topic's wherever it recurs.
    """
    index = _index(topics)
    tokens = list(_TOKEN.finditer(text))  # spans, for the evidence as the abstract spells it
    originals = [token.group() for token in tokens]
    # Tokens are ASCII, so lowering them joined keeps one word per token.
    words = " ".join(originals).lower().split(" ") if originals else []
    _learn_words(index, words)
    starts, acronyms = index.start_words, index.acronyms
    # Only the words a phrase or an acronym can start at are visited, in order.
    pairs = enumerate(zip(words, originals, strict=True))
    at = [i for i, (word, original) in pairs if word in starts or original in acronyms]
    if not at:
        return []
    hits: list[tuple[int, int, float, str]] = []
    covered: dict[int, int] = {}

    def hit(topic: int, start: int, end: int, weight: float, shown: str) -> None:
        if covered.get(topic, -1) > start:
            return  # overlaps this topic's previous match
        covered[topic] = end
        hits.append((topic, tokens[start].start(), weight, shown))

    strictly = StrictMatches(text, tokens, originals, acronyms, index.groups) if strict else None
    inner, exact, word_prefixes, prefix_heads = index.inner, index.exact, index.word_prefixes, index.prefix_heads
    for i in at:
        found: dict[int, int] = {}
        if words[i] in starts:
            # Shortest first, stopping where no phrase goes on; a topic keeps its longest match.
            for n in range(1, min(index.longest, len(words) - i) + 1):
                key = tuple(words[i : i + n])
                if n > 1 and key[:-1] not in inner:
                    break
                last = key[-1]
                for topic in exact.get(key, ()):
                    found[topic] = n
                if len(last) > 3 and last[-1] == "s":  # a plural matches its singular (`_singular`)
                    for topic in exact.get((*key[:-1], last[:-1]), ()):
                        found[topic] = n
                if n == 1:
                    for topic in word_prefixes.get(last, ()):
                        found[topic] = n
                elif key[:-1] in prefix_heads:
                    for topic in _prefix_topics(index, key[:-1], last):
                        found[topic] = n
        if strictly is not None:
            found, named = strictly.step(i, found) if found or originals[i] in acronyms else (found, ())
        else:
            named = acronyms.get(originals[i], ())
        for topic, n in found.items():
            shown = text[tokens[i].start() : tokens[i + n - 1].end()].lower()
            hit(topic, i, i + n, _PHRASE_WEIGHT if n > 1 else 1.0, shown)
        for topic in named:
            if topic not in found:
                hit(topic, i, i + 1, 1.0, originals[i])
    if strictly is not None and strictly.later:
        for i, topic in strictly.defined_uses():
            hit(topic, i, i + 1, 1.0, originals[i])
        hits.sort(key=lambda h: h[1])
    return hits


def phrase_confidence(score: float) -> float:
    """Return the confidence of a phrase score (1 for a mention, 1.5 for a multi-word phrase, summed)."""
    return round(1.0 - math.exp(-score / 3.0), 3)


def match_topics(text: str, topics: tuple[Topic, ...], min_score: float = PHRASE_MIN_SCORE) -> list[Tag]:
    """Return the topics an abstract's phrases support (score at least `min_score`), strongest first."""
    scores: dict[int, float] = {}
    evidence: dict[int, Counter[str]] = {}
    for topic, _offset, weight, spelled in topic_hits(text, topics):
        scores[topic] = scores.get(topic, 0.0) + weight
        evidence.setdefault(topic, Counter())[spelled] += 1
    tags = []
    for topic, score in scores.items():
        if score >= min_score:
            shown = tuple(w for w, _ in sorted(evidence[topic].items(), key=lambda kv: (-kv[1], kv[0]))[:5])
            tags.append(Tag(topics[topic].name, topics[topic].slug, "topic", phrase_confidence(score), shown))
    tags.sort(key=lambda t: (-t.confidence, t.name))
    return tags


def normalise_keyword(keyword: str) -> str:
    """Return the key two spellings of one keyword share ("Offline-RL" and "offline RL")."""
    words = re.sub(r"[\s_-]+", " ", keyword.casefold()).strip(" .;:")
    # "processes" and "process" share "process"; a plain plural loses its s ("models": "model").
    words = re.sub(r"(?<=[a-z]{2}ss)es\b", "", words)
    return re.sub(r"(?<=[a-z]{3})(?<!s)s\b", "", words)


def mentions_required(topic: Topic, text: str) -> bool:
    """Return whether an abstract mentions what the topic requires (always, for a topic that requires nothing)."""
    return topic.requires_pattern is None or bool(topic.requires_pattern.search(text))
