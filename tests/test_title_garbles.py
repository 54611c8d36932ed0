"""Garbles a strict reader called bad in inferred titles (issue #29), fixed at their cause."""

from __future__ import annotations

import pytest

from generator.enrich.titles import infer_title
from generator.enrich.titles.cleaning import polish, unpromoted

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


@pytest.mark.parametrize(
    ("title", "without"),
    [
        ("Pallatom: Innovative Protein Generation Model", "Pallatom: Protein Generation Model"),
        ("OR-Bench: First Large-Scale Over-Refusal Benchmark", "OR-Bench: A Large-Scale Over-Refusal Benchmark"),
        ("GuardAgent: First LLM Agent as a Guardrail", "GuardAgent: An LLM Agent as a Guardrail"),
        ("HE-Drive: The First Human-Like Driving System", "HE-Drive: A Human-Like Driving System"),
        ("Best-of-N: Distillation, a Novel RLHF Algorithm", "Best-of-N: Distillation, an RLHF Algorithm"),
        ("GeoLoRA: A Novel and Simple Approach for LoRA", "GeoLoRA: A Simple Approach for LoRA"),
        # Terms and manners keep "Novel"; "First-Order" is no claim.
        ("UC-NeRF: A Method for Novel View Synthesis", "UC-NeRF: A Method for Novel View Synthesis"),
        ("NAME: Learning in a Novel Way", "NAME: Learning in a Novel Way"),
        ("FORUM: First-Order Multi-Gradient Method", "FORUM: First-Order Multi-Gradient Method"),
    ],
)
def test_a_names_description_drops_praise_and_claims_to_be_first(title, without):
    assert unpromoted(title) == without


PRAISED = (
    "Protein generation models rarely produce all-atom structures. We introduce Pallatom, an innovative protein "
    "generation model for producing protein structures with all-atom coordinates. Pallatom learns the joint "
    "distribution of sequence and structure."
)


def test_an_inferred_named_title_reads_without_praise():
    title = infer_title(PRAISED).title
    assert title.startswith("Pallatom: ") and "Innovative" not in title
