"""A short title that names only a device says what it is for: "A Noise Scheduler for Image Generation" (issue #29).

So does a name's expansion that says no purpose: "CABS: Conflict-Aware and Balanced Sparsification for
Model Merging".

A strict reader calls "A Retrieval-Augmented Generation Mechanism" bad: it could title a hundred
papers. The task comes from where the paper names it as a purpose, never from a word the title
already says.
"""

from __future__ import annotations

import pytest

from generator.enrich.titles import infer_title
from generator.enrich.titles.task import (
    named_title_for_task,
    needs_named_task,
    needs_task,
    task_in,
    task_phrases,
    with_task,
)

RAG = (
    "Symbolic regression seeks closed-form expressions that fit data. Existing methods search a vast space of "
    "expressions and scale poorly. We introduce a retrieval-augmented generation mechanism. It retrieves formulas "
    "from a library and lets a transformer edit them. Experiments on standard benchmarks show better recovery "
    "rates than genetic programming."
)


def test_a_device_title_gets_the_task_its_abstract_opens_on():
    inferred = infer_title(RAG)
    assert inferred.title == "A Retrieval-Augmented Generation Mechanism for Symbolic Regression"


def test_the_task_comes_from_the_purpose_the_contribution_sentence_names():
    sentences = ["We present an edge-aware noise scheduler, designed for image generation with sharp edges."]
    assert with_task("An Edge-Aware Noise Scheduler", sentences, 110) == (
        "An Edge-Aware Noise Scheduler for Image Generation"
    )


@pytest.mark.parametrize(
    "title",
    [
        "A Noise Scheduler for Diffusion Models",  # already says what for
        "Self-Supervised Monocular Depth Estimation",  # a task, not a device
        "Can Small Models Plan?",  # a question
        "Scaling Laws Are Linear in Compute",  # a claim
        "A Very Long Multi-Stage Hierarchical Retrieval-Augmented Generation Mechanism",  # already long
    ],
)
def test_titles_that_say_more_than_a_device_are_left_alone(title):
    assert not needs_task(title)
    assert with_task(title, ["We use it for symbolic regression."], 110) == title


def test_a_task_is_never_a_word_the_title_already_says():
    sentence = "We propose a diffusion-based inverse solver framework for diffusion models and for image generation."
    assert task_in(sentence, "A Diffusion-Based Inverse Solver Framework") == "image generation"


def test_a_task_the_titles_acronym_spells_is_not_said_twice():
    assert task_in("It is trained for graph neural networks.", "A GNN-Based Force Field Model") == ""
    # A name in mixed case spells its phrase too: FrugalNeRF is for neural radiance fields already.
    assert task_in("A framework for neural radiance fields.", "FrugalNeRF: Few-Shot Framework") == ""
    assert task_in("We study it for reinforcement learning.", "A Re-Formulation of the RLHF Objective") == ""


def test_a_phrase_that_is_not_named_as_a_purpose_is_no_task():
    # "symbolic regression" is only mentioned, not what the mechanism is for.
    assert task_in("Prior work on symbolic regression is slow.", "A Retrieval Mechanism") == ""
    assert task_in("Prior work on symbolic regression is slow.", "A Retrieval Mechanism", opening=True) == ""
    assert task_in("Symbolic regression is slow.", "A Retrieval Mechanism", opening=True) == "Symbolic regression"


def test_a_task_that_would_pass_the_length_limit_is_left_out():
    title = "A Retrieval-Augmented Generation Mechanism"
    assert with_task(title, ["It is built for symbolic regression."], len(title) + 10) == title


def test_task_phrases_are_tasks_not_umbrellas():
    phrases = set().union(*task_phrases().values())
    assert {"symbolic regression", "image generation", "autonomous driving"} <= phrases
    # Words most abstracts use name no task.
    assert not {"learning", "training", "large language models", "neural networks"} & phrases
    # A task names a subject of the topic vocabulary: "for Machine Learning" only names the field.
    assert not {"machine learning", "deep learning", "artificial intelligence", "computer vision"} & phrases


CABS = (
    "Model merging combines fine-tuned models into one without retraining. Task vectors conflict when merged. "
    "We propose CABS (Conflict-Aware and Balanced Sparsification), which prunes task vectors so that they do not "
    "overlap. Experiments on seven tasks show gains over task arithmetic."
)


def test_a_names_expansion_that_says_no_purpose_gets_the_task_its_abstract_opens_on():
    inferred = infer_title(CABS)
    assert inferred.title == "CABS: Conflict-Aware and Balanced Sparsification for Model Merging"
    assert inferred.source == "named-method"


@pytest.mark.parametrize(
    "title",
    [
        "FCA: Fair Clustering via Alignment",  # says how
        "TVDN: Temporal-Variable Decoupling Network for Multivariate Time Series Forecasting",  # says what for
        "PDETime: Time-Series Forecasting",  # names its task
        "GraphAny: Can One Model Classify Nodes?",  # a question
        "DynFrs: A Framework That Makes Random Forests Forget Quickly and Cheaply",  # says more than a device
        "Conflict-Aware and Balanced Sparsification",  # no name
    ],
)
def test_named_titles_that_already_say_their_task_are_left_alone(title):
    assert not needs_named_task(title)
    assert named_title_for_task(title, title.split(":")[0], ["We use it for model merging."], 110) == title


def test_the_names_own_sentence_comes_before_the_opening():
    parts = [
        "Continual learning suffers from forgetting.",
        "We study distillation for image generation in passing.",
        "SATCH (Specialized Assistant Teacher Distillation) is built for continual learning on small devices.",
    ]
    title = "SATCH: Specialized Assistant Teacher Distillation"
    assert named_title_for_task(title, "SATCH", parts, 110) == f"{title} for Continual Learning"

