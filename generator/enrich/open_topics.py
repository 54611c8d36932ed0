"""Open topics: a digest's own topics for papers no vocabulary topic fits, named from the phrases they share.

After folding, the papers left without a topic are grouped by the phrases of two or
three words their titles and contribution sentences share ("language documentation",
"sign language"): a phrase that at least `min_papers` of them use, and that is not
only words most abstracts use (`field_words`), becomes a topic of the digest, named
from the phrase and marked as an open topic in its evidence. A paper takes the open
topic of the phrase most of the others share (longer phrases first on a tie). A paper
sharing no such phrase is listed under its area only. Counting papers only, the
result does not depend on the order of the papers.
"""

from __future__ import annotations

import re
from collections import Counter

from ..model import Tag
from .tags import _singular, tag_slug
from .titles.defects import field_words
from .topic_model import contribution_sentences

#: The evidence an open topic carries first: the site shows it in "Why these tags?".
OPEN_TOPIC = "open topic: named from a phrase its papers share"
#: Words of three letters or more ("e.g." and "i.e." are no words of a subject).
_WORD = re.compile(r"[a-z][a-z0-9-]{2,}")
_BREAK = re.compile(r"[,;:.!?()\[\]{}\"]")
_ADDRESS = re.compile(r"\S*(?:https?:|www\.|github|\.com|\.org)\S*", re.I)
_STOP = frozenset((
    "a", "an", "the", "of", "for", "and", "or", "in", "on", "with", "to", "via", "from", "by", "using",
    "towards", "toward", "based", "its", "is", "are", "we", "our", "at", "as", "into", "under", "over",
    "without", "through", "this", "that", "these", "those", "their", "it", "be", "can", "which", "new",
    "novel", "study", "approach", "method", "methods", "model", "models", "paper", "task", "tasks", "results",
    "problem", "problems", "propose", "proposed", "present", "show", "use", "between", "among", "extended",
    "abstract", "via", "than", "more", "less", "when", "how", "what", "why", "does", "not", "all", "both",
    "proposes", "presents", "introduces", "first", "work",
))
#: Heads that leave a phrase a tool, a backbone or a setting, not a subject ("Convolutional Neural Network",
#: "Robotic System", "Unknown Environment", "Gradient Descent", "Ground Truth", "First Attempt").
_TOOL_HEADS = frozenset((
    "network", "networks", "net", "nets", "system", "systems", "environment", "environments", "framework",
    "frameworks", "architecture", "architectures", "module", "modules", "descent", "truth", "attempt", "setting",
    "settings", "scenario", "scenarios", "pipeline", "pipelines", "backbone", "backbones", "layer", "layers",
))
#: Words that qualify a tool's name and end no subject ("Deep Convolutional", "Graph Convolutional").
_MODIFIERS = frozenset(("convolutional", "neural", "recurrent", "deep", "residual"))
#: The names of fields: a digest's field is no topic of its own ("Computer Vision" in a CVPR digest).
_FIELD_NAMES = frozenset((
    "computer vision", "natural language processing", "machine learning", "deep learning", "artificial intelligence",
    "robotic", "robotics", "language processing", "data mining", "computer graphics", "learning theory",
))


def _phrases(text: str) -> dict[str, str]:
    """Return the phrases of two or three words of a text that neither start nor end with a stop word.

    Keyed so that plural and singular meet ("neural networks", "neural network"), each with its spelling.
    """
    common = field_words()
    found: dict[str, str] = {}
    # An address is no phrase, and a phrase never runs over a comma, a colon or a sentence's end.
    for part in _BREAK.split(_ADDRESS.sub(" ", text.lower())):
        _add_phrases(_WORD.findall(part), common, found)
    return found


def _add_phrases(words: list[str], common: frozenset[str], found: dict[str, str]) -> None:
    for size in (2, 3):
        for start in range(len(words) - size + 1):
            gram = words[start : start + size]
            if gram[0] in _STOP or gram[-1] in _STOP or any(w in _STOP and w not in ("of", "and") for w in gram):
                continue
            if all(w in common or w in _STOP for w in gram):
                continue  # only the field's own words ("neural network", "language model") name no subject
            if gram[-1] in _TOOL_HEADS or " ".join(gram) in _FIELD_NAMES:
                continue  # a tool, a setting or the field itself names no subject
            if gram[-1] in _MODIFIERS or (start + size < len(words) and words[start + size] in _TOOL_HEADS):
                continue  # nor does a tool's name cut short ("convolutional neural" of "... network")
            found.setdefault(" ".join(_singular(w) for w in gram), " ".join(gram))


def _name(phrase: str) -> str:
    return " ".join(w if w in ("of", "and") else w[:1].upper() + w[1:] for w in phrase.split())


def open_topics(titles: list[str], plains: list[str], bare: list[int], min_papers: int) -> dict[int, Tag]:
    """Return the open topic of each paper of `bare` (indices of papers without a topic) that shares one."""
    phrases = {i: _phrases(titles[i]) | _phrases(" ".join(contribution_sentences(plains[i]))) for i in bare}
    counts = Counter(key for found in phrases.values() for key in found)
    spellings: dict[str, Counter[str]] = {}
    for found in phrases.values():
        for key, spelled in found.items():
            spellings.setdefault(key, Counter())[spelled] += 1
    shared = {key for key, n in counts.items() if n >= min_papers}
    # A phrase cut short ("convolutional neural") gives way to the longer one most of its papers share.
    shared -= {
        key for key in shared if len(key.split()) == 2
        and any(len(other.split()) == 3 and key in other and counts[other] >= 0.6 * counts[key] for other in shared)
    }
    # A paper's phrase: the one most others share, then the longer, then the first alphabetically.
    chosen = {}
    for i in bare:
        mine = sorted(phrases[i].keys() & shared, key=lambda key: (-counts[key], -len(key.split()), key))
        if mine:
            chosen[i] = mine[0]
    sizes = Counter(chosen.values())
    result = {}
    for i, phrase in sorted(chosen.items()):
        if sizes[phrase] >= min_papers:
            spelled = sorted(spellings[phrase].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            name = _name(spelled)
            result[i] = Tag(name, tag_slug(name), "topic", 0.0, (OPEN_TOPIC, f"phrase: {spelled}"))
    return result
