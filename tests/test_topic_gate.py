"""The topic gate and the area reranker: what a reader of a paper page sees first, learned from a reader's verdicts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from generator.enrich.area_gate import AREA_FEATURES, AreaGate, load_area_gate, reranked
from generator.enrich.areas import load_model
from generator.enrich.gate import FEATURES, RATES, Candidate, Gate, candidate_rows, layout, load_gate
from generator.enrich.keywords import keyword_tags
from generator.enrich.tags import load_topics
from generator.enrich.topic_choice import tag_topics
from generator.enrich.topic_model import load_topic_model
from generator.model import Tag
from generator.text import to_plain

EMPTY_RATES: dict[str, dict[str, float]] = {rate: {} for rate in RATES}


def _topic_names(abstract: str, keywords: tuple[str, ...] = ()) -> list[str]:
    plain = to_plain(abstract)
    given = [keyword_tags(keywords, load_topics(), plain)] if keywords else None
    return [tag.name for tag in tag_topics([plain], load_topics(), given=given)[0]]


def _rows_of(text: str, name: str) -> dict[str, float]:
    """Return the gate's features of one vocabulary topic in a text."""
    model = load_topic_model()
    features, probabilities = model.scores([text])
    column = model.names.index(name)
    candidate = Candidate(Tag(name, "x", "topic"), model.phrase_index(name), float(probabilities[0, column]),
                          float(model.thresholds[column]), False, model.known_topics()[name])
    row = candidate_rows([candidate], layout(text), features.hits[0], {}, EMPTY_RATES)[0]
    return dict(zip(FEATURES, row.tolist(), strict=True))


def test_the_gate_reads_whether_a_topic_is_the_proposal_or_a_tool_it_uses() -> None:
    proposed = _rows_of("We propose a diffusion model for protein design. It samples faster.", "Diffusion Models")
    used = _rows_of("We study protein design. Our sampler is built on a diffusion model.", "Diffusion Models")
    background = _rows_of("Diffusion models are popular. We propose a protein design method.", "Diffusion Models")
    assert proposed["object"] == 1.0 and proposed["contribution"] > 0 and proposed["tool"] == 0.0
    assert used["tool"] == 1.0 and used["object"] == 0.0
    assert background["background"] == 1.0 and background["contribution"] == 0.0


def test_a_decoder_the_paper_only_uses_is_not_its_topic() -> None:
    abstract = (
        "We propose a visuomotor policy for robot manipulation that learns from twenty demonstrations. The "
        "policy encodes point clouds and its action decoder is a conditional diffusion model. On real-robot "
        "grasping and pouring tasks the policy succeeds more often than earlier imitation learning methods."
    )
    names = _topic_names(abstract)
    assert names and "Diffusion Models" not in names


def test_an_llm_agent_paper_shows_the_agent_topic_first() -> None:
    abstract = (
        "We introduce an LLM agent that writes and revises code with tools: it calls a compiler, reads the "
        "errors and plans its next edit. The agent keeps a memory of earlier attempts. On SWE-bench the "
        "agent solves more issues than earlier language model agents."
    )
    assert _topic_names(abstract)[0] == "LLM Agents & Tool Use"


def test_every_paper_with_a_candidate_keeps_one_topic_however_low_the_gate_scores_it(tmp_path) -> None:
    data = json.loads(_gate_json())
    data["bias"] = -50.0
    data["further"] = 1.0
    path = tmp_path / "gate.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    strict = Gate(path)
    plains = [to_plain(a) for a in (
        "We propose a graph neural network for molecules and test it on protein binding.",
        "We study bandit algorithms with delayed feedback and prove regret bounds.",
    )]
    for tags in tag_topics(plains, load_topics(), gate=strict):
        assert len(tags) == 1 and tags[0].confidence < 0.01


def _gate_json() -> str:
    from generator.enrich.gate import GATE_PATH

    return GATE_PATH.read_text(encoding="utf-8")


def test_the_gate_and_the_area_reranker_load_from_json_and_reject_other_features(tmp_path) -> None:
    assert load_gate().weights.shape == (len(FEATURES),)
    assert load_area_gate().weights.shape == (len(AREA_FEATURES),)
    data = json.loads(_gate_json())
    data["features"] = data["features"][:-1]
    path = tmp_path / "gate.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="retrain"):
        Gate(path)
    area = tmp_path / "area.json"
    area.write_text(json.dumps({"features": ["logit"], "mean": [0], "scale": [1], "weights": [1], "bias": 0}),
                    encoding="utf-8")
    with pytest.raises(ValueError, match="retrain"):
        AreaGate(area)


def test_the_gate_keeps_further_topics_only_above_its_threshold() -> None:
    gate = load_gate()
    plains = [to_plain(a) for a in (
        "We propose a federated learning method with differential privacy for hospitals; clients share "
        "clipped updates and we prove privacy guarantees.",
        "We propose a vision-language model benchmark for chart question answering and evaluate twelve "
        "multimodal large language models.",
    )]
    for tags in tag_topics(plains, load_topics()):
        assert tags and all(tag.confidence >= gate.further for tag in tags[1:])
        assert [t.confidence for t in tags] == sorted((t.confidence for t in tags), reverse=True)


def test_a_language_model_method_is_homed_under_llms_not_an_application_area() -> None:
    plain = to_plain(
        "We propose a prompting method that makes large language models reason step by step over long "
        "documents: the LLM first writes a plan, then answers each sub-question with retrieved passages. "
        "On question answering and summarization benchmarks the method improves GPT-4 and Llama-3."
    )
    topics = tag_topics([plain], load_topics())[0]
    guesses = reranked(load_model().predict_plausible([plain])[0], topics, plain)
    assert guesses[0].area.name == "LLMs & Foundation Models"


def test_reranking_keeps_every_area_and_only_reorders_the_likeliest() -> None:
    plain = to_plain("We prove regret bounds for a bandit algorithm with delayed feedback.")
    guesses = load_model().predict_plausible([plain])[0]
    after = reranked(guesses, tag_topics([plain], load_topics())[0], plain)
    assert sorted(g.area.name for g in after) == sorted(g.area.name for g in guesses)
    assert after[3:] == guesses[3:]


def test_gate_rows_do_not_depend_on_the_order_of_the_candidates() -> None:
    text = "We propose a graph neural network for molecules. We use a transformer encoder for the atoms."
    model = load_topic_model()
    features, probabilities = model.scores([text])
    names = ["Graph Neural Networks", "Transformers & Architectures", "Proteins & Biology"]
    candidates = [
        Candidate(Tag(n, n.lower(), "topic"), model.phrase_index(n), float(probabilities[0, model.names.index(n)]),
                  float(model.thresholds[model.names.index(n)]), False, model.known_topics()[n])
        for n in names
    ]
    forward = candidate_rows(candidates, layout(text), features.hits[0], {}, EMPTY_RATES)
    backward = candidate_rows(candidates[::-1], layout(text), features.hits[0], {}, EMPTY_RATES)[::-1]
    assert np.array_equal(forward, backward)
    chosen = load_gate().choose(candidates, text, features.hits[0], 4)
    assert chosen == load_gate().choose(candidates[::-1], text, features.hits[0], 4)
