"""Titles and tags on the default corpus and on small tables of cases."""

from __future__ import annotations

import re

import pytest
import yaml

from generator.enrich import enrich, enrich_digest
from generator.enrich.folding import fold_topics
from generator.enrich.summaries import summarize
from generator.enrich.tags import load_topics, match_topics
from generator.enrich.titles import infer_title, unique_titles
from generator.model import Tag
from generator.read import read_sources
from generator.read.hyphenation import dehyphenate
from generator.settings import Settings
from tests.conftest import DEFAULT_CORPUS, FIXTURES, ROOT, make_paper


@pytest.fixture(scope="module")
def default_papers():
    settings = Settings(project_dir=ROOT)
    return enrich(read_sources([DEFAULT_CORPUS], settings).papers, settings)


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (
            r"Prevailing methods rely on contrastive losses. We introduce \GRACE{} (Generative Representation "
            r"Learning via Contrastive Policy Optimization), a novel framework that reimagines contrastive signals.",
            "GRACE: Generative Representation Learning via Contrastive Policy Optimization",
        ),
        (
            "We propose a novel **L**ength-b**A**sed **S**t**E**p **R**eward shaping method, called LASER, which "
            "employs a step function as the reward. LASER works.",
            "LASER: Length-Based Step Reward",
        ),
        (
            "Deep Q-learning is unstable. We introduce Stackelberg Coupled Representation and Reinforcement "
            "Learning (SCORER), a framework for value-based RL. SCORER models the Q-function as the leader.",
            "SCORER: Stackelberg Coupled Representation and Reinforcement Learning",
        ),
    ],
)
def test_named_method_titles(abstract: str, title: str) -> None:
    inferred = infer_title(abstract)
    assert inferred.source == "named-method"
    assert inferred.title == title


TITLE_CASES = yaml.safe_load((FIXTURES / "title_cases.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", TITLE_CASES, ids=[case["pattern"] for case in TITLE_CASES])
def test_real_openings_get_the_expected_title(case: dict) -> None:
    # The reader mends PDF line-break hyphens before any title is inferred.
    assert infer_title(dehyphenate(case["opening"])).title == case["title"]


def test_a_baseline_named_in_the_abstract_is_not_the_title() -> None:
    inferred = infer_title(
        "Group Relative Policy Optimization (GRPO) is widely used. We study why GRPO fails on hard problems "
        "and show that GRPO collapses when rewards are sparse."
    )
    assert "GRPO:" not in inferred.title


def test_headline_drops_the_preamble_and_is_short() -> None:
    inferred = infer_title(
        "In this paper, we study the generalization of diffusion models trained on small datasets and show that "
        "they memorize their training data, which has consequences for privacy and copyright."
    )
    # (Said as the contribution clause: "On the Generalization of Diffusion Models Trained on Small Datasets".)
    assert inferred.source == "contribution"
    assert not inferred.title.lower().startswith(("in this paper", "we "))
    assert 4 <= len(inferred.title.split()) <= 14


def test_every_default_paper_has_a_specific_clean_title(default_papers) -> None:
    titles = [p.title for p in default_papers]
    assert len(set(titles)) == len(titles)
    for title in titles:
        assert 2 <= len(title.split()) <= 20, title
        assert not re.search(r"[\\$*_`{}]|\*\*|In this paper|^We ", title), title
        assert title.count("(") == title.count(")"), title


def test_the_named_methods_of_the_seeds_are_found(default_papers) -> None:
    titles = " | ".join(p.title for p in default_papers)
    for name in ("GRACE", "SCORER", "VisionReasoner", "ReaPER", "CodeGym", "ENACT", "SocialJax", "Zebra-CoT"):
        assert name in titles, name


def test_unique_titles_disambiguate_collisions() -> None:
    assert unique_titles(["A", "A", "B"], ["x", "y", "z"]) == ["A (x)", "A (y)", "B"]
    # Within one collection its name tells no copy from another: numbers do.
    assert unique_titles(["A", "A", "A"], ["x", "x", "x"]) == ["A (1)", "A (2)", "A (3)"]
    # Collections where they differ, numbers for the copies they leave alike.
    assert unique_titles(["A", "A", "A"], ["x", "x", "y"]) == ["A (x) (1)", "A (x) (2)", "A (y)"]


def test_every_default_paper_has_an_area_and_tags_carry_evidence(default_papers) -> None:
    for paper in default_papers:
        assert paper.tags[0].kind == "area"
        assert all(tag.evidence for tag in paper.tags), paper.title


def test_tags_are_deterministic_and_independent_of_order(default_papers) -> None:
    settings = Settings(project_dir=ROOT)
    papers = read_sources([DEFAULT_CORPUS], settings).papers
    again = enrich(list(reversed(papers)), settings)
    by_id = {p.id: p.tags for p in again}
    assert all(by_id[p.id] == p.tags for p in default_papers)


def test_topics_match_phrases_and_acronyms_with_evidence() -> None:
    topics = load_topics()
    tags = match_topics("We study offline reinforcement learning. Offline RL uses fixed offline datasets.", topics)
    offline = next(t for t in tags if t.name == "Offline RL")
    assert offline.kind == "topic" and "offline reinforcement learning" in offline.evidence


def test_a_small_further_topic_is_left_out_and_a_broad_one_keeps_all_its_papers() -> None:
    small = Tag("Small", "small", "topic", 0.5, ("x",))
    broad = [Tag("Broad", "broad", "topic", 0.6 + c / 100, ("y",)) for c in range(20)]
    per_paper = [[broad[i]] + ([small] if i < 2 else []) for i in range(20)]
    folded = fold_topics(per_paper, min_papers=3, max_per_paper=4)
    assert not any(t.slug == "small" for tags in folded for t in tags)
    assert all([t.slug for t in tags] == ["broad"] for tags in folded)


def test_summary_is_the_first_sentence_shortened() -> None:
    assert summarize("One short sentence. Another one.", 100) == "One short sentence."
    long = summarize("word " * 100, 50)
    assert len(long) <= 50 and long.endswith("…")


def test_enrich_keeps_a_given_title() -> None:
    paper = make_paper(title="A Real Title", title_source="given")
    assert enrich([paper], Settings())[0].title == "A Real Title"


@pytest.mark.slow
def test_large_digests_give_the_same_result_and_pages_on_one_core_or_several(default_papers) -> None:
    from dataclasses import replace

    settings = Settings(project_dir=ROOT)
    base = read_sources([DEFAULT_CORPUS], settings).papers
    papers = [
        make_paper(f"{paper.abstract} Variant {n}.") for n in range(18) for paper in base
    ][:1000]
    one, layout = enrich_digest(papers, replace(settings, workers=1))
    several, forked = enrich_digest(papers, replace(settings, workers=2), draw_map=True)
    assert one == several
    # Paper pages rendered by the page processes (render/page_processes.py) are the pages one process renders.
    from generator.render import render_pages

    pages = render_pages(one, layout, replace(settings, workers=1))
    assert render_pages(one, forked, replace(settings, workers=2)) == pages
    assert sum(rel.startswith("papers/") for rel in pages) == len(one)
