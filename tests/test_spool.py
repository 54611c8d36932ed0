"""The rendered files wait on disk, not in memory, until they are written (generator/spool.py)."""

from __future__ import annotations

import tracemalloc

from generator.enrich import enrich_digest
from generator.read import read_sources
from generator.render import render_pages
from generator.settings import load_settings
from generator.spool import SpooledFiles
from tests.conftest import DEFAULT_CORPUS


def test_spooled_files_give_back_each_files_bytes_as_a_dict_would(tmp_path) -> None:
    files = SpooledFiles(tmp_path)
    plain: dict[str, bytes] = {}
    for n in range(300):
        data = f"page {n} ".encode() * (n * 37 % 500) + "é ✓".encode()
        files[f"papers/p{n}.md"] = plain[f"papers/p{n}.md"] = data
    files["papers/p7.md"] = plain["papers/p7.md"] = b"written again"
    files["empty.md"] = plain["empty.md"] = b""
    assert files == plain and list(files) == list(plain) and len(files) == len(plain)
    assert "papers/p7.md" in files and "papers/p300.md" not in files
    assert list(tmp_path.iterdir()) == []  # the temporary file has no name in the folder
    files.close()
    assert len(files) == 0


def test_rendering_keeps_the_rendered_bytes_out_of_the_process_memory(project) -> None:
    # Issue 43: 100,000 papers render to about 2.5 GB of files, all rendered before any is written.
    settings = load_settings(project)
    papers, layout = enrich_digest(read_sources([DEFAULT_CORPUS], settings).papers, settings)
    render_pages(papers, layout, settings)  # the templates and caches are loaded once before measuring
    tracemalloc.start()
    try:
        files = render_pages(papers, layout, settings)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rendered = sum(len(files[path]) for path in files)
    assert rendered > 1_000_000
    assert held < rendered / 2, (held, rendered)
