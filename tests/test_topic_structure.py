"""Which topics a digest shows: every paper tagged at any size, no cap, sub-topics, cleaned keyword tags.

The robotics abstracts below are written for these tests (none is from ICLR 2026).
"""

from __future__ import annotations

import json
import random

import pytest

from generator.enrich import enrich
from generator.enrich.folding import fold_topics, topic_parents
from generator.enrich.keywords import keyword_key, keyword_name, keyword_tags
from generator.enrich.tags import load_topics
from generator.errors import SettingsError
from generator.model import Tag
from generator.read import read_sources
from generator.render.groups import group_by_tag
from generator.settings import Settings, load_settings
from tests.conftest import DEFAULT_CORPUS, ROOT, copy_project, make_paper, render_digest, write_tree


def _topic(slug: str, confidence: float = 0.5) -> Tag:
    return Tag(slug.replace("-", " ").title(), slug, "topic", confidence, ("x",))


PARENTS = {"offline-rl": ("Deep Rl", "deep-rl")}


def test_a_paper_keeps_its_best_topic_though_no_other_paper_shares_it() -> None:
    per_paper = [[_topic("fairness", 0.9)], [_topic("broad")], [_topic("broad")], [_topic("broad")]]
    folded = fold_topics(per_paper, min_papers=3, max_per_paper=4)
    assert [t.slug for t in folded[0]] == ["fairness"]


def test_a_further_topic_too_small_for_a_page_is_left_out() -> None:
    per_paper = [[_topic("broad", 0.9), _topic("side", 0.6)], [_topic("broad")], [_topic("broad")]]
    assert [t.slug for t in fold_topics(per_paper, 3, 4)[0]] == ["broad"]


def test_no_topic_is_capped_however_much_of_the_digest_it_holds() -> None:
    per_paper = [[_topic("manipulation", c / 20)] for c in range(20)]
    assert all(tags and tags[0].slug == "manipulation" for tags in fold_topics(per_paper, 3, 4))


def test_a_topic_too_small_for_a_page_folds_into_its_parent_named_on_the_paper() -> None:
    # Two papers on "offline-rl" and one on its parent "deep-rl": alone neither makes a page of three.
    per_paper = [[_topic("offline-rl", 0.8)], [_topic("offline-rl", 0.7), _topic("deep-rl", 0.4)], [_topic("deep-rl")]]
    folded = fold_topics(per_paper, min_papers=3, max_per_paper=4, parents=PARENTS)
    assert [[t.slug for t in tags] for tags in folded] == [["deep-rl"], ["deep-rl"], ["deep-rl"]]
    assert folded[0][0].evidence[0] == "narrower topic: Offline Rl" and folded[0][0].confidence == 0.8
    assert folded[1][0].confidence == 0.7  # one tag per topic: the more confident of the two


def test_a_sub_topic_with_a_page_names_its_parent_whose_page_lists_its_papers() -> None:
    per_paper = [[_topic("offline-rl", 0.8)] for _ in range(3)] + [[_topic("deep-rl", 0.6)]]
    folded = fold_topics(per_paper, min_papers=3, max_per_paper=4, parents=PARENTS)
    assert [t.parent for t in folded[0]] == ["Deep Rl"] and folded[3][0].parent == ""
    papers = [make_paper(f"Paper {i} on reinforcement learning.", tags=tuple(tags)) for i, tags in enumerate(folded)]
    groups = {g.tag.slug: g for g in group_by_tag(papers)}
    assert len(groups["deep-rl"].papers) == 4 and len(groups["offline-rl"].papers) == 3
    assert [(tag.slug, count) for tag, count in groups["deep-rl"].children] == [("offline-rl", 3)]
    # A sub-topic is not "often together with" its own parent.
    assert not groups["offline-rl"].related


def test_folding_does_not_depend_on_the_order_of_the_papers() -> None:
    rng = random.Random(3)
    slugs = ["broad", "side", "offline-rl", "deep-rl", "solo"]
    per_paper = [sorted((_topic(s, round(rng.random(), 2)) for s in rng.sample(slugs, rng.randint(1, 3))),
                        key=lambda t: -t.confidence) for _ in range(30)]
    order = list(range(30))
    rng.shuffle(order)
    folded = fold_topics(per_paper, 3, 4, parents=PARENTS)
    shuffled = fold_topics([per_paper[i] for i in order], 3, 4, parents=PARENTS)
    assert [shuffled[order.index(i)] for i in range(30)] == folded


def test_the_default_57_paper_digest_has_no_untagged_paper() -> None:
    settings = Settings(project_dir=ROOT)
    papers = enrich(read_sources([DEFAULT_CORPUS], settings).papers, settings)
    topics = [[t for t in p.tags if t.kind == "topic"] for p in papers]
    assert len(papers) == 57
    assert [p.title for p, tags in zip(papers, topics, strict=True) if not tags] == []
    assert all(len(tags) <= 4 for tags in topics)


ROBOTICS = [
    "We present a dexterous manipulation policy for a five-fingered dexterous hand that reorients objects in hand. "
    "The policy is trained in simulation with reinforcement learning and transferred to the real robot.",
    "Robotic grasping of unseen objects in clutter remains hard. We propose a grasp pose detector trained on "
    "synthetic point clouds that lets a robot arm pick novel objects with a 92% success rate.",
    "We study bimanual robot manipulation of deformable objects such as cloth. Our robot learns to fold garments "
    "from twenty human demonstrations with a diffusion policy.",
    "Legged robots must walk over rough terrain. We train a quadruped locomotion policy with a learned terrain "
    "model and deploy it on a real robot that climbs stairs and crosses gaps.",
    "We propose a humanoid locomotion controller learned from motion capture data. The legged robot walks, turns "
    "and recovers from pushes on the real hardware without retuning.",
    "Robot manipulation policies fail when objects change. We learn object-centric representations that let a "
    "robot arm generalise pick-and-place and drawer opening to new objects and scenes.",
    "We present a robot learning system that turns language instructions into manipulation skills. A "
    "vision-language-action model controls a robot arm in a real kitchen across 40 tasks.",
    "Contact-rich manipulation needs force feedback. We add tactile sensing to a robot gripper and learn a "
    "grasping and in-hand manipulation policy that inserts pegs with sub-millimetre clearance.",
    "We train a robot to open doors and drawers with a mobile manipulator. The robot manipulation policy is "
    "learned from teleoperated demonstrations and runs on a real mobile robot in unseen homes.",
    "Sim-to-real transfer of legged locomotion policies is limited by the terrain gap. We present a legged "
    "locomotion method that randomises friction and terrain in simulation: the quadruped robot runs on grass, "
    "sand and snow in the real world.",
]


def test_a_robotics_digest_shows_roboticss_own_areas_and_every_robot_paper_under_one() -> None:
    # Half robot papers: a robotics digest (issue 44). Its robot papers show robotics' own areas and
    # topics, not ICLR's "Robotics & Manipulation"; the machine-learning papers keep ICLR's.
    settings = Settings(project_dir=ROOT)
    others = [p.abstract for p in read_sources([DEFAULT_CORPUS], settings).papers[:10]]
    papers = enrich([make_paper(text) for text in ROBOTICS + others], settings)
    groups = {g.tag.name: g for g in group_by_tag(papers)}
    robot = {p.abstract for name in ("Manipulation & Grasping", "Legged & Humanoid Locomotion", "Robot Learning")
             for p in groups[name].papers}
    # No cap: manipulation holds a third of the digest. (A cloth-folding policy learned from demonstrations
    # may be shown under Robot Learning, its first topic's area, since imitation learning is a topic of it.)
    assert robot >= set(ROBOTICS)
    assert {p.abstract for p in groups["Manipulation & Grasping"].papers} >= {ROBOTICS[0], ROBOTICS[1], ROBOTICS[5]}
    assert {p.abstract for p in groups["Legged Locomotion"].papers} >= {ROBOTICS[3], ROBOTICS[4], ROBOTICS[9]}
    assert "Robotics & Manipulation" not in groups


@pytest.mark.parametrize(
    ("spellings", "slug"),
    [
        (["LLM", "LLMs", "Large Language Models", "large language model", "Language Models",
          "Large Language Models (LLMs)"], "large-language-model"),
        (["Graph Neural Network", "graph neural networks", "GNN", "GNNs"], "graph-neural-network"),
        (["Multi-Armed Bandits", "multi-armed bandit", "multi armed bandits"], "multi-armed-bandit"),
    ],
)
def test_spellings_of_one_keyword_meet_on_one_tag(spellings: list[str], slug: str) -> None:
    assert {keyword_key(s) for s in spellings} == {slug.replace("-", " ")}


@pytest.mark.parametrize(("keyword", "shown"), [("nlp", "NLP"), ("cnn", "CNN"), ("gan", "GAN"), ("rnn", "RNN"),
                                                ("deep learning for 3d point clouds", "Deep Learning for 3D Point Clouds"),
                                                ("GFlowNets", "GFlowNets")])
def test_acronyms_keep_their_capitals_in_keyword_tags(keyword: str, shown: str) -> None:
    assert keyword_name(keyword) == shown


def test_a_keyword_naming_a_topic_joins_it_and_a_track_is_left_out() -> None:
    vocabulary = load_topics()
    tags = keyword_tags(("Manipulation", "Constrained RL", "Deep learning"), vocabulary)
    assert [t.name for t in tags] == ["Robotics & Manipulation", "Constrained RL"]
    tracks = keyword_tags(("Computer Vision: CV: Segmentation", "Machine Learning: General"), vocabulary)
    assert [t.name for t in tracks] == ["Object Detection & Segmentation"]
    # A venue's category cut at its commas: its pieces make no tag of their own, but a piece may name a topic.
    pieces = ("Computer Vision: Recognition (object detection", "Categorization)", "Face", "Multi-task Learning")
    assert [t.name for t in keyword_tags(pieces, vocabulary)] == ["Multi-Task Learning"]


def test_a_category_cut_at_its_commas_is_one_tag_and_a_common_word_is_none() -> None:
    vocabulary = load_topics()
    # IJCAI's "Energy, environment and sustainability" reaches a record as two keywords; "Energy" alone
    # was the tag a strict reader called wrong on a wildlife-acoustics paper.
    cut = ("Multidisciplinary Topics and Applications: MDA: Energy", "environment and sustainability")
    assert [t.name for t in keyword_tags(cut, vocabulary)] == ["Energy, environment and sustainability"]
    # "Networks" is a word most abstracts use: it names no topic.
    assert keyword_tags(("Humans and AI: HAI: Applications", "Data Mining: DM: Networks"), vocabulary) == []


def test_a_keyword_joins_an_llm_era_topic_only_when_the_abstract_names_a_language_model() -> None:
    vocabulary = load_topics()
    old = "We pre-train a convolutional network on ImageNet and fine-tune it on small datasets."
    new = "We study pre-training data of large language models and its effect on fine-tuning."
    assert [t.name for t in keyword_tags(("pre-training",), vocabulary, old)] == []
    assert [t.name for t in keyword_tags(("pre-training",), vocabulary, new)] == ["Scaling Laws & Pretraining"]


def test_a_keyword_joins_a_topic_only_where_the_abstract_bears_it_out() -> None:
    vocabulary = load_topics()
    keywords = ("Machine Learning: Transfer", "Multi-agent learning")
    unrelated = "We bound the complexity of temporal graph queries and give a polynomial algorithm."
    related = "We study transfer learning between domains, with several agents in multi-agent reinforcement learning."
    assert keyword_tags(keywords, vocabulary, unrelated) == []
    assert {t.name for t in keyword_tags(keywords, vocabulary, related)} == {"Domain Adaptation & Transfer",
                                                                              "Multi-Agent RL"}


def test_the_digest_shows_the_spelling_most_sources_use(tmp_path) -> None:
    rows = [{"abstract": f"We study topic {i} of large language models (LLMs) for natural language processing (NLP) in depth. Our results are new.",
             "keywords": keyword} for i, keyword in enumerate(["nlp; LLMs", "NLP; Large Language Models",
                                                                 "NLP; language models", "Nlp; LLM"])]
    source = write_tree(tmp_path, {"list.jsonl": "\n".join(json.dumps(r) for r in rows)}) / "list.jsonl"
    settings = Settings(project_dir=tmp_path)
    papers = enrich(read_sources([source], settings).papers, settings)
    names = {t.name for p in papers for t in p.tags if t.kind == "topic"}
    assert "NLP" in names and "Nlp" not in names and "nlp" not in names
    # LLM, LLMs and Large Language Models (a language-processing digest: its own topic of them): one tag, on all four.
    assert len([n for n in names if "anguage" in n or "LLM" in n]) == 1


def test_keywords_cut_at_semicolons_keep_their_commas(tmp_path) -> None:
    row = {"abstract": "We study object recognition with deep networks. Results improve.",
           "keywords": "Computer Vision: Recognition (detection, categorization); Machine Learning: Deep Learning"}
    source = write_tree(tmp_path, {"list.jsonl": json.dumps(row)}) / "list.jsonl"
    paper = read_sources([source], Settings(project_dir=tmp_path)).papers[0]
    assert paper.keywords == ("Computer Vision: Recognition (detection, categorization)",
                              "Machine Learning: Deep Learning")


def test_the_retired_cap_setting_is_rejected_with_what_replaced_it(tmp_path) -> None:
    (tmp_path / "paper-digest.toml").write_text("max_topic_share = 0.2\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="no topic is capped"):
        load_settings(tmp_path)


OFFLINE_RL = [
    "Offline reinforcement learning learns a policy from a fixed dataset without interaction. We propose a "
    "conservative Q-learning objective that penalises out-of-distribution actions and improves offline RL on D4RL.",
    "We study offline reinforcement learning with limited data. Our method regularises the policy towards the "
    "behavior policy with an adaptive weight and outperforms prior offline RL methods on locomotion tasks.",
    "Offline RL suffers from value overestimation on unseen actions. We propose an ensemble of Q-functions with "
    "uncertainty penalties for offline reinforcement learning, improving returns on D4RL benchmarks.",
    "Deep reinforcement learning agents explore poorly in sparse reward tasks. We propose an intrinsic reward "
    "from the disagreement of dynamics models and improve exploration for deep RL on Atari games.",
]


def test_the_topic_index_nests_sub_topics_and_a_parent_page_shows_their_chips(tmp_path) -> None:
    project = copy_project(tmp_path / "project")
    text = "\n".join(json.dumps({"abstract": abstract}) for abstract in OFFLINE_RL)
    source = write_tree(tmp_path, {"rl.jsonl": text}) / "rl.jsonl"
    files = render_digest(project, [source])
    index = files["tags/index.md"].decode()
    parent = files["tags/deep-rl-algorithms.md"].decode()
    assert "**Sub-topics:** " in parent and "[Offline RL](../tags/offline-rl.md)" in parent
    child = files["tags/offline-rl.md"].decode()
    assert "**Sub-topic of** [Deep RL Algorithms](../tags/deep-rl-algorithms.md)" in child
    assert "        - [Offline RL](../tags/offline-rl.md) (" in index
    # The parent's count holds every RL paper, its sub-topic's too.
    assert f"| [Deep RL Algorithms](../tags/deep-rl-algorithms.md) | {len(OFFLINE_RL)} |" in index


def test_every_parent_of_the_vocabulary_is_a_topic_of_it() -> None:
    vocabulary = load_topics()
    assert set(topic_parents(vocabulary).values()) <= {(t.name, t.slug) for t in vocabulary}
