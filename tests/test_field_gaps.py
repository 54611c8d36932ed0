"""Subjects each field has that its vocabulary lacked: a paper about one gets its topic, in its area (issue 44, fifth round).

Strict readers found papers of ACL, CVPR and IROS digests with no topic, or a neighbouring one, where
the field names the subject itself: privacy attacks on language models, psycholinguistics (reading
times, surprisal), the compression of pretrained language models, continual relation extraction,
machine-generated text, the environmental cost of research; image animation, clothed-human
reconstruction, energy-based generative models, 6D object pose, image matting, defocus blur detection
(tagged "Object Detection"); cleaning robots, manufacturing systems. The tune part's titles share these
subjects (`python bench/field_gaps.py`). The abstracts below are written for these tests in the shape
of real ones (none is from ICLR 2026 or a held-out venue-year).
"""

from __future__ import annotations

import pytest

from generator.enrich import enrich
from generator.enrich.areas import load_model
from generator.enrich.fields import load_field_tagger
from generator.model import Paper
from generator.settings import Settings
from generator.text import to_plain
from tests.conftest import make_paper
from tests.test_fields import NLP, ROBOTICS, VISION

#: (abstract, a right topic ("A|B": either, a narrower topic's parent counts), its area, topics never shown)
NLP_GAPS = [
    ("Language models fine-tuned on private data may leak it. We study membership inference attacks against "
     "fine-tuned text classifiers: given a sentence, the attacker decides whether it was in the training set "
     "from the model's confidence alone. Our attack reaches high precision on three datasets, and training "
     "with differential privacy lowers it at a small cost in accuracy.",
     "Privacy & Security of NLP Models", "Ethics, Privacy & Security", set()),
    ("Readers slow down at the end of a sentence. We ask whether these wrap-up effects are explained by the "
     "information a word carries: we estimate the surprisal of each word with a language model and regress "
     "the reading times of an eye-tracking corpus and a self-paced reading corpus on it. Surprisal at the "
     "end of a sentence predicts the reading times better than position alone, a result for psycholinguistic "
     "theories of sentence processing.",
     "Psycholinguistics & Cognitive Modeling", "Linguistics & Cognitive Modeling", {"Question Answering"}),
    ("Pretrained language models are large. The lottery ticket hypothesis says a dense network contains sparse "
     "subnetworks that train as well as the whole. We find winning tickets in BERT for each GLUE task by "
     "pruning weights with a learned mask during fine-tuning, and show that a ticket of one tenth of the "
     "weights keeps the accuracy of the full model and transfers across tasks.",
     "Efficient NLP", "Efficient & Low-Resource Methods", set()),
    ("Continual relation extraction learns new relations one task after another without forgetting the old "
     "ones. We propose a continual relation extraction method that stores a few examples of each relation "
     "and regularizes the embedding space so that old relation prototypes stay apart, improving accuracy on "
     "FewRel and TACRED over replay methods.",
     "Relation Extraction|Continual & Lifelong Learning for NLP", "Information Extraction", set()),
]

VISION_GAPS = [
    ("We animate an object in a still image with the motion of a driving video of the same kind of object. Our "
     "motion transfer network learns keypoints of the object without supervision, predicts dense motion from "
     "their displacements and warps the source image frame by frame. On faces, bodies and robots our image "
     "animation method produces videos that keep the source's appearance better than previous work.",
     "Video & 3D Generation", "Image & Video Synthesis", {"Object Detection", "Object Tracking"}),
    ("We reconstruct a clothed human from a single photograph. From the person's silhouette we infer the "
     "silhouettes of other views, carve a visual hull that keeps the shape of loose clothing, and synthesize "
     "the texture of the unseen back with a conditional network. Our 3D human models are more complete than "
     "those of methods that fit a parametric body model.",
     "3D Human Reconstruction|Human Motion & Avatars", "Humans, Faces & Motion", set()),
    ("Estimating the 6D pose of known objects from a single RGB image is hard under occlusion. We propose an "
     "object pose estimation network that predicts dense correspondences between the image pixels and the "
     "object's 3D model and solves for the 6D pose with PnP inside a RANSAC loop. On LINEMOD and Occlusion "
     "LINEMOD our object pose estimates are more accurate than those of keypoint-based methods.",
     "Object Pose Estimation", "3D Vision & Geometry", {"Human Pose Estimation"}),
    ("Image matting estimates the alpha matte that separates a foreground object from the background, with "
     "fine detail such as hair. Given a trimap, our matting network samples foreground and background colours "
     "for each unknown pixel with a learned sampling step and predicts the alpha values, improving the "
     "errors of natural image matting on the alphamatting.com benchmark.",
     "Image Matting", "Low-Level Vision & Computational Photography", {"Image Editing & Style Transfer"}),
    ("Defocus blur detection finds the regions of an image that are out of focus. We propose an ensemble of "
     "lightweight defocus blur detectors trained to disagree with each other, whose outputs are fused into one "
     "blur map. On two defocus blur detection datasets our ensemble is more accurate and faster than a single "
     "deep network.",
     "Image Restoration & Enhancement", "Low-Level Vision & Computational Photography", {"Object Detection"}),
]

ROBOTICS_GAPS = [
    ("Cleaning robots vacuum floors but miss stains and solid dirt. We present an indoor cleaning robot that "
     "detects dirt on the floor with a segmentation network running on its camera images and plans its "
     "cleaning path to visit the dirty areas first. In homes and offices the robot removes more dirt in the "
     "same time than a robot that covers the floor uniformly.",
     "Service & Domestic Robots", "Industrial & Service Robots", set()),
    ("Flexible manufacturing systems share machines and robots among many jobs and may deadlock. We model a "
     "manufacturing system with Petri nets and compute a deadlock avoidance policy that admits a job only "
     "when its route cannot block another, and show on a wafer fabrication cell that throughput stays high.",
     "Manufacturing & Industrial Automation", "Industrial & Service Robots", set()),
]


def _digest(abstracts: list[str]) -> list[Paper]:
    return enrich([make_paper(abstract) for abstract in abstracts], Settings())


def check_field_table(table: list[tuple[str, str, str, set[str]]], context: list[tuple[str, str, set[str]]]) -> None:
    """Assert that each abstract of `table`, tagged among the field's other papers (`context`) as in a venue's
    digest, shows a right topic (or its parent), none of the topics it must not, and its area ("A|B": either)."""
    papers = _digest([a for a, _, _, _ in table] + [a for a, _, _ in context])
    for paper, (abstract, expected, area, never) in zip(papers, table, strict=False):
        topics = [t.name for t in paper.tags if t.kind == "topic"]
        parents = {t.parent for t in paper.tags if t.kind == "topic"}
        assert set(expected.split("|")) & {*topics, *parents}, (abstract[:60], paper.tags)
        assert not never & set(topics), (abstract[:60], topics)
        assert next(t.name for t in paper.tags if t.kind == "area") in area.split("|"), (abstract[:60], paper.tags)


@pytest.mark.parametrize("table,context", [(NLP_GAPS, NLP), (VISION_GAPS, VISION), (ROBOTICS_GAPS, ROBOTICS)],
                         ids=["nlp", "vision", "robotics"])
def test_a_subject_of_the_field_gets_its_own_topic_and_area(table, context) -> None:
    check_field_table(table, context)


def test_a_narrower_topic_shown_is_not_repeated_by_its_parent() -> None:
    # "3D Object Detection" says all "Object Detection" would, and more: the reader calls the parent loose beside it.
    lidar = ("We detect 3D objects in LiDAR point clouds for autonomous driving. Our 3D object detection network "
             "first proposes 2D object detections in the camera image, lifts each to a frustum of points and "
             "regresses an oriented 3D bounding box, and improves 3D detection accuracy on KITTI for cars, "
             "pedestrians and cyclists over previous 3D object detectors.")
    # The tagger's own choice (a digest folds a narrower topic of fewer than three papers into its parent).
    tagger = load_field_tagger()
    assert tagger is not None
    plains = [to_plain(lidar)]
    topics = [t.name for t in tagger.tag_in(plains, load_model().features(plains), ["Computer Vision"])[0].topics]
    assert "3D Object Detection" in topics, topics
    assert "Object Detection" not in topics, topics


def test_agents_of_a_story_are_not_llm_agents() -> None:
    # The agents a text tells of are not language-model agents, even when a language model classifies them: bare
    # "agent" names no topic ("LLM agents", "web agents" do), and the topic is of the LLM era (`llm_era: true`).
    narratives = ("Conspiracy theories on social media tell of an outside group that threatens an inside group. We "
                  "introduce the task of finding the agents of such threat narratives: the insiders the authors "
                  "identify with and the outsider agents who threaten them, annotate posts of a fringe forum with "
                  "the agents and their roles, and fine-tune a pretrained language model that assigns each agent "
                  "mention to its group, with agents often implicit and named differently across a thread.")
    papers = _digest([narratives] + [a for a, _, _ in NLP])
    assert "LLM Agents & Tool Use" not in [t.name for t in papers[0].tags if t.kind == "topic"], papers[0].tags
