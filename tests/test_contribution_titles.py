"""Titles of papers that name no method: taken from the contribution, never the field, the background or a detail."""

from __future__ import annotations

import pytest

from generator.enrich.titles import infer_title, title_defects
from generator.enrich.titles.cleaning import polish, title_case
from generator.enrich.titles.contribution import contribution_index, sentence_scores, states_contribution
from generator.enrich.titles.model import load_model
from generator.enrich.titles.names import name_candidates
from generator.text import clean, plain_from_clean

# Abstracts without a name of their own: the title must come from what the paper does (its words
# `wanted`, the task among them) and never from the opening background (its words `unwanted`).
UNNAMED = [
    (
        "Multi-view clustering aims to partition data described by several views. Existing methods rely on "
        "hand-crafted fusion and ignore how informative each view is. In this work, we propose a novel self-supervised "
        "weighted information bottleneck method for solving the multi-view clustering problem. Experiments on eight "
        "datasets show clear gains.",
        ["information", "bottleneck"],
        ["existing", "partition"],
    ),
    (
        "Neural network pruning removes weights to make models cheaper. Pruning large language models beyond 50% "
        "sparsity destroys their accuracy. We propose a surrogate-free alternating direction method of multipliers "
        "that prunes large language models to 90% sparsity. It keeps perplexity within 5% of the dense model.",
        ["multipliers"],
        [],
    ),
    (
        "Large reasoning models solve hard problems by thinking for a long time. Yet they fail on long computations. "
        "We show that tool augmentation overcomes the limits of reasoning models on algorithmic tasks. Tools make "
        "small models beat large ones.",
        ["tool", "augmentation"],
        ["thinking"],
    ),
    (
        "Symmetries are common in physical data, and equivariant networks exploit them. We study the hardness of "
        "learning equivariant neural networks under symmetries by gradient descent, and prove exponential lower "
        "bounds for several symmetry groups.",
        ["equivariant"],
        ["common", "physical"],
    ),
    (
        # The paper's finding is said by "our experiments show", and its list of settings carries a side
        # finding after "(i) ..., we find": the side finding (which states the opposite) is no title.
        "Leaderboards reward models that score high on public test sets. Although many leakage detectors have been "
        "proposed, surprisingly, our experiments show that a brief reinforcement learning stage hides test-set leakage from detectors. We examine "
        "two settings: (i) when leaked data is used in supervised fine-tuning, we find that leakage during fine-tuning "
        "can still be flagged by most detectors. (ii) When a short reinforcement learning stage follows, the "
        "detectors fail.",
        ["hides", "leakage", "detectors"],
        ["flagged", "leaderboards"],
    ),
]


@pytest.mark.parametrize(("abstract", "wanted", "unwanted"), UNNAMED)
def test_a_paper_without_a_name_is_titled_after_its_contribution(abstract, wanted, unwanted) -> None:
    inferred = infer_title(abstract)
    words = inferred.title.lower().replace("-", " ").split()
    assert inferred.source in ("headline", "contribution"), inferred
    assert all(w in words for w in wanted), inferred.title
    assert not any(w in words for w in unwanted), inferred.title
    assert not title_defects(inferred.title), inferred.title
    assert 0.0 <= inferred.confidence <= 1.0


def test_the_contribution_sentence_is_the_one_that_says_what_the_paper_does() -> None:
    parts = [
        "Reinforcement learning has emerged as a powerful technique.",
        "However, existing methods suffer from sparse rewards.",
        "In this paper, we propose a hint-based curriculum that densifies rewards.",
        "Experiments show large gains.",
    ]
    assert [states_contribution(p) for p in parts] == [False, False, True, False]
    assert contribution_index(parts, sentence_scores(parts, load_model().sentence)) == 2
    assert contribution_index(parts[:2], sentence_scores(parts[:2], load_model().sentence)) is None


def test_real_titles_that_open_on_a_count_or_the_field_are_rare_enough_to_reject() -> None:
    # The same rules applied to real titles: "Two Heads Are Better Than One" is an exception, not the rule.
    for title in ("Learning Equivariant Networks via Gradient Descent", "Tool Augmentation Overcomes the Limits of "
                  "Reasoning Models", "On the Hardness of Learning Under Symmetries"):
        assert not title_defects(title), title


def test_the_field_an_abstract_opens_on_is_never_its_title() -> None:
    inferred = infer_title(
        "Neural network pruning is a standard way to compress models. Graph positional encoding is another topic. "
        "Learned masks are known to be unstable. Magnitude scores fail at high sparsity."
    )
    assert inferred.title.lower() not in ("neural network pruning", "neural network pruning methods")


@pytest.mark.parametrize(
    ("text", "title"),
    [
        # a name written in math keeps its case
        ("π³, a feed-forward neural network", "π³, a Feed-Forward Neural Network"),
        # list markers never reach a title
        ("1) Daily-Omni benchmark for audio-visual reasoning", "Daily-Omni Benchmark for Audio-Visual Reasoning"),
        ("reasoning over (i) audio and (ii) video", "Reasoning over Audio and Video"),
        # no brackets around a whole expansion
        ("(Budget-Aware Logit Editing)", "Budget-Aware Logit Editing"),
        # no two sentences joined by a dash
        ("Alignment for safety often causes over-refusal\u2014the tendency to refuse benign prompts",
         "Alignment for Safety Often Causes Over-Refusal"),
    ],
)
def test_polish_keeps_the_text_faithful(text: str, title: str) -> None:
    assert polish(text) == title


def test_math_names_keep_their_lowercase_letters() -> None:
    assert title_case("π³ and σ-VAE") == "π³ and σ-VAE"
    inferred = infer_title(
        r"We present $\pi^3$, a feed-forward neural network that reconstructs 3D scenes without a reference view. "
        r"$\pi^3$ predicts affine-invariant camera poses."
    )
    assert "Π" not in inferred.title


def test_a_word_split_by_a_line_break_hyphen_is_never_cut_at_its_start() -> None:
    inferred = infer_title(
        "As robot learning grows, it becomes in- creasingly important to learn from large datasets of robot "
        "actions. We propose a tokenizer that compresses robot action sequences for autoregressive policies."
    )
    assert "Creasingly" not in inferred.title and "creasingly" not in inferred.title.lower().split()


def test_a_named_detector_is_titled_as_a_detector() -> None:
    # The wrong subject: "HiDet: Humanizing Methods of AI-Generated Texts" for a detector of such texts.
    abstract = (
        "Humanizing methods rewrite AI-generated texts so that detectors miss them. We propose HiDet, a detector of "
        "humanized AI-generated texts that is robust to paraphrasing. HiDet outperforms existing detectors."
    )
    raw = clean(abstract)
    assert any(c.name == "HiDet" for c in name_candidates(raw, plain_from_clean(raw)))
    title = infer_title(abstract).title
    assert title.startswith("HiDet: ") and "detector" in title.lower(), title


def test_a_name_whose_expansion_leaves_out_the_task_says_it() -> None:
    abstract = (
        "Weight initialization decides whether deep networks train at all. We propose Layer-Progressive Variance "
        "Scaling (LPVS) for weight initialization, which scales each layer's variance by its depth. LPVS trains "
        "1,000-layer networks without normalization."
    )
    assert infer_title(abstract).title == "LPVS: Layer-Progressive Variance Scaling for Weight Initialization"
