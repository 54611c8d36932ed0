"""The one-line summary: the sentence that states what the paper does, or the source's own tldr."""

from __future__ import annotations

import json

import pytest

from generator.enrich import enrich
from generator.enrich.summaries import summarize
from generator.read import read_sources
from generator.settings import Settings
from tests.conftest import ROOT, write_tree

BACKGROUND_FIRST = (
    "Reinforcement learning from verifiable rewards has emerged as a powerful technique for training reasoning "
    "models. However, its rewards are sparse on hard problems. To address this issue, we propose Nudge, a method "
    "that adds hints to the prompts of problems the model never solves. Nudge raises pass@1 on six benchmarks."
)


@pytest.mark.parametrize(
    ("abstract", "summary"),
    [
        # The background opening is passed over for the sentence that says what the paper does,
        # without the lead-in that only makes sense after the sentence before it.
        (BACKGROUND_FIRST, "We propose Nudge, a method that adds hints to the prompts of problems the model never "
                           "solves."),
        (
            "Graph neural networks over-smooth. In this paper, we show that rewiring the graph by curvature keeps "
            "deep networks expressive. Our experiments cover nine datasets.",
            "We show that rewiring the graph by curvature keeps deep networks expressive.",
        ),
        (
            "Diffusion models memorise their data. This paper studies when memorisation happens.",
            "This paper studies when memorisation happens.",
        ),
        # No sentence states a contribution: the opening sentence it is.
        (
            "Sparse attention is fast. Dense attention is accurate. Both are used in practice.",
            "Sparse attention is fast.",
        ),
    ],
)
def test_the_summary_is_the_sentence_that_states_the_contribution(abstract: str, summary: str) -> None:
    assert summarize(abstract, 220) == summary


def test_a_long_contribution_sentence_is_cut_cleanly_at_the_limit() -> None:
    abstract = (
        "Background comes first. We propose a method that learns sparse codes for long documents, scales to millions "
        "of tokens on one accelerator, and keeps the quality of dense attention on every benchmark we tried."
    )
    summary = summarize(abstract, 100)
    assert len(summary) <= 100 and summary.endswith("…")
    assert summary.startswith("We propose a method that learns sparse codes")
    # Cut at a clause boundary when one keeps most of the sentence: never inside a word.
    assert summary[:-1] in abstract and abstract[abstract.index(summary[:-1]) + len(summary) - 1] in ",; "


def test_a_sources_tldr_is_the_summary_as_given() -> None:
    tldr = "A one-line summary the authors wrote, longer than the limit would allow for a sentence of the abstract."
    assert summarize(BACKGROUND_FIRST, 40, tldr) == tldr


def test_tldr_fields_of_json_lines_and_csv_records_become_the_summary(tmp_path) -> None:
    rows = [
        {"id": "a1", "abstract": BACKGROUND_FIRST, "tldr": "Hints in the prompt make sparse rewards dense."},
        {"id": "a2", "abstract": "Graph neural networks over-smooth. We show that curvature rewiring helps.",
         "TL;DR": "Curvature rewiring keeps deep GNNs expressive."},
        {"id": "a3", "abstract": "Sparse attention is fast. We propose a dense fallback for hard tokens."},
    ]
    csv_text = 'id,abstract,TLDR\nc1,"Sparse codes are cheap. We propose learned codes for long documents.",' \
               '"Learned sparse codes for long documents."\n'
    write_tree(tmp_path, {
        "papers.jsonl": "".join(json.dumps(row) + "\n" for row in rows),
        "more.csv": csv_text,
    })
    settings = Settings(project_dir=ROOT)
    read = read_sources([tmp_path / "papers.jsonl", tmp_path / "more.csv"], settings)
    assert not [p for p in read.problems if p.level == "error"]
    by_source = {p.source_id: p for p in enrich(read.papers, settings)}
    assert by_source["a1"].tldr == "Hints in the prompt make sparse rewards dense."
    assert by_source["a1"].summary == "Hints in the prompt make sparse rewards dense."
    assert by_source["a2"].summary == "Curvature rewiring keeps deep GNNs expressive."
    assert by_source["c1"].summary == "Learned sparse codes for long documents."
    # Without a tldr, the contribution sentence.
    assert by_source["a3"].tldr == "" and by_source["a3"].summary == "We propose a dense fallback for hard tokens."
