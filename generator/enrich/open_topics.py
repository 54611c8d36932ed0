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

import json
import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources

from ..model import Tag
from .tags import _singular, tag_slug
from .titles.defects import field_words
from .topic_model import contribution_sentences

#: The evidence an open topic carries first: the site shows it in "Why these tags?".
OPEN_TOPIC = "open topic: named from a phrase its papers share"
#: The phrases' title rates, in generator/data (`title_rates`).
PHRASE_RATES = "phrase_rates.json"
#: A phrase names an open topic only when at least this share of the training abstracts that use it have it in
#: their titles too (`title_rates`): subjects do ("sign language" 0.70, "video summarization" 0.53), a setting,
#: a tool or a turn of phrase does not ("real time" 0.04, "ground truth" 0.02, "three main" 0).
MIN_TITLE_RATE = 0.2
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


def _grams(text: str) -> Iterator[tuple[str, str, str]]:
    """Yield each phrase of two or three words that neither starts nor ends with a stop word: key, spelling, next word.

    The key is singular ("neural network" for "neural networks"); the next word is "" at a part's end.
    """
    # An address is no phrase, and a phrase never runs over a comma, a colon or a sentence's end.
    for part in _BREAK.split(_ADDRESS.sub(" ", text.lower())):
        words = _WORD.findall(part)
        for size in (2, 3):
            for start in range(len(words) - size + 1):
                gram = words[start : start + size]
                if gram[0] in _STOP or gram[-1] in _STOP or any(w in _STOP and w not in ("of", "and") for w in gram):
                    continue
                following = words[start + size] if start + size < len(words) else ""
                yield " ".join(_singular(w) for w in gram), " ".join(gram), following


def phrase_keys(text: str) -> dict[str, str]:
    """Return a text's phrases (`_grams`), each key with its first spelling: the keys of `title_rates`."""
    found: dict[str, str] = {}
    for key, spelled, _ in _grams(text):
        found.setdefault(key, spelled)
    return found


@lru_cache(maxsize=1)
def title_rates() -> dict[str, float]:
    """Return each phrase's title rate: of the training abstracts that use it, the share whose title does too.

    `generator/data/phrase_rates.json`, written by `python scripts/train_phrase_rates.py`; a phrase fewer
    than its `min_abstracts` abstracts use is not in it.
    """
    text = resources.files("generator").joinpath(f"data/{PHRASE_RATES}").read_text(encoding="utf-8")
    return {key: float(rate) for key, rate in json.loads(text)["rates"].items()}


def _phrases(text: str) -> dict[str, str]:
    """Return the phrases of a text that may name a subject (`phrase_keys` without tools, settings and field words).

    A phrase the training papers' titles rarely repeat from their abstracts (`title_rates` under
    `MIN_TITLE_RATE`: "three main", "query image", "ground truth") names no subject; a phrase too rare
    there to have a rate is judged by the word lists alone.
    """
    common = field_words()
    rates = title_rates()
    found: dict[str, str] = {}
    for key, spelled, following in _grams(text):
        words = spelled.split()
        if key in found or rates.get(key, MIN_TITLE_RATE) < MIN_TITLE_RATE:
            continue
        if all(w in common or w in _STOP for w in words):
            continue  # only the field's own words ("neural network", "language model") name no subject
        if words[-1] in _TOOL_HEADS or spelled in _FIELD_NAMES:
            continue  # a tool, a setting or the field itself names no subject
        if words[-1] in _MODIFIERS or following in _TOOL_HEADS:
            continue  # nor does a tool's name cut short ("convolutional neural" of "... network")
        found[key] = spelled
    return found


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
