"""Related papers: nearest neighbours by TF-IDF, top matches only, deterministic."""

from __future__ import annotations

import pytest

from generator.enrich import related
from generator.enrich import vectors as paper_vectors
from generator.enrich.related import related_papers

TEXTS = [
    "Offline reinforcement learning with conservative value estimates for robot control.",
    "Conservative offline reinforcement learning: value estimates and policy constraints for robots.",
    "Diffusion models generate images by denoising; we distil diffusion models into one step.",
    "One-step diffusion distillation for fast image generation with denoising models.",
    "Graph neural networks for molecule property prediction with message passing.",
    "Message passing graph networks predict molecular properties.",
]


def test_each_paper_gets_its_closest_papers_first_and_never_itself() -> None:
    result = related_papers(TEXTS, count=2)
    assert [r[0] for r in result] == [1, 0, 3, 2, 5, 4]
    assert all(i not in r for i, r in enumerate(result))


def test_unrelated_papers_are_not_listed() -> None:
    result = related_papers(["alpha beta gamma", "delta epsilon zeta", "alpha beta gamma delta"], count=5)
    assert 1 not in result[0] and 0 not in result[1]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_result_does_not_depend_on_the_number_of_threads(workers: int) -> None:
    vectors = paper_vectors.vectorize(TEXTS * 50)
    assert vectors is not None
    assert related.nearest(vectors.matrix, 3, workers=workers) == related.nearest(vectors.matrix, 3, workers=1)


def test_equally_similar_papers_are_listed_in_input_order() -> None:
    # Twelve copies of one abstract: exact ties, all within the matches kept past `count`.
    others = [f"graph networks for molecules of kind {word}" for word in "abcdefghijklmn"]
    texts = ["offline reinforcement learning with value estimates"] * 12 + others
    result = related_papers(texts, count=5)
    assert result[0] == [1, 2, 3, 4, 5]
    assert result[7] == [0, 1, 2, 3, 4]
    assert all(j >= 12 for j in result[12])


def test_tiny_digests_have_no_related_papers() -> None:
    assert related_papers(["only one"]) == [[]]
    assert related_papers(["", ""]) == [[], []]


class Memo(dict):
    """The neighbour memo as the pipeline's cache keeps it: entries by row key."""

    def put(self, key: str, value: object) -> None:
        self[key] = value


def _texts(count: int, seed: int) -> list[str]:
    import random

    rng = random.Random(seed)
    # Words the shipped weights know (their weight is the corpus's) and a few they do not (the digest's).
    known = sorted(paper_vectors.load_term_weights().frequencies)[2000:2400]
    words = [*known, *(f"coinedterm{i}" for i in range(20))]
    return [" ".join(rng.sample(words, 12)) for _ in range(count)]


def _step(texts: list[str], memo: Memo) -> tuple[list, list, Memo]:
    vectors = paper_vectors.vectorize(texts)
    assert vectors is not None
    result = related.nearest_kept(vectors, 15, memo=memo)
    # As Cache.save does: the next run sees the entries of this run's rows only.
    return result, related.nearest(vectors.matrix, 15), Memo({k: memo[k] for k in vectors.keys if k in memo})


def _runs(size: int, added: int, seed: int, edit: str) -> tuple[list[list[str]], list[str], list[str]]:
    """Return a digest's runs cold, unchanged, with one text edited and with texts added; and those texts."""
    base, extra = _texts(size, seed), _texts(added, seed + 1)
    edited = [*base]
    edited[3] += edit
    return [base, base, edited, edited + extra], edited, extra


def test_remembered_neighbours_give_what_computing_every_row_gives() -> None:
    runs, edited, extra = _runs(400, 60, 1, " reinforcement policy")
    runs += [
        [t for i, t in enumerate(edited + extra) if i % 23],  # 20 removed
        list(reversed(edited + extra)),  # every paper moved
        [*edited[:10], "neologismzz " + edited[10], "neologismzz " + edited[11], *edited[12:]],  # a word only they use
    ]
    memo = Memo()
    for texts in runs:
        remembered, computed, memo = _step(texts, memo)
        assert remembered == computed
    # Most of one paper's neighbours gone: its list cannot be completed from what is known.
    texts = runs[-1]
    gone = {j for j, _ in computed[0][:12]}
    remembered, computed, memo = _step([t for i, t in enumerate(texts) if i not in gone], memo)
    assert remembered == computed


def test_a_damaged_memo_entry_is_computed_again() -> None:
    texts = _texts(300, 3)
    memo = Memo()
    _, _, memo = _step(texts, memo)
    for n, key in enumerate(sorted(memo)[:40]):
        memo[key] = ["not", "a", "list"] if n % 2 else [0.5, "unknown-key", 0.9, "x"]
    remembered, computed, _ = _step(texts, memo)
    assert remembered == computed


def test_papers_with_one_text_get_keys_of_their_own() -> None:
    texts = [*_texts(60, 4), "alike paper text", "alike paper text"]
    vectors = paper_vectors.vectorize(texts)
    assert vectors is not None and len(set(vectors.keys)) == len(texts)
    memo = Memo()
    remembered, computed, memo = _step(texts, memo)
    assert remembered == computed and len(memo) == len(texts)


class CountsMemo:
    """An in-memory counts memo (as cache.ArrayFile keeps it between runs)."""

    def __init__(self) -> None:
        self.arrays = None

    def put(self, arrays) -> None:
        self.arrays = arrays


def _same_vectors(a, b) -> bool:
    return (
        a.keys == b.keys and a.matrix.shape == b.matrix.shape
        and all((getattr(a.matrix, n) == getattr(b.matrix, n)).all() for n in ("indptr", "indices", "data"))
    )


def test_counts_remembered_from_the_last_run_give_the_vectors_counting_every_text_gives() -> None:
    # The edit adds a word no other text uses.
    runs, edited, extra = _runs(300, 40, 5, " reinforcement coinedterm3 brandnewword")
    runs += [
        [t for i, t in enumerate(edited + extra) if i != 3],  # the only text with a word removed
        list(reversed(edited)),  # every text moved (and the added ones gone)
        [*edited[:5], "the of and", edited[6], edited[6], *edited[8:]],  # only stop words; a duplicate
        ["the of", "and a"],  # no usable word at all
        edited,  # back from nothing
    ]
    memo = CountsMemo()
    for texts in runs:
        remembered, counted = paper_vectors.vectorize(texts, memo), paper_vectors.vectorize(texts)
        assert (remembered is None) == (counted is None)
        assert remembered is None or _same_vectors(remembered, counted)


def test_damaged_remembered_counts_are_ignored() -> None:
    texts = _texts(200, 7)
    memo = CountsMemo()
    paper_vectors.vectorize(texts, memo)
    assert memo.arrays is not None
    good = dict(memo.arrays)
    for name, damage in [
        ("indices", lambda a: a + 10**6),
        ("indptr", lambda a: a[:-1]),
        ("vocabulary", lambda a: a[::-1]),
        ("data", lambda a: a.astype("float64")),
        ("hashes", None),
    ]:
        memo.arrays = {**good, name: damage(good[name])} if damage else {k: v for k, v in good.items() if k != name}
        assert _same_vectors(paper_vectors.vectorize(texts, memo), paper_vectors.vectorize(texts))


def test_only_new_or_edited_texts_are_tokenised_again(monkeypatch) -> None:
    texts = _texts(200, 8)
    memo = CountsMemo()
    paper_vectors.vectorize(texts, memo)
    counted: list[int] = []
    make = paper_vectors._counter

    def counter():
        vectorizer = make()
        fit = vectorizer.fit_transform
        vectorizer.fit_transform = lambda batch: counted.append(len(batch)) or fit(batch)  # type: ignore[method-assign]
        return vectorizer

    monkeypatch.setattr(paper_vectors, "_counter", counter)
    edited = [*texts[:5], texts[5] + " coinedterm7", *texts[6:], "one added text about policy"]
    assert _same_vectors(paper_vectors.vectorize(edited, memo), paper_vectors.vectorize(edited))
    assert counted == [2, len(edited)]  # the remembered run counts the two new texts; the plain one all


def test_a_paper_with_few_strong_matches_lists_its_closest_papers_marked_weak() -> None:
    neighbours = [
        [(1, 0.30), (2, 0.20), (3, 0.10), (4, 0.08), (5, 0.06), (6, 0.04)],  # five strong: no weak one
        [(0, 0.04), (2, 0.03), (3, 0.02), (4, 0.01)],  # none strong: the three closest, all weak
        [(0, 0.07), (1, 0.03), (3, 0.0)],  # one strong, one weak; no likeness at all is never listed
        [],
    ]
    assert related.closest_from(neighbours, count=5) == [
        ([1, 2, 3, 4, 5], 0), ([0, 2, 3], 3), ([0, 1], 1), ([], 0),
    ]
    # A digest that wants fewer related papers than MIN_RELATED gets no more than it asked for.
    assert related.closest_from(neighbours, count=1)[1] == ([0], 1)


def test_every_paper_of_the_default_digest_lists_related_papers(project) -> None:
    import json

    from tests.conftest import DEFAULT_CORPUS, render_digest

    records = json.loads(render_digest(project, [DEFAULT_CORPUS])["papers.json"])
    assert all(len(r["related"]) >= related.MIN_RELATED for r in records)
    # The pages that listed none before weak matches were shown (the ML-operators paper, ECA) list them marked weak.
    weak = [r for r in records if r["related_weak"] == len(r["related"])]
    assert weak and all(r["related_weak"] <= related.MIN_RELATED for r in weak)


def test_a_small_digest_keeps_every_word_of_every_paper_and_a_large_one_its_strongest() -> None:
    assert paper_vectors.strongest_count(57) > 1000
    assert paper_vectors.strongest_count(20_000) == paper_vectors.STRONGEST
    vectors = paper_vectors.vectorize(["graph neural networks for molecules and graph pooling", "image diffusion models"])
    assert vectors is not None
    terms = paper_vectors.strongest_terms(vectors, 3)
    assert [len(row) for row in terms] == [3, 3]
    words, weights, idfs = zip(*terms[0], strict=True)
    row = vectors.matrix.getrow(0)
    assert weights[0] == round(row.data.max(), 4)  # the heaviest first
    assert set(words) <= set(vectors.vocabulary)
    assert list(weights) == sorted(weights, reverse=True) and all(i > 1 for i in idfs)
