"""Paragraphs of a text digest: a continuation joins the abstract before it, a new abstract never does."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.enrich import enrich, enrich_digest
from generator.read import read_sources
from generator.read.grouping import group
from generator.read.notes import is_tail_note, without_tail_notes
from generator.read.paragraph_model import load_model
from generator.read.paragraphs import features, profile
from generator.settings import Settings
from generator.text import paragraphs_to_markdown, to_markdown
from tests.conftest import make_paper, write_tree

# An abstract that ends as abstracts do: a problem, a contribution, a result.
ENDED = (
    "Reasoning models are increasingly deployed as agents that consult external tools. We study when such "
    "models benefit from retrieved knowledge and introduce KnowProbe, a benchmark of 4,000 questions with "
    "controlled evidence. Our experiments with twelve models reveal three findings."
)
LIST_OPEN = (
    "Graph neural networks struggle with long-range dependencies. We introduce RelayNet, a message-passing "
    "scheme with learned relay nodes, and prove that it has the following properties:"
)

# From ../shared/corpora/other-venues.jsonl (ICLR 2018, iclr2018-SJZ2Mf-0-): three paragraphs of one abstract.
AMN = [
    "Real-world Question Answering (QA) tasks consist of thousands of words that often represent many facts "
    "and entities. Existing models based on LSTMs require a large number of parameters to support external memory "
    "and do not generalize well for long sequence inputs. Memory networks attempt to address these limitations by "
    "storing information to an external memory module but must examine all inputs in the memory. Hence, for longer "
    "sequence inputs the intermediate memory components proportionally scale in size resulting in poor inference "
    "times and high computation costs.",
    "In this paper, we present Adaptive Memory Networks (AMN) that process input question pairs to dynamically "
    "construct a network architecture optimized for lower inference times. During inference, AMN parses input text "
    "into entities within different memory slots. However, distinct from previous approaches, AMN is a dynamic "
    "network architecture that creates variable numbers of memory banks weighted by question relevance. Thus, the "
    "decoder can select a variable number of memory banks to construct an answer using fewer banks, creating a "
    "runtime trade-off between accuracy and speed.",
    "AMN is enabled by first, a novel bank controller that makes discrete decisions with high accuracy and second, "
    "the capabilities of a dynamic framework (such as PyTorch) that allow for dynamic network sizing and efficient "
    "variable mini-batching. In our results, we demonstrate that our model learns to construct a varying number of "
    "memory banks based on task complexity and achieves faster inference times for standard bAbI tasks, and "
    "modified bAbI tasks. We achieve state of the art accuracy over these tasks with an average 48% lower entities "
    "are examined during inference.",
]
# From other-venues.jsonl (ICLR 2018, iclr2018-HJDUjKeA- and iclr2018-SJcKhk-Ab): prose paragraphs, no list marker.
OBJECTS = [
    "We show how discrete objects can be learnt in an unsupervised fashion from pixels, and how to perform "
    "reinforcement learning using this object representation.",
    "More precisely, we construct a differentiable mapping from an image to a discrete tabular list of objects, "
    "where each object consists of a differentiable position, feature vector, and scalar presence value that allows "
    "the representation to be learnt using an attention mechanism.",
    "Applying this mapping to Atari games, together with an interaction net-style architecture for calculating "
    "quantities from objects, we construct agents that can play Atari games using objects learnt in an unsupervised "
    "fashion. During training, many natural objects emerge, such as the ball and paddles in Pong, and the submarine "
    "and fish in Seaquest.",
    "This gives the first reinforcement learning agent for Atari with an interpretable object representation, and "
    "opens the avenue for agents that can conduct object-based exploration and generalization.",
]
CHRONO = [
    "Successful recurrent models such as long short-term memories (LSTMs) and gated recurrent units (GRUs) use "
    "\\emph{ad hoc} gating mechanisms. Empirically these models have been found to improve the learning of medium to "
    "long term temporal dependencies and to help with vanishing gradient issues.",
    "We prove that learnable gates in a recurrent model formally provide \\emph{quasi-invariance to general time "
    "transformations} in the input data. We recover part of the LSTM architecture from a simple axiomatic approach.",
    "This result leads to a new way of initializing gate biases in LSTMs and GRUs. Experimentally, this new "
    "\\emph{chrono initialization} is shown to greatly improve learning of long term dependencies, with minimal "
    "implementation effort.",
]
# From other-venues.jsonl (ICLR 2018, iclr2018-HyZoi-WRb), shortened: an abstract and its code line.
JVI = [
    "The importance-weighted autoencoder (IWAE) approach of Burda et al. defines a sequence of increasingly "
    "tighter bounds on the marginal likelihood of latent variable models. We interpret each IWAE bound as a biased "
    "estimator of the true marginal likelihood and develop jackknife variational inference (JVI), a family of "
    "bias-reduced estimators. Finally, we demonstrate that JVI leads to improved evidence estimates in variational "
    "autoencoders.",
    "Our implementation is available at https://github.com/Microsoft/jackknife-variational-inference",
]

# Short real-looking abstracts: each is a paper of its own, whatever comes before it.
SHORT = [
    "We propose SparseMix, a data augmentation that mixes only salient patches. It improves ImageNet accuracy by 1.2%.",
    "Large language models (LLMs) often hallucinate citations. We release CiteCheck, a benchmark of 900 claims.",
    "This paper shows that Adam converges on smooth nonconvex objectives under bounded noise.",
    "Offline reinforcement learning suffers from distribution shift. We introduce a conservative critic that "
    "provably bounds it.",
    "We study tokenization for code models and find that byte-level vocabularies reduce errors by 9%.",
    "Diffusion models are slow at sampling time. We distil them into a one-step generator with a GAN loss.",
    "We present a theory of in-context learning for linear transformers.",
    "Graph neural networks (GNNs) oversmooth. We show that residual connections provably prevent it.",
]


def joins(paragraphs: list[str]) -> list[tuple[int, int, str]]:
    _groups, found = group(paragraphs)
    return [(j.index, j.onto, j.reason) for j in found]


@pytest.mark.parametrize(
    ("before", "paragraph", "reason"),
    [
        pytest.param(ENDED, "(2) Reasoning models consistently benefit from external knowledge when it is "
                     "relevant, and lose accuracy when it is not.", "starts with a list marker", id="parenthesised"),
        pytest.param(ENDED, "2. Methodological self-inquiry into their own cognition rarely changes an answer.",
                     "starts with a list marker", id="numbered"),
        pytest.param(ENDED, "ii) Larger models ignore contradicting evidence more often.", "starts with a list marker",
                     id="roman"),
        pytest.param(ENDED, "- Retrieval helps most on long-tail facts.", "starts with a list marker", id="dash"),
        pytest.param(ENDED, "• Retrieval helps most on long-tail facts.", "starts with a list marker", id="bullet"),
        pytest.param(ENDED, "* Retrieval helps most on long-tail facts.", "starts with a list marker", id="star"),
        pytest.param(LIST_OPEN, "Every relay node is reachable in two hops, and the scheme needs no positional "
                     "encodings or rewiring.", "the paragraph before ends with a colon", id="colon"),
        pytest.param(ENDED[:-len(" Our experiments with twelve models reveal three findings.")] + " in three settings,",
                     "Tool use shows the largest gains, while closed-book answers barely change.",
                     "the paragraph before ends mid-sentence", id="comma"),
        pytest.param(ENDED, "and that the gains vanish once the evidence is paraphrased.",
                     "starts with a lowercase letter", id="lowercase"),
    ],
)
def test_a_paragraph_with_a_continuation_signal_joins_the_abstract_before(
    before: str, paragraph: str, reason: str
) -> None:
    found = joins([before, paragraph])
    assert [(index, onto) for index, onto, _ in found] == [(1, 0)]
    assert found[0][2].startswith(reason)


@pytest.mark.parametrize(
    "note",
    [
        "Code is available at https://github.com/example/knowprobe.",
        "Our code and data will be released upon acceptance.",
        "Project page: https://knowprobe.github.io",
        "REVISED: these tendencies showed model-specific patterns in the new experiments.",
        "Note to reviewers: the changes since the first version are in the appendix.",
        "We color-coded the changes in the revised manuscript in blue.",
    ],
    ids=["code-available", "code-and-data", "project-page", "revised", "note-to-reviewers", "color-coded"],
)
def test_a_short_note_after_the_abstract_joins_it(note: str) -> None:
    found = joins([ENDED, note])
    assert [(index, onto) for index, onto, _ in found] == [(1, 0)]
    assert found[0][2].startswith("a short note after the abstract")


@pytest.mark.parametrize("abstract", [OBJECTS, CHRONO], ids=["objects", "chrono"])
def test_a_real_multi_paragraph_abstract_in_prose_stays_whole(abstract: list[str]) -> None:
    groups, _ = group(abstract)
    assert groups == [list(range(len(abstract)))]


def test_a_paragraph_going_on_about_the_method_before_joins_it() -> None:
    # "AMN is enabled by ..." after the paragraph that introduced Adaptive Memory Networks (AMN).
    assert [(i, onto) for i, onto, _ in joins(AMN[1:])] == [(1, 0)]


def test_a_code_line_after_a_real_abstract_joins_it() -> None:
    assert joins(JVI) == [(1, 0, "a short note after the abstract (code, data, revision)")]


@pytest.mark.parametrize("first", range(len(SHORT)))
def test_two_short_real_abstracts_in_a_row_stay_two_papers(first: int) -> None:
    for second in range(len(SHORT)):
        if second != first:
            assert joins([SHORT[first], SHORT[second]]) == [], (SHORT[first], SHORT[second])


@pytest.mark.parametrize("short", SHORT)
def test_a_short_real_abstract_after_a_long_one_stays_a_paper(short: str) -> None:
    for before in (ENDED, AMN[2], JVI[0]):
        assert joins([before, short]) == []


def test_an_abstract_after_one_cut_off_mid_sentence_stays_a_paper() -> None:
    cut = "Spectral methods are widely used for graph clustering. Our main result states that under general conditions,"
    assert joins([cut, JVI[0]]) == []


def test_a_run_of_short_abstracts_with_a_joined_list_stays_apart() -> None:
    paragraphs = [SHORT[0], SHORT[1], ENDED, "(1) Retrieval helps on rare facts.", "(2) It hurts on common ones.",
                  SHORT[2], SHORT[3]]
    groups, _ = group(paragraphs)
    assert groups == [[0], [1], [2, 3, 4], [5], [6]]


def _digest(tmp_path: Path, body: str) -> Path:
    write_tree(tmp_path, {"digest.txt": "ICLR 2026 Papers\n\n" + body})
    return tmp_path / "digest.txt"


def test_the_reader_joins_paragraphs_keeps_them_in_order_and_reports_each_join(tmp_path: Path) -> None:
    path = _digest(tmp_path, f"{SHORT[0]}\n\n{ENDED}\n\n(1) Retrieval helps on rare facts.\n\n"
                             f"(2) It hurts on common ones.\n\n{SHORT[1]}\n")
    result = read_sources([path], Settings(project_dir=tmp_path))
    abstracts = [p.abstract for p in result.papers]
    assert abstracts == [
        SHORT[0], f"{ENDED}\n\n(1) Retrieval helps on rare facts.\n\n(2) It hurts on common ones.", SHORT[1],
    ]
    joined = result.papers[1]
    assert (joined.source.paragraph, joined.source.line) == (2, 5)
    messages = [str(p) for p in result.problems if p.kind == "joined"]
    assert messages == [
        "digest.txt:7: paragraph 3 joined to paragraph 2: starts with a list marker",
        "digest.txt:9: paragraph 4 joined to paragraph 3: starts with a list marker",
    ]
    assert all(p.level == "info" for p in result.problems)


def test_joining_off_reads_every_paragraph_as_an_abstract(tmp_path: Path) -> None:
    path = _digest(tmp_path, f"{ENDED}\n\n(2) Retrieval helps on rare facts.\n\n{JVI[0]}\n\n{JVI[1]}\n")
    result = read_sources([path], Settings(project_dir=tmp_path, join_paragraphs=False))
    assert len(result.papers) == 4
    assert not [p for p in result.problems if p.kind == "joined"]


def test_the_setting_is_read_from_the_project_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {"paper-digest.toml": "join_paragraphs = false\n"})
    path = _digest(tmp_path, f"{ENDED}\n\n(2) Retrieval helps on rare facts.\n")
    runner = CliRunner()
    result = runner.invoke(main, ["check", str(path), "--project", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "2 abstracts in 1 files" in result.output
    assert "joined" not in result.output


def test_check_lists_each_join_with_counts_and_strict_does_not_fail(tmp_path: Path) -> None:
    path = _digest(tmp_path, f"{ENDED}\n\n(1) Retrieval helps on rare facts.\n\n(2) It hurts on common ones.\n\n"
                             f"{JVI[0]}\n\n{JVI[1]}\n")
    result = CliRunner().invoke(main, ["check", "--strict", str(path), "--project", str(tmp_path)])
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    assert "Joined 3 paragraphs to the abstract before them (2 starts with a list marker, 1 a short note" in output
    assert "digest.txt:5: paragraph 2 joined to paragraph 1: starts with a list marker" in output
    assert "2 abstracts in 1 files; collections: ICLR 2026; 3 paragraphs joined" in output


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("d.jsonl", json.dumps({"abstract": f"{ENDED}\n\n(2) Retrieval helps on rare facts."}) + "\n"
                    + json.dumps({"abstract": "(3) Retrieval hurts on common facts, as a paper of its own."}) + "\n"),
        ("d.csv", f'abstract\n"{ENDED}\n\n(2) Retrieval helps on rare facts."\n'
                  '"- A record that starts with a dash."\n'),
    ],
)
def test_structured_records_are_never_joined_or_split(tmp_path: Path, name: str, content: str) -> None:
    write_tree(tmp_path, {name: content})
    result = read_sources([tmp_path / name], Settings(project_dir=tmp_path))
    assert len(result.papers) == 2
    assert "(2) Retrieval helps on rare facts." in result.papers[0].abstract
    assert not [p for p in result.problems if p.kind == "joined"]


def test_a_joined_paragraph_is_its_own_inert_paragraph_on_the_page() -> None:
    text = f"{ENDED}\n\n2. Retrieval <b>helps</b> on {{{{ rare }}}} facts.\n\n# Not a heading"
    markdown = paragraphs_to_markdown(text)
    parts = markdown.split("\n\n")
    assert len(parts) == 3
    assert parts[1].startswith("2\\. Retrieval &lt;b&gt;helps&lt;/b&gt;")
    assert "\\{\\{" in parts[1]
    assert parts[2] == "\\# Not a heading"


def test_a_trailing_note_is_never_the_title_or_the_summary() -> None:
    note = "We color-coded the changes in the revised manuscript in blue."
    abstract = f"{JVI[0]}\n\n{JVI[1]}\n\n{note}"
    assert without_tail_notes(abstract) == JVI[0]
    paper = enrich([make_paper(abstract)], Settings())[0]
    assert "implementation" not in paper.title.lower() and "color" not in paper.title.lower()
    assert "github" not in paper.summary and "color" not in paper.summary
    assert "github" in paper.plain  # the note stays in the abstract, its text is searched


def test_grouping_is_a_pure_function_of_the_paragraphs() -> None:
    paragraphs = [*OBJECTS, *SHORT[:3], *JVI]
    assert group(paragraphs) == group(list(paragraphs))
    assert group(paragraphs)[0] == [[0, 1, 2, 3], [4], [5], [6], [7, 8]]


def test_settings_default_joins() -> None:
    assert Settings().join_paragraphs is True
    assert replace(Settings(), join_paragraphs=False).join_paragraphs is False


def test_the_paper_page_shows_a_joined_paragraph_as_its_own_paragraph(settings: Settings) -> None:
    from generator.render import render_pages

    papers, layout = enrich_digest([make_paper(f"{ENDED}\n\n(2) Retrieval <i>helps</i> on rare facts.")], settings)
    page = render_pages(papers, layout, settings)[papers[0].path].decode("utf-8")
    assert "three findings.\n\n(2) Retrieval &lt;i&gt;helps&lt;/i&gt; on rare facts.\n" in page


def test_a_hostile_paragraph_joined_to_an_abstract_is_escaped_as_an_abstract_of_its_own() -> None:
    from tests.hostile_cases import cases

    for case in cases():
        text = case.replace("\n", " ")
        assert paragraphs_to_markdown(f"{ENDED}\n\n{text}") == f"{to_markdown(ENDED)}\n\n{to_markdown(text)}", case


@pytest.mark.parametrize(
    ("paragraph", "note"),
    [
        ("Code is available at https://github.com/example/knowprobe.", True),
        ("Our code and data will be released upon acceptance.", True),
        ("Code and Dataset Are Available at https://zenodo.org/records/1", True),
        ("Project page: https://knowprobe.github.io", True),
        ("REVISED: these tendencies showed model-specific patterns.", True),
        ("Note to reviewers: the changes since the first version are in the appendix.", True),
        ("We color-coded the changes in the revised manuscript in blue.", True),
        # Short abstracts that start with the same words are abstracts.
        ("Code generation is a central task for LLMs. We propose CodeRL, a reinforcement learning recipe.", False),
        ("Data augmentation is widely used in vision. We show that it is not needed for ViTs.", False),
        ("Models are often miscalibrated under shift. We fix it with a one-line temperature rule.", False),
    ],
)
def test_a_note_after_an_abstract_is_told_from_a_short_abstract(paragraph: str, note: bool) -> None:
    assert is_tail_note(paragraph) is note
    assert bool(joins([ENDED, paragraph])) is note


# From other-venues.jsonl (IJCAI 2024 demos), shortened: a system described in the third person, then a short
# demo abstract that opens on its purpose. Two papers.
PYXAI = (
    "PyXAI (Python eXplainable AI) is a Python library designed for providing explanations and correcting "
    "tree-based Machine Learning (ML) models. It is suited to decision trees, random forests, and boosted trees. "
    "PyXAI also includes algorithms for correcting tree-based models when their predictions conflict with pieces "
    "of user knowledge."
)
EQGEN = (
    "To optimize the preparation process for educators in academic lectures and associated question-and-answer "
    "sessions, this paper presents E-QGen, a lecture abstract-based question generation system. Given a lecture "
    "abstract, E-QGen generates potential student inquiries."
)


def test_an_abstract_in_the_third_person_states_a_contribution_so_the_next_abstract_stays_apart() -> None:
    assert joins([PYXAI, EQGEN]) == []
    assert profile(PYXAI).contribution


def test_the_same_abstract_twice_is_never_joined_to_itself() -> None:
    # A digest that lists a paper twice: the reader merges the copies and reports it; grouping keeps them apart.
    for text in (SHORT[0], PYXAI, JVI[0]):
        assert joins([text, text]) == []


def test_a_first_sentence_naming_a_thing_the_paragraph_before_introduced_is_a_signal() -> None:
    model = load_model()
    before = [profile("A seller and a buyer trade through a mediator who knows both their types.", model)]
    assert features(before, profile("We study revenue-maximizing designs for the mediator.", model),
                    model.common)["definite_back"] == 1.0
    assert features(before, profile("We study revenue-maximizing designs for auctions.", model),
                    model.common)["definite_back"] == 0.0


class _Memo(dict):
    """A stand-in for the analysis cache: values by key, counting what was found."""

    found = 0

    def get(self, key, default=None):  # type: ignore[override]
        value = super().get(key, default)
        self.found += value is not None
        return value

    def put(self, key, value) -> None:
        self[key] = value


def test_kept_decisions_give_the_same_groups_and_spare_the_work_after_an_edit() -> None:
    paragraphs = [SHORT[0], ENDED, "(1) Retrieval helps on rare facts.", "(2) It hurts on common ones.", *JVI,
                  SHORT[3], PYXAI, EQGEN]
    memo = _Memo()
    assert group(paragraphs, memo=memo) == group(paragraphs)
    assert memo.found == 0 and len(memo) == len(paragraphs) - 1
    edited = [*paragraphs[:-1], EQGEN + " It is open source."]
    again = _Memo(memo)
    assert group(edited, memo=again) == group(edited)
    # Only the decision about the edited paragraph is worked out again.
    assert again.found == len(paragraphs) - 2


def test_a_kept_decision_that_does_not_decode_is_worked_out_again() -> None:
    paragraphs = [ENDED, "(2) It hurts on common ones.", SHORT[1]]
    memo = _Memo()
    group(paragraphs, memo=memo)
    for key in memo:
        memo[key] = ["yes", 3]  # hand-edited: wrong types
    assert group(paragraphs, memo=memo) == group(paragraphs)


def test_decisions_worked_out_on_forked_workers_give_the_same_groups(monkeypatch) -> None:
    from generator.read import grouping as module

    # Chunks of three: joins fall inside chunks and across their edges, and runs of three joined.
    monkeypatch.setattr(module, "_CHUNK", 3)
    paragraphs = [*OBJECTS, *SHORT[:3], *JVI, ENDED, "(1) Retrieval helps on rare facts.",
                  "(2) It hurts on common ones.", PYXAI, EQGEN] * 2
    alone = group(paragraphs)
    assert any(len(g) > 2 for g in alone[0]) and len(alone[0]) < len(paragraphs)
    assert group(paragraphs, workers=2) == alone
    memo = _Memo()
    assert group(paragraphs, memo=memo, workers=2) == alone
    # A warm memo is used as it is: nothing is forked, the groups are the same.
    monkeypatch.setattr(module, "_decided_forked", None)
    assert group(paragraphs, memo=_Memo(memo), workers=2) == alone


def test_a_memo_that_knows_the_digest_is_used_even_when_the_first_paragraph_was_edited(monkeypatch) -> None:
    from generator.read import grouping as module

    paragraphs = [*OBJECTS, *SHORT[:3], *JVI, ENDED, PYXAI, EQGEN] * 3
    memo = _Memo()
    alone = group(paragraphs, memo=memo)
    # Nothing is forked for an edit of the first or second paragraph: the memo knows the rest.
    monkeypatch.setattr(module, "_decided_forked", None)
    for edited in (0, 1):
        changed = [*paragraphs]
        changed[edited] += " It is open source."
        assert group(changed, memo=_Memo(memo), workers=2) == group(changed)
    assert group(paragraphs, memo=_Memo(memo), workers=2) == alone
