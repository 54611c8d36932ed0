"""The safe form of a title (the contribution clause said whole) and the garbles a strict reader found."""

from __future__ import annotations

import pytest

from generator.enrich.titles import infer_title, title_defects
from generator.enrich.titles.clause import render_clause, render_named
from generator.enrich.titles.cleaning import polish
from generator.enrich.titles.compress import PARENTHETICAL


@pytest.mark.parametrize(
    ("sentence", "title"),
    [
        # The object of "we propose", up to its first clause boundary: never "..., in Which the Prior Distribution".
        (
            "We propose a class of structured diffusion models, in which the prior distribution is chosen as a "
            "mixture of Gaussians.",
            "A Class of Structured Diffusion Models",
        ),
        # A finding, said as a claim.
        (
            "In this paper, we show that dynamic sparse training outperforms dense training in robustness to image "
            "corruptions.",
            "Dynamic Sparse Training Outperforms Dense Training in Robustness to Image Corruptions",
        ),
        # A question the paper studies.
        (
            "This paper studies whether large language models can plan in stochastic environments.",
            "Can Large Language Models Plan in Stochastic Environments?",
        ),
        (
            "We investigate how the feature learning strength affects the optimization landscape of SGD.",
            "How the Feature Learning Strength Affects the Optimization Landscape of SGD",
        ),
        # "We study the X of Y, <aside>" -> "On the X of Y".
        (
            "We revisit the universality of augmented invertible networks, reversible architectures that leverage "
            "zero padding to increase their expressiveness.",
            "On the Universality of Augmented Invertible Networks",
        ),
        # An aim said as a gerund, the quotes left out.
        (
            "We aim to characterize the statistical properties of ensembles of 'lines of thought.' We observe "
            "that trajectories cluster.",
            "Characterizing the Statistical Properties of Ensembles of Lines of Thought",
        ),
        # A purpose clause after the object is left out; "novel" too.
        (
            "Inspired by human communication, which relies on prior knowledge, we propose a novel framework for "
            "incorporating human-like communication strategies to enhance the learning process.",
            "A Framework for Incorporating Human-Like Communication Strategies",
        ),
    ],
)
def test_the_contribution_clause_is_said_whole_as_a_title(sentence: str, title: str) -> None:
    rendered = [polish(text) for text in render_clause(sentence)]
    assert rendered[0] == title
    assert title_defects(rendered[0]) == []


@pytest.mark.parametrize(
    "sentence",
    [
        # A vague head or a generic one before a field: a reader cannot tell the paper by it.
        "In this work, we investigate a typical scenario in code generation where a developer edits code.",
        "We propose a novel approach for membership inference, applicable to sets of records.",
        "We propose a novel method for causal graph recovery, which queries experts.",
        "We then study the attacker's perspective, finding that attacks improve with compute.",
        # A side result.
        "Additionally, we observed that the rollout method is more robust than generic attention.",
    ],
)
def test_a_vague_or_secondary_clause_is_no_title(sentence: str) -> None:
    assert render_clause(sentence) == []


def test_a_clause_pointing_outside_itself_is_rejected_not_mended() -> None:
    # "we propose Backtracking Correction to address these limitations": dropping "these" left
    # "Backtracking Correction to Address Limitations", which a reader called bad.
    rendered = [polish(t) for t in render_clause("In this paper, we study these types of methods through a lens.")]
    assert all("reference" in title_defects(title) for title in rendered)


def test_a_sentence_without_a_stated_contribution_has_no_clause() -> None:
    assert render_clause("Large language models have become central to modern machine learning.") == []


def test_a_question_cut_at_a_comma_is_not_a_title() -> None:
    # "How Different Factors as Model Size" lost its verb at the comma.
    sentence = "We analyse how different factors, such as model size and replay data, impact forgetting."
    assert [polish(t) for t in render_clause(sentence)] == ["How Different Factors Impact Forgetting"]
    assert render_clause("We analyse how different factors such as model size, dataset size and data impact it.") == []
    # "How Mechanistic Interpretability" was cut at a dash.
    sentence = "This work investigates how interpretability---which aims to find circuits---can improve editing."
    assert render_clause(sentence) == []


def test_a_background_claim_with_a_modal_verb_is_no_headline() -> None:
    abstract = (
        "Federated learning is widely adopted as a secure distributed learning system. However, the transmission "
        "process to the server can still lead to privacy leakage, as updates may be exploited by attackers. "
        "Experiments on four datasets support these observations."
    )
    assert " Can " not in infer_title(abstract).title


@pytest.mark.parametrize(
    ("sentence", "name", "description"),
    [
        (
            "To address this, we introduce KidSpeak, a multi-task speech foundation model capable of both generative "
            "and discriminative tasks specifically tailored to children's speech patterns.",
            "KidSpeak",
            "A Multi-Task Speech Foundation Model Capable of Both Generative and Discriminative Tasks",
        ),
        (
            "To overcome these challenges, we introduce a novel SpaceGNN model designed for NAD tasks with extremely "
            "limited labels.",
            "SpaceGNN",
            "A Model for NAD Tasks with Extremely Limited Labels",
        ),
        ("In this work, we propose a novel clustering algorithm called Thetan (TB).", "Thetan", "A Clustering Algorithm"),
    ],
)
def test_a_name_is_described_by_the_sentence_that_introduces_it(sentence: str, name: str, description: str) -> None:
    assert polish(render_named(sentence, name)[0]) == description


# -- The garbles a strict reader called bad, each from its root cause ------------------------------------------


def test_a_lead_in_is_a_whole_word_never_the_start_of_one() -> None:
    # "Inspired by ..." lost "In" to the lead-in "In, ...": "Spired by Human Communication" was a title.
    abstract = (
        "Multi-agent reinforcement learning needs communication. Inspired by human communication, we propose "
        "a framework for learning compact communication strategies. Experiments show gains."
    )
    title = infer_title(abstract).title
    assert "Spired" not in title.split()


def test_a_spelled_out_name_keeps_its_words_that_start_with_a_digit() -> None:
    # "the Large 4D Gaussian Reconstruction Model (DrivingRecon)" gave "DrivingRecon: D Gaussian ...".
    abstract = (
        "Photorealistic 4D reconstruction of street scenes is essential for autonomous driving. To this end, we "
        "introduce the Large 4D Gaussian Reconstruction Model (DrivingRecon), a generalizable driving scene "
        "reconstruction model, which directly predicts 4D Gaussian from surround-view videos."
    )
    title = infer_title(abstract).title
    assert title.startswith("DrivingRecon: ")
    assert " D " not in f" {title} " and "4D" in title


def test_a_comparison_before_a_number_keeps_its_sign() -> None:
    # "data from n > 5000 LLMs" became "Data from N 5000 LLMs".
    assert polish("data from n > 5000 LLMs to identify informative items") == (
        "Data from N > 5000 LLMs to Identify Informative Items"
    )
    assert title_defects("Data from N > 5000 LLMs to Identify Informative Items") == []
    assert "markup" in title_defects("Attention <script> Blocks")


def test_a_phrase_said_twice_is_a_defect() -> None:
    assert "repeated" in title_defects("Global Convergence Theory for Bilevel Optimization for Global Convergence")
    assert "repeated" not in title_defects("Global Convergence Theory for Bilevel Optimization")


def test_an_acronym_spelled_by_capitals_inside_a_word_is_mended() -> None:
    # "REDS: REward Learning": the capitals spell the name, the word is "Reward".
    assert "casing" in title_defects("REDS: REward Learning from Demonstration")
    assert polish("REward learning from demonstration") == "Reward Learning from Demonstration"
    assert title_defects("REVEAL: Representation Learning for Graphs") == []


def test_a_compressed_title_never_ends_on_a_word_of_the_next_phrase() -> None:
    # "Universality of Augmented Invertible Networks Reversible": the appositive's first word was kept.
    abstract = (
        "We revisit the universality of augmented invertible networks, reversible architectures that leverage "
        "zero padding to increase their expressiveness. Under mild hypotheses, we provide a short proof that a "
        "single augmented RevNet block is an universal approximator."
    )
    assert infer_title(abstract).title == "On the Universality of Augmented Invertible Networks"


def test_math_never_reaches_a_title() -> None:
    # "Consider Gradient Descent Iterations Xk+1 = Xk - αk" and "An-DP Algorithms" (from "an $(\epsilon,\delta)$-DP").
    assert "markup" in title_defects("Consider Gradient Descent Iterations Xk+1 = Xk - αk")
    assert "fragment" in title_defects("Consider Gradient Descent Iterations")
    assert "markup" in title_defects("An -DP Algorithms for Private Optimization")
    assert PARENTHETICAL.sub("", "we propose an (ϵ, δ)-DP algorithm") == "we propose an (ϵ, δ)-DP algorithm"
    assert PARENTHETICAL.sub("", "a model (see below) for text") == "a model for text"


# -- A name glued to the background, and fragments -------------------------------------------------------------


@pytest.mark.parametrize(
    "title",
    [
        "ClusComp: As Bit-Width Decreases, the Performance of Quantized LLMs",
        "PDETime: Recent Advancements in Deep Learning",
        "SURE: Inspired by Domain-Adversarial Training of Neural Networks",
        "Slerp: When Integrated with the Spherical Linear Interpolation for Composed Image Retrieval",
        "R-SCORE: As a Recursive Community Detection Algorithm",
        "Lumina-T2X: By Tokenizing the Latent Spatial-Temporal Space",
        "MallowsPO: Existing DPO Models",
        "A Class of Structured Diffusion Models, in Which the Prior Distribution",
        "An Algorithm Whose Utility Bound",
        "Characterize the Statistical Properties of Ensembles",
        "For Example: The Red-Teaming Literature Has Produced Many Techniques",
    ],
)
def test_a_name_glued_to_a_lead_in_or_a_clause_cut_short_is_a_defect(title: str) -> None:
    assert title_defects(title)


def test_a_named_paper_is_never_described_by_its_background() -> None:
    abstract = (
        "As large language models continue to scale, model compression becomes increasingly important. "
        "However, as bit-width decreases, the performance of quantized LLMs tends to degrade significantly. "
        "In this paper, we introduce ClusComp, a novel and simple model compression paradigm that clusters weight "
        "matrices into codebooks. ClusComp consistently achieves better performance in 2-4 bit precision."
    )
    title = infer_title(abstract).title
    assert title.startswith("ClusComp: ")
    assert "Bit-Width" not in title and " and Simple" not in title
