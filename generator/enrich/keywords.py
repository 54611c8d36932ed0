"""Author keywords: the topics they name (the topic model's labels) and the keyword tags a source's keywords give.

A structured source's keywords become topic tags: one that names a topic of
the vocabulary joins it, any other becomes a tag of its own, cleaned so that
its spellings across sources meet on one tag ("LLM", "LLMs", "Large Language
Models" and "Language Models"; plural and singular; hyphen and space) and
acronyms keep their capitals ("NLP", not "Nlp").
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ..model import Tag
from .tags import Topic, mentions_required, normalise_keyword, tag_slug
from .titles.defects import field_words

#: Subjects that say nothing about the paper: a venue's "Track: General", or a whole field ("Deep Learning").
_EMPTY_SUBJECTS = frozenset({
    "general", "other", "others", "misc", "miscellaneous", "-", "none", "", "application", "other application",
    "deep learning", "machine learning", "artificial intelligence", "ai", "ml", "learning", "neural network",
    "deep neural network",
})

#: A venue's track named as a keyword ("Journal Track", "Special Track on AI for Good"): where, not what.
_TRACK = re.compile(r"\btracks?\b", re.IGNORECASE)

#: Keys of one subject under another spelling: an acronym and its expansion, or a looser name of it.
KEYWORD_VARIANTS = {
    "llm": "large language model",
    "language model": "large language model",
    "large language model llm": "large language model",
    "lm": "large language model",
    "vlm": "vision language model",
    "vision and language model": "vision language model",
    "mllm": "multimodal large language model",
    "multimodal llm": "multimodal large language model",
    "gnn": "graph neural network",
    "cnn": "convolutional neural network",
    "convolutional network": "convolutional neural network",
    "rnn": "recurrent neural network",
    "gan": "generative adversarial network",
    "vae": "variational autoencoder",
    "rl": "reinforcement learning",
    "deep rl": "deep reinforcement learning",
    "marl": "multi agent reinforcement learning",
    "nlp": "natural language processing",
    "cv": "computer vision",
    "ml": "machine learning",
    "ai": "artificial intelligence",
    "dnn": "deep neural network",
    "xai": "explainable ai",
    "sgd": "stochastic gradient descent",
    "nerf": "neural radiance field",
    "vla": "vision language action model",
}

#: Words written in capitals when a source gives a keyword in lower case only ("nlp" shows as "NLP").
ACRONYMS = frozenset({
    "ai", "ml", "nlp", "cnn", "cnns", "rnn", "rnns", "gan", "gans", "vae", "vaes", "gnn", "gnns", "llm", "llms",
    "vlm", "vlms", "mllm", "mllms", "rl", "marl", "lstm", "sgd", "mcmc", "pac", "nas", "ood", "kg", "kgs", "qa",
    "vqa", "asr", "tts", "nmt", "ner", "pde", "pdes", "ode", "odes", "sde", "sdes", "rlhf", "dpo", "cot", "rag",
    "moe", "vit", "vits", "mlp", "mlps", "svm", "pca", "bert", "gpt", "xai", "dnn", "dnns", "iot", "ehr", "mri",
    "ct", "slam", "lidar", "uav", "uavs", "sat", "milp", "ssl", "snn", "snns", "fl", "dp", "ssm", "ssms", "ica",
    "hci", "hri", "2d", "3d", "4d", "cv", "ir", "mdp", "mdps", "pomdp", "pomdps", "irl", "bo", "hpo", "ucb",
})
_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "via",
                          "vs", "with"})


def keyword_subject(keyword: str) -> str:
    """Return what a keyword names: the part after a venue's track ("Machine Learning: Clustering": "Clustering")."""
    return " ".join(keyword.rsplit(":", 1)[-1].split()).strip(" .;,")


def keyword_key(keyword: str) -> str:
    """Return the key every spelling of one keyword shares ("LLMs", "Large Language Models (LLM)", "language model")."""
    key = normalise_keyword(re.sub(r"\s*\([^)]*\)\s*", " ", keyword))
    key = " ".join(key.split())
    return KEYWORD_VARIANTS.get(key, key)


def keyword_name(keyword: str) -> str:
    """Return how a keyword is shown: as the source wrote it, or, written all in lower case, in title case."""
    if any(c.isupper() for c in keyword):
        return keyword
    words = keyword.split(" ")
    shown = []
    for i, word in enumerate(words):
        parts = word.split("-")
        shown.append("-".join(
            part.upper() if part in ACRONYMS
            else part if i and part in _SMALL_WORDS
            else part[:1].upper() + part[1:]
            for part in parts
        ))
    return " ".join(shown)


def _spells(topic: Topic, text: str) -> bool:
    return bool(
        (topic.phrase_pattern and topic.phrase_pattern.search(text))
        or (topic.acronym_pattern and topic.acronym_pattern.search(text))
    )


def names_topic(topic: Topic, keywords: list[str] | tuple[str, ...], title: str = "") -> bool:
    """Return whether a paper's author keywords or title name a topic (the topic model's training label).

    A keyword names the topic when one of its phrases, acronyms or `keyword_phrases`
    occurs in it, or when the whole keyword is the topic's name or one of its
    `keywords`. Of a keyword with a track, as IJCAI's "Machine Learning:
    Clustering", only the part after the last colon counts; in a list of such
    keywords, one without a colon is a piece of a category cut at its commas
    ("Detection, Categorization, Indexing, Matching, Retrieval"), which names a
    topic only through a phrase, never as a whole keyword ("Retrieval").
    The title names it through a phrase or an acronym.
    """
    tracked = any(":" in keyword for keyword in keywords)
    for keyword in keywords:
        # A venue's "Track: Subject" keyword names its subject; the track names a whole field.
        subject = keyword.rsplit(":", 1)[-1].strip()
        whole = not tracked or ":" in keyword
        if (
            _spells(topic, subject)
            or (whole and normalise_keyword(subject) in topic.keywords)
            or (topic.keyword_pattern and topic.keyword_pattern.search(subject))
        ):
            return True
    return bool(title) and _spells(topic, title)


def named_topics(topics: tuple[Topic, ...], keywords: list[str] | tuple[str, ...], title: str = "") -> set[str]:
    """Return the names of the topics a paper's keywords or title name, with the parent of each one named.

    A topic's parent is a fair topic for every paper of the topic (topics.yaml), so naming
    "Offline RL" names "Deep RL Algorithms" too.
    """
    named = {topic.name for topic in topics if names_topic(topic, keywords, title)}
    parents = {topic.name: topic.parent for topic in topics if topic.parent}
    for name in list(named):
        while name in parents and parents[name] not in named:
            name = parents[name]
            named.add(name)
    return named


def _name_parts(topic: Topic) -> frozenset[str]:
    """Return the keys of the parts of a topic's name ("robotics" and "manipulation" of "Robotics & Manipulation")."""
    parts = re.split(r"\s*(?:&|,)\s*", topic.name)
    return frozenset(normalise_keyword(part) for part in parts if len(parts) > 1 and part)


def _joins(topic: Topic, subject: str) -> bool:
    """Return whether a keyword names a vocabulary topic as a whole: its name or a part of it, a phrase, a synonym."""
    key = normalise_keyword(subject)
    return bool(
        (topic.phrase_pattern and topic.phrase_pattern.fullmatch(subject))
        or (topic.acronym_pattern and topic.acronym_pattern.fullmatch(subject))
        or key in topic.keywords
        or key in _name_parts(topic)
    )


def _supported(topic: Topic, abstract: str | None) -> bool:
    """Return whether an abstract bears out a topic a keyword names: it mentions the topic (and a language model,
    for an LLM-era one). With no abstract given, every topic is."""
    if abstract is None:
        return True
    if not mentions_required(topic, abstract):
        return False
    words = f" {normalise_keyword(abstract)} "
    return _spells(topic, abstract) or any(f" {key} " in words for key in topic.keywords | _name_parts(topic))


def keyword_tags(keywords: tuple[str, ...], topics: tuple[Topic, ...], abstract: str | None = None) -> list[Tag]:
    """Turn the keywords a source gives into topic tags.

    A keyword names its subject (a venue's track before a colon is left out,
    and a subject such as "General" or "Deep Learning" says nothing). In a list
    of track keywords, one without a track is a piece of a category cut at its
    commas ("Categorization)"): it may join a topic, but makes no tag of its own. One that names a vocabulary
    topic (a phrase, an acronym, a synonym, the topic's name or a part of it,
    as "Manipulation") joins that topic when the `abstract` bears it out: it
    mentions the topic (a phrase, an acronym, a synonym or part of its name), and
    a language model for an LLM-era topic ("pre-training" in 2020 is not "Scaling
    Laws & Pretraining"; a venue's "Transfer" category on a paper that never
    speaks of transfer is not "Domain Adaptation & Transfer"). Any other keyword
    becomes a topic of its own,
    keyed so that its spellings meet (`keyword_key`) and shown as the source
    wrote it (`keyword_name`; enrich shows the digest's most common spelling).
    """
    tags: dict[str, Tag] = {}
    tracked = any(":" in keyword for keyword in keywords)
    for keyword in _rejoined(keywords) if tracked else keywords:
        subject = keyword_subject(keyword)
        if (normalise_keyword(subject) in _EMPTY_SUBJECTS or not re.search(r"\w", subject) or len(subject) > 60
                or _TRACK.search(subject)):
            continue  # no subject: "General", a whole field, a venue's "Journal Track"
        evidence = (f"keyword: {' '.join(keyword.split())}",)
        named = [topic for topic in topics if _joins(topic, subject)]
        matched = [topic for topic in named if _supported(topic, abstract)]
        for topic in matched:
            tags.setdefault(topic.slug, Tag(topic.name, topic.slug, "topic", 0.95, evidence))
        if named:
            continue  # a topic of the vocabulary the abstract does not bear out makes no twin of its own
        if (tracked and ":" not in keyword) or subject.count("(") != subject.count(")"):
            continue  # a piece of a venue's category cut at its commas ("Categorization)", "Face")
        if " " not in subject and subject.lower() in field_words():
            continue  # "Networks", "Applications": a word most abstracts use names no topic
        slug = tag_slug(keyword_key(subject))
        tags.setdefault(slug, Tag(keyword_name(subject), slug, "topic", 0.9, evidence))
    return list(tags.values())


def _rejoined(keywords: tuple[str, ...]) -> list[str]:
    """Return a venue's track keywords with each category cut at its commas made whole again.

    IJCAI's "Multidisciplinary Topics and Applications: MDA: Energy, environment and sustainability"
    reaches us as "...: MDA: Energy" and "environment and sustainability"; its subject is the whole
    category, not "Energy". A piece starts in lower case (a keyword of its own, "Multi-agent learning",
    does not); it stays in the list too (it may join a topic, "Categorization)").
    """
    out: list[str] = []
    head = -1  # where the last keyword with a track is
    for keyword in keywords:
        if ":" in keyword:
            head = len(out)
        elif head >= 0 and keyword.strip()[:1].islower() and out[head].count("(") == out[head].count(")"):
            # ("Recognition (object detection" + "categorization)": a bracketed list stays out, as before.)
            out[head] = f"{out[head]}, {keyword.strip()}"
        out.append(keyword)
    return out


#: A keyword topic is a subject of its papers when at least this share of their abstracts say it ...
SUPPORT_SHARE = 1 / 3
#: ... or when its papers are alike: their mean similarity over the digest's above 1 + LIKENESS / sqrt(papers),
#: what random groups of that size reach about once in a hundred (other-venues.jsonl, 200 random groups
#: each: 99th percentile 1.58 at 10 papers, 1.28 at 30, 1.14 at 100; the bound gives 1.63, 1.37, 1.20).
#: A reference manager's "Viewed" or "Unreviewed" spans papers that neither say it nor are alike.
LIKENESS = 2.0


def subject_keywords(
    candidates: list[list[Tag]], plains: list[str], vectors: Any, vocabulary: set[str], min_papers: int,
) -> list[list[Tag]]:
    """Return each paper's topic candidates without the keyword topics that are no subject of the digest.

    A keyword topic (a tag a source's keyword makes, `vocabulary` holding the slugs of the topics it
    may join instead) is kept only when `min_papers` papers share it (the three-paper rule holds for
    keyword topics: one paper's keyword is never a topic) and it is a subject by measurement: its
    papers' abstracts say it (`SUPPORT_SHARE`), or their TF-IDF rows (`vectors`, L2-normalised) are
    more alike than random groups of their size (`LIKENESS`).
    """
    rows: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for index, tags in enumerate(candidates):
        for tag in tags:
            if tag.slug not in vocabulary and tag.evidence and all(e.startswith("keyword: ") for e in tag.evidence):
                rows.setdefault(tag.slug, []).append(index)
                names[tag.slug] = tag.name
    if not rows:
        return candidates
    baseline = _mean_likeness(vectors, list(range(len(plains)))) if vectors is not None else 0.0

    def subject(slug: str, found: list[int]) -> bool:
        if sum(_says(names[slug], plains[i]) for i in found) >= SUPPORT_SHARE * len(found):
            return True
        bound = (1 + LIKENESS / math.sqrt(len(found))) * baseline
        return vectors is not None and baseline > 0 and _mean_likeness(vectors, found) > bound

    dropped = {slug for slug, found in rows.items() if len(found) < min_papers or not subject(slug, found)}
    return [[tag for tag in tags if tag.slug not in dropped] for tags in candidates]


def _says(keyword: str, abstract: str) -> bool:
    """Return whether an abstract says a keyword: each of its words (its acronym's expansion too), in any form."""
    words = set(normalise_keyword(abstract).split())
    wanted = [word for word in keyword_key(keyword).split() if word not in _SMALL_WORDS]
    return (bool(wanted) and all(word in words for word in wanted)) or normalise_keyword(keyword) in words


def _mean_likeness(vectors: Any, rows: list[int]) -> float:
    """Return the mean cosine similarity of distinct pairs of the rows (L2-normalised TF-IDF)."""
    if len(rows) < 2:
        return 0.0
    total = np.asarray(vectors[rows].sum(axis=0)).ravel()
    # math.fsum, not a BLAS dot: the same bits on every CPU, as a decision depends on it.
    return (math.fsum(total * total) - len(rows)) / (len(rows) * (len(rows) - 1))
