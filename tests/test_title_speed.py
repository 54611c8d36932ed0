"""The title stage's shortcuts decide as the plain definitions do (a speed-up changes no title or summary)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.enrich.titles import sentences
from generator.enrich.titles.compress import keep_scores, word_features
from generator.enrich.titles.contribution import _PASSIVE, _PATTERNS, _cues
from generator.enrich.titles.model import load_model
from generator.text import to_plain

ROOT = Path(__file__).resolve().parent.parent


def cues_as_written(sentence: str) -> tuple[bool, ...]:
    """Every cue pattern searched on the sentence as written (what `_cues` must find)."""
    return (*(pattern.search(sentence) is not None for pattern in _PATTERNS), _PASSIVE.search(sentence) is not None)


# Sentences where a shortcut could go wrong: a cue word inside a longer word, in capitals, split by a
# hyphen or a line break, two-word cues, prefixes, and letters that re.I matches to ASCII ones.
EDGE_SENTENCES = [
    "We propose a method.", "WE PROPOSE A METHOD.", "Here, we study graphs.", "here we\nshow that it holds.",
    "Answer sets were lowered between towers.", "We presently study this.", "This Paper presents results.",
    "In this work we find that models fail.", "Our paper, ours, and Our work.", "The weather is new.",
    "Renewable energy is newer than news.", "Methods, models and frameworks.", "Methodology and modeling.", "Prior approaches differ.", "Two strategies.",
    "It is state-of-the-art.", "It is state-of-the-artistic.", "Non-state-of-the-art results.",
    "Models have been studied.", "It has\tbeen shown.", "They have  been shown.", "Hash been.",
    "It outperforms all.", "Outperforming baselines.", "It achieves 3%.", "Achiev is cut.", "Achieve it.",
    "Challenges remain.", "Challeng alone.", "Struggles and suffering.", "Prior_work and recent-ish work.",
    "Smith et al. (2020) did it [1, 2].", "Et Al. said (1999).", "A [12] citation.", "(abcd) and [x].",
    "To address this, we design X.", "However, it fails.", "A novel method is proposed here.",
    "Methods are Proposed.", "It is well proposed.", "It is (proposed).", "They are newly introduced.",
    "A model is designed_by us.", "We_propose nothing.", "we2 propose nothing.", "GraphRAG and DeepSeek-R1.",
    "\u212aelvin experiments are new.", "We \u017ftudy results.", "Wé propose a method.", "We propose ıt.",
    "The \u0130ntroduced method.", "Über-Modelle werden vorgeschlagen.", "", "   ", "we", "WE.", "We\u00a0propose.",
    "Recently\x1chas been tried.", "Theorem 1.2 holds for n = 3.",
]


@pytest.mark.parametrize("sentence", EDGE_SENTENCES)
def test_a_sentence_shows_the_same_cues_as_the_patterns_find(sentence: str) -> None:
    assert _cues(sentence) == cues_as_written(sentence)


def _corpus_sentences(name: str, abstracts: int) -> list[str]:
    path = ROOT.parent / "shared" / "corpora" / name
    if not path.exists():
        pytest.skip("the shared corpora are not beside this checkout")
    with path.open(encoding="utf-8") as handle:
        lines = [line for _, line in zip(range(abstracts), handle, strict=False)]
    return [s for line in lines for s in sentences(to_plain(json.loads(line)["abstract"][:6000]))[:10]]


def test_every_sentence_of_a_corpus_shows_the_same_cues_as_the_patterns_find() -> None:
    # (bench/title_equality.py compares the whole stage's output on every held-out paper.)
    found = _corpus_sentences("other-venues.jsonl", 2500)
    assert len(found) > 15_000
    differing = [s for s in found if _cues(s) != cues_as_written(s)]
    assert differing == []


def test_the_word_labeller_scores_each_word_as_the_sum_of_its_feature_weights() -> None:
    compressor = load_model().compressor
    sentence = "In this work , we propose a Self-Supervised bottleneck (IB) for 3D multi-view clustering; it wins"
    words = sentence.split(" ")
    keys = [w.strip(".,;:()").lower() for w in words]
    features = word_features(words, keys, [i % 10 for i in range(len(words))], 2)
    expected = []
    for row in features:
        total = 0.0
        for feature in row:
            total += compressor.weights.get(feature, 0.0)
        expected.append(round(compressor.bias + total, 6))
    assert keep_scores(compressor, features) == expected
    assert features[0][:6] == ["w=in", "p=<s>", "n=this", "p2=<s>", "n2=work", "pw=<s>|in"]
    assert features[-1][:6] == ["w=wins", "p=it", "n=</s>", "p2=clustering", "n2=</s>", "pw=it|wins"]
