"""The per-abstract cache is used only when it checks out; anything else is ignored and rebuilt, never an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cache import SHARDS, Cache, entry_key, shard_of, shard_path


def saved(tmp_path: Path, entries: dict) -> Path:
    path = tmp_path / ".paper-digest" / "analysis"
    cache = Cache(path, "fp-1")
    for key, value in entries.items():
        cache.put(key, value)
    cache.save()
    return path


def test_values_come_back_exactly_under_the_same_fingerprint(tmp_path: Path) -> None:
    value = {"title": "GRACE: A Test", "p": 0.1 + 0.2, "tags": [["Offline RL", 0.8125]]}
    path = saved(tmp_path, {"k1": value})
    cache = Cache(path, "fp-1")
    assert cache.get("k1") == value and cache.reason == "" and cache.loaded == 1
    assert cache.get("k2") is None


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda text: text[: len(text) // 2], "unreadable"),
        (lambda text: text.replace("GRACE", "GRACE!"), "checksum"),
        (lambda text: text.replace('"version": 4', '"version": 99'), "version"),
        (lambda text: "[1, 2, 3]", "version"),
        (lambda text: "\udcff", "unreadable"),
    ],
    ids=["truncated", "hand-edited", "other version", "not an object", "not UTF-8"],
)
def test_a_damaged_cache_is_ignored(tmp_path: Path, damage, reason: str) -> None:
    others = {f"other-{n}": n for n in range(40)}
    path = saved(tmp_path, {"k1": {"title": "GRACE: A Test"}, **others})
    shard = shard_path(path, shard_of("k1"))
    broken = damage(shard.read_text(encoding="utf-8"))
    shard.write_bytes(broken.encode("utf-8", "surrogateescape"))
    cache = Cache(path, "fp-1")
    assert cache.get("k1") is None and reason in cache.reason and shard.name in cache.reason
    # Only the damaged shard is distrusted: entries of the others come back.
    intact = [key for key in others if shard_of(key) != shard_of("k1")]
    assert intact and all(cache.get(key) == others[key] for key in intact)
    assert all(cache.get(key) is None for key in others if shard_of(key) == shard_of("k1"))


def test_a_cache_of_other_code_models_or_settings_is_ignored(tmp_path: Path) -> None:
    path = saved(tmp_path, {"k1": {"title": "x"}})
    assert Cache(path, "fp-2").get("k1") is None


def _stored(path: Path) -> dict:
    entries: dict = {}
    for shard in range(SHARDS):
        if shard_path(path, shard).exists():
            entries.update(json.loads(shard_path(path, shard).read_text(encoding="utf-8").split("\n", 1)[1]))
    return entries


def test_saving_keeps_only_what_this_run_used(tmp_path: Path) -> None:
    path = saved(tmp_path, {"old": 1, "kept": 2})
    cache = Cache(path, "fp-1")
    cache.get("kept")
    cache.put("new", 3)
    cache.save()
    assert _stored(path) == {"kept": 2, "new": 3}


def test_saving_rewrites_only_the_shards_whose_entries_changed(tmp_path: Path) -> None:
    entries = {f"paper-{n}": {"title": f"Title {n}"} for n in range(3000)}
    path = saved(tmp_path, entries)
    before = {p.name: p.stat().st_mtime_ns for p in path.iterdir()}
    assert len(before) == SHARDS
    cache = Cache(path, "fp-1")
    for key in entries:
        if key != "paper-7":
            cache.get(key)
    cache.put("paper-7-edited", {"title": "Title 7, edited"})
    cache.save()
    after = {p.name: p.stat().st_mtime_ns for p in path.iterdir()}
    rewritten = {name for name in after if after[name] != before[name]}
    assert rewritten == {shard_path(path, shard_of(k)).name for k in ("paper-7", "paper-7-edited")}
    assert _stored(path) == {**{k: v for k, v in entries.items() if k != "paper-7"},
                             "paper-7-edited": {"title": "Title 7, edited"}}


def test_keys_depend_on_every_field_and_its_boundaries() -> None:
    assert entry_key("ab", "c") != entry_key("a", "bc")
    assert entry_key("a", ["x", "y"]) != entry_key("a", ["xy"])
    assert entry_key("a", "") == entry_key("a", "")


def _generated(project: Path) -> dict[str, bytes]:
    docs = project / "site_src"
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*")) if p.is_file()}


@pytest.mark.slow
@pytest.mark.parametrize("size", [0, 5000], ids=["default corpus", "5,000 papers"])
def test_the_site_is_byte_identical_with_and_without_the_cache(tmp_path: Path, size: int) -> None:
    import shutil

    from generator.pipeline import CACHE, generate
    from generator.settings import load_settings
    from tests.conftest import DEFAULT_CORPUS, ROOT, copy_project

    if size:
        corpus = ROOT.parent / "shared" / "corpora" / "iclr2025.jsonl"
        if not corpus.exists():
            pytest.skip("the shared corpora are not beside the project")
        source = tmp_path / "digest.jsonl"
        with corpus.open(encoding="utf-8") as lines:
            rows = [json.loads(next(lines)) for _ in range(size)]
        source.write_text("".join(json.dumps({"abstract": r["abstract"]}) + "\n" for r in rows), encoding="utf-8")
    else:
        source = DEFAULT_CORPUS
    cold = copy_project(tmp_path / "cold")
    legacy = cold / ".paper-digest" / "analysis-cache.json"  # the single file of before the shards
    legacy.parent.mkdir(parents=True)
    legacy.write_text('{"version": 2}\n{}', encoding="utf-8")
    generate([source], load_settings(cold))
    assert not legacy.exists()
    cache_folder = cold / CACHE
    assert cache_folder.is_dir()
    warm = copy_project(tmp_path / "warm")
    shutil.copytree(cache_folder, warm / CACHE)
    report = generate([source], load_settings(warm))
    assert _generated(warm) == _generated(cold)
    # Every paper came from the cache: the run after an edit analyses only what changed.
    assert report.papers and _stored(warm / CACHE)


def _fresh_run(project: Path, before, after) -> Path:
    """Generate `before(project)` then `after(project)` with nothing kept between the runs but the lock file.

    (The lock is the digest's history, as committed: an edited paper keeps the id the first run gave it.)
    """
    import shutil

    from generator.pipeline import generate
    from generator.settings import load_settings

    generate([before(project)], load_settings(project))
    shutil.rmtree(project / ".paper-digest")
    for path in sorted((project / "site_src").iterdir()):
        if path.name != "assets":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    generate([after(project)], load_settings(project))
    return project


@pytest.mark.slow
@pytest.mark.parametrize("copies", [1, 18], ids=["default corpus", "1,026 papers (forked workers)"])
def test_pages_taken_back_after_an_edit_give_the_same_site_as_a_fresh_run(tmp_path: Path, copies: int) -> None:
    from generator.pipeline import NEIGHBOURS, PAGES, TERM_COUNTS, generate
    from generator.read import read_sources
    from generator.settings import load_settings
    from tests.conftest import DEFAULT_CORPUS, copy_project

    base = [p.abstract for p in read_sources([DEFAULT_CORPUS], load_settings(tmp_path)).papers]
    texts = [t if n == 0 else f"{t} Variant {n}." for n in range(copies) for t in base]

    def write(project: Path, abstracts: list[str]) -> Path:
        source = project / "in" / "digest.txt"
        source.parent.mkdir(exist_ok=True)
        source.write_text("Store 2026 Papers\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
        return source

    edited = [*texts]
    edited[3] = edited[3] + " We also release the code."
    incremental = copy_project(tmp_path / "incremental")
    generate([write(incremental, texts)], load_settings(incremental))
    assert all((incremental / memo).exists() for memo in (PAGES, NEIGHBOURS, TERM_COUNTS))
    report = generate([write(incremental, edited)], load_settings(incremental))
    fresh = _fresh_run(copy_project(tmp_path / "fresh"), lambda p: write(p, texts), lambda p: write(p, edited))
    assert _generated(incremental) == _generated(fresh)
    # Most paper pages were taken back instead of rendered; only the edited one and its neighbours changed.
    assert report.render.reused > 0.7 * len(texts)
    assert len([p for p in report.render.written if p.startswith("papers/")]) < 0.2 * len(texts)
    # So were listing pages (tags, collections) that do not list the edited paper: more pages were
    # taken back than there are paper pages not written.
    paper_pages = [p for p in _generated(incremental) if p.startswith("papers/") and p.endswith(".md")]
    written_pages = [p for p in report.render.written if p.startswith("papers/")]
    assert report.render.reused > len(paper_pages) - len(written_pages)

    # A page edited by hand is rendered again, not trusted; so is every page under a damaged store.
    page = incremental / "site_src" / report.papers[0].path
    original = page.read_bytes()
    page.write_bytes(original.replace(b"Paper id", b"Paper ID"))
    (incremental / "site_src" / ".paper-digest-manifest.json").touch()  # the run is not skipped as unchanged
    generate([write(incremental, texts)], load_settings(incremental))
    generate([write(incremental, edited)], load_settings(incremental))
    assert _generated(incremental) == _generated(fresh)
    (incremental / PAGES).write_text('{"version": 1, "fingerprint": 3, "pages": [', encoding="utf-8")
    generate([write(incremental, texts)], load_settings(incremental))
    generate([write(incremental, edited)], load_settings(incremental))
    assert _generated(incremental) == _generated(fresh)
    # A truncated memo of neighbours is ignored: the related lists and the map come out the same.
    for shard in (incremental / NEIGHBOURS).iterdir():
        memo = shard.read_bytes()
        shard.write_bytes(memo[: len(memo) // 2])
    generate([write(incremental, texts)], load_settings(incremental))
    generate([write(incremental, edited)], load_settings(incremental))
    assert _generated(incremental) == _generated(fresh)
    # So are remembered word counts that are truncated.
    counts = (incremental / TERM_COUNTS).read_bytes()
    (incremental / TERM_COUNTS).write_bytes(counts[: len(counts) // 2])
    generate([write(incremental, texts)], load_settings(incremental))
    generate([write(incremental, edited)], load_settings(incremental))
    assert _generated(incremental) == _generated(fresh)


def test_rows_of_unchanged_papers_are_taken_from_the_files_the_last_run_wrote(tmp_path: Path, monkeypatch) -> None:
    import generator.render.digest_exports as render
    from generator.pipeline import PAGES, generate
    from generator.read import read_sources
    from generator.settings import load_settings
    from tests.conftest import DEFAULT_CORPUS, copy_project

    texts = [p.abstract for p in read_sources([DEFAULT_CORPUS], load_settings(tmp_path)).papers]
    edited = [*texts]
    edited[5] = edited[5] + " We also release the code."

    def write(project: Path, abstracts: list[str]) -> Path:
        source = project / "in" / "digest.txt"
        source.parent.mkdir(exist_ok=True)
        source.write_text("Rows 2026 Papers\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
        return source

    fresh = _fresh_run(copy_project(tmp_path / "fresh"), lambda p: write(p, texts), lambda p: write(p, edited))
    project = copy_project(tmp_path / "project")
    generate([write(project, texts)], load_settings(project))
    rendered: list[str] = []
    row = render.csv_row
    monkeypatch.setattr(render, "csv_row", lambda paper: rendered.append(paper.id) or row(paper))
    report = generate([write(project, edited)], load_settings(project))
    assert _generated(project) == _generated(fresh)
    # Only the papers whose record changed had their rows rendered: the edited one, and those
    # whose related list or tags moved with it.
    assert report.papers[5].id in rendered and len(rendered) < len(texts) // 2

    # A data file edited by hand (or a damaged store) is never trusted: its rows are rendered again.
    csv_file = project / "site_src" / "papers.csv"
    csv_file.write_bytes(csv_file.read_bytes().replace(b"Rows 2026 Papers", b"Rows 2026 Paperz"))
    (project / "site_src" / ".paper-digest-manifest.json").touch()  # the run is not skipped as unchanged
    rendered.clear()
    generate([write(project, edited)], load_settings(project))
    assert _generated(project) == _generated(fresh) and len(rendered) == len(texts)
    (project / PAGES).write_text('{"version": 2, "fingerprint": 3, "rows": {"papers.csv": [1, ', encoding="utf-8")
    generate([write(project, texts)], load_settings(project))
    generate([write(project, edited)], load_settings(project))
    assert _generated(project) == _generated(fresh)


def test_a_path_both_rendered_and_kept_is_an_error_not_history(tmp_path: Path) -> None:
    from generator.errors import DigestError
    from generator.render.sync import write_files

    (tmp_path / "tags").mkdir()
    with pytest.raises(DigestError, match="two generated files have this path"):
        write_files({"tags/index.md": b"x"}, tmp_path, kept={"tags/index.md"})


def test_another_library_version_makes_a_fresh_analysis(monkeypatch, tmp_path: Path) -> None:
    import generator.pipeline as pipeline
    from generator.settings import Settings

    settings = Settings(project_dir=tmp_path)
    before = pipeline.analysis_fingerprint(settings)
    real = pipeline.version
    monkeypatch.setattr(pipeline, "version", lambda name: "0.0.1" if name == "python-slugify" else real(name))
    assert pipeline.analysis_fingerprint(settings) != before


def test_arrays_come_back_only_from_a_file_that_checks_out(tmp_path: Path) -> None:
    import numpy as np

    from generator.cache import ArrayFile

    path = tmp_path / ".paper-digest" / "counts.npz"
    arrays = {"hashes": np.array([b"a" * 16, b"b" * 16], dtype="S16"), "data": np.arange(5, dtype=np.int32)}
    store = ArrayFile(path, "fp-1")
    assert store.arrays is None
    store.put(arrays)
    store.save()
    again = ArrayFile(path, "fp-1")
    assert again.reason == "" and again.arrays is not None
    assert all(np.array_equal(again.arrays[k], arrays[k]) for k in arrays) and again.arrays.keys() == arrays.keys()
    # Saving what the file holds writes nothing.
    stamp = path.stat().st_mtime_ns
    again.put({k: v.copy() for k, v in arrays.items()})
    again.save()
    assert path.stat().st_mtime_ns == stamp
    assert ArrayFile(path, "fp-2").arrays is None
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert ArrayFile(path, "fp-1").arrays is None and "unreadable" in ArrayFile(path, "fp-1").reason
    # Arrays changed by hand (the header kept) fail the checksum; an object array is never unpickled.
    path.write_bytes(whole)
    with np.load(path, allow_pickle=False) as data:
        header = data["_header"]
    for changed in (np.arange(1, 6, dtype=np.int32), np.array([{}], dtype=object)):
        np.savez(path, _header=header, hashes=arrays["hashes"], data=changed)
        assert ArrayFile(path, "fp-1").arrays is None


def test_the_caches_are_let_go_before_the_pages_render(project: Path, monkeypatch) -> None:
    # Issue 43: at 100,000 papers the analysis, neighbour and word-count caches hold about a gigabyte,
    # which rendering never reads; kept alive, they add to the generator's peak.
    import weakref

    from generator import pipeline
    from tests.conftest import DEFAULT_CORPUS

    alive: weakref.WeakSet = weakref.WeakSet()
    for name, kind in (("Cache", pipeline.Cache), ("ArrayFile", pipeline.ArrayFile)):
        def made(*args, kind=kind, **kwargs):
            made_one = kind(*args, **kwargs)
            alive.add(made_one)
            return made_one
        monkeypatch.setattr(pipeline, name, made)
    held_while_rendering: list[int] = []
    render_site = pipeline.render_site

    def rendering(*args, **kwargs):
        held_while_rendering.append(len(alive))
        return render_site(*args, **kwargs)

    monkeypatch.setattr(pipeline, "render_site", rendering)
    report = pipeline.generate([DEFAULT_CORPUS], pipeline.load_project(project))
    assert held_while_rendering == [0]
    assert (project / pipeline.CACHE).is_dir() and (project / pipeline.TERM_COUNTS).is_file()  # saved first
    assert report.paper_count > 0
