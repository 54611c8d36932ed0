"""Related papers found in a process of their own (enrich/related_process.py): the lists found here."""

from __future__ import annotations

import pytest

from generator.enrich import related
from generator.enrich import vectors as paper_vectors
from generator.enrich.related_process import RelatedJob
from tests.test_related import Memo, _texts


def _vectors(count: int, seed: int) -> paper_vectors.Vectors:
    vectors = paper_vectors.vectorize(_texts(count, seed))
    assert vectors is not None
    return vectors


def test_the_process_finds_the_lists_found_here_and_leaves_the_same_memo() -> None:
    vectors = _vectors(600, 5)
    here_memo, there_memo = Memo(), Memo()
    here = related.nearest_kept(vectors, 15, memo=here_memo)
    with RelatedJob(vectors, 15, 2, there_memo, process=True) as job:
        assert job._process is not None  # a cold build: every row is computed there
        there = job.result()
        assert job.found == "process"
    assert there == here
    assert there_memo == here_memo
    # The memo then serves the next run here (nothing is cold), with the same lists.
    with RelatedJob(vectors, 15, 2, there_memo, process=True) as job:
        assert job._process is None
        assert job.result() == here
        assert job.found == "here"


def test_without_a_memo_the_lists_are_nearest_s() -> None:
    vectors = _vectors(300, 6)
    with RelatedJob(vectors, 5, 1, None, process=True) as job:
        assert job.result() == related.nearest(vectors.matrix, 5)
        assert job.found == "process"


@pytest.mark.parametrize("python", ["/bin/false", "/nonexistent/python"])
def test_a_process_that_fails_or_does_not_start_has_the_lists_found_here(python, monkeypatch) -> None:
    vectors = _vectors(400, 7)
    monkeypatch.setattr("generator.enrich.related_process.sys.executable", python)
    memo = Memo()
    with RelatedJob(vectors, 15, 2, memo, process=True) as job:
        assert job.result() == related.nearest_kept(vectors, 15, memo=Memo())
        assert job.found == "here"
    assert memo  # filled here, as nearest_kept fills it


def test_a_small_digest_is_not_sent_to_a_process() -> None:
    with RelatedJob(_vectors(200, 8), 15, 2, Memo()) as job:
        assert job._process is None
        assert len(job.result()) == 200


def test_arrays_cross_a_pipe_whole_and_a_cut_one_is_refused() -> None:
    import io

    import numpy as np

    from generator.enrich.related_process import read_array, write_array

    arrays = [np.arange(7, dtype=np.int32), np.linspace(0, 1, 12).reshape(3, 4), np.array([5, 3], dtype=np.int64)]
    stream = io.BytesIO()
    for array in arrays:
        write_array(stream, array)
    stream.seek(0)
    for array in arrays:
        got = read_array(stream)
        assert got.dtype == array.dtype and np.array_equal(got, array)
    cut = io.BytesIO(stream.getvalue()[:-5])
    read_array(cut), read_array(cut)
    with pytest.raises(EOFError):
        read_array(cut)
