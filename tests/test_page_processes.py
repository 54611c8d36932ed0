"""Paper pages rendered in fresh processes (render/page_processes.py): the same pages, errors raised here."""

from __future__ import annotations

import io
import pickle

import pytest
from jinja2 import UndefinedError

from generator.render.markdown import make_environment
from generator.render.page_processes import PageProcesses

TEMPLATE = "# {{ title | md_text }}\n\n{{ text | md }}\n\n{{ site }} · {{ n }}\n"
COMMON = {"site": "A digest"}


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "page.md.j2").write_text(TEMPLATE, encoding="utf-8")
    return tmp_path


def _jobs(count: int, size: int) -> list[list[dict | None]]:
    # Every third page is one the memo keeps (None): it is not rendered, and the others keep their order.
    return [
        [None if n % 3 == 0 else {"title": f"Paper *{k}.{n}*", "text": f"An abstract with $x_{n}$ and <b>{k}</b>.",
                                  "n": n}
         for n in range(size)]
        for k in range(count)
    ]


def _here(folder):
    template = make_environment([folder]).get_template("page.md.j2")
    return lambda args: template.render(**COMMON, **args).encode("utf-8")


def _rendered(pool: PageProcesses, jobs: list) -> list[list[bytes]]:
    return [pages for _, pages in pool.pages(len(jobs), lambda k: jobs[k])]


def test_pages_rendered_by_the_processes_are_the_pages_rendered_here(folder) -> None:
    jobs = _jobs(7, 12)
    here = _here(folder)
    with PageProcesses(2, [str(folder)], "page.md.j2", COMMON, here) as pool:
        pids = [proc.pid for proc in pool._procs if proc is not None]
        rendered = _rendered(pool, jobs)
    assert len(pids) == 2
    assert rendered == [[here(args) for args in job if args is not None] for job in jobs]
    # Each process ends with its input: none is left running.
    assert all(proc is None for proc in pool._procs)


def test_a_process_that_dies_has_its_pages_rendered_here(folder) -> None:
    jobs = _jobs(6, 10)
    here = _here(folder)
    with PageProcesses(2, [str(folder)], "page.md.j2", COMMON, here) as pool:
        out = []
        for k, (_, pages) in enumerate(pool.pages(len(jobs), lambda k: jobs[k])):
            out.append(pages)
            if k == 0:
                proc = pool._procs[1]
                assert proc is not None
                proc.kill()
    assert out == [[here(args) for args in job if args is not None] for job in jobs]


def test_a_garbled_answer_has_its_pages_rendered_here(folder) -> None:
    # Two byte strings and an APPEND: the unpickler raises AttributeError, not an UnpicklingError.
    garbled = b"\x80\x02C\x01aC\x01ba."
    with pytest.raises(AttributeError):
        pickle.loads(garbled)
    jobs = _jobs(5, 6)
    here = _here(folder)
    with PageProcesses(2, [str(folder)], "page.md.j2", COMMON, here) as pool:
        proc = pool._procs[1]
        assert proc is not None and proc.stdout is not None
        real = proc.stdout
        proc.stdout = io.BufferedReader(io.BytesIO(garbled))  # type: ignore[assignment]
        rendered = _rendered(pool, jobs)
    real.close()
    assert rendered == [[here(args) for args in job if args is not None] for job in jobs]


def test_a_template_error_is_raised_in_the_generator_as_in_one_process(folder) -> None:
    jobs = _jobs(4, 5)
    job = jobs[2]
    job[1] = {"title": "No number", "text": "An abstract."}  # StrictUndefined: `n` is missing
    with PageProcesses(2, [str(folder)], "page.md.j2", COMMON, _here(folder)) as pool, \
            pytest.raises(UndefinedError, match="'n'"):
        _rendered(pool, jobs)


def test_an_error_preparing_a_job_is_raised_and_no_process_is_left(folder) -> None:
    def prepare(k: int) -> list:
        if k == 3:
            raise KeyError("a paper's entry")
        return _jobs(1, 4)[0]

    with PageProcesses(2, [str(folder)], "page.md.j2", COMMON, _here(folder)) as pool, \
            pytest.raises(KeyError, match="entry"):
        list(pool.pages(8, prepare))
    assert all(proc is None for proc in pool._procs)


def test_pages_are_rendered_here_when_no_process_starts(folder, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr("generator.render.page_processes.sys.executable", str(tmp_path / "no-python"))
    jobs = _jobs(3, 4)
    here = _here(folder)
    with PageProcesses(2, [str(folder)], "page.md.j2", COMMON, here) as pool:
        assert pool._procs == [None, None]
        rendered = _rendered(pool, jobs)
    assert rendered == [[here(args) for args in job if args is not None] for job in jobs]
