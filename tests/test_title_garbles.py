"""Garbles a strict reader called bad in inferred titles (issue #29), fixed at their cause."""

from __future__ import annotations

import pytest

from generator.enrich.titles import infer_title
from generator.enrich.titles.cleaning import polish

MCTS = (
    "Despite recent advances in Large Language Models (LLMs), their ability to solve complex reasoning problems "
    "remains limited by inconsistent planning and logical flaws. We present a novel framework that significantly "
    "enhances LLMs problem-solving capabilities by leveraging Monte Carlo Tree Search (MCTS) for plan generation. "
    "Unlike previous approaches that apply MCTS to solution search, our method uniquely integrates MCTS into the "
    "planning phase."
)


def test_a_compressed_title_never_drops_a_word_of_a_name():
    title = infer_title(MCTS).title
    assert "Carlo" not in title or "Monte Carlo" in title


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("a LLM-powered framework for retrosynthesis", "An LLM-Powered Framework for Retrosynthesis"),
        ("a RL agent for navigation", "An RL Agent for Navigation"),
        ("a GAN for tabular data", "A GAN for Tabular Data"),
        ("a ultra-lightweight network", "An Ultra-Lightweight Network"),
        ("a unsupervised method and a unified model", "An Unsupervised Method and a Unified Model"),
        ("\ufb01rst streaming benchmark for video LLMs", "First Streaming Benchmark for Video LLMs"),
    ],
)
def test_titles_say_an_before_a_vowel_sound_and_spell_ligatures(text, title):
    assert polish(text) == title
