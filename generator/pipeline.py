"""Run the stages in order: read -> enrich -> render (-> build).

A run whose inputs (source bytes, settings, templates, vocabularies, the
generator's own code) and generated files are exactly as the last run left
them is not repeated: its report is read back from `.paper-digest/generate.json`.
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .cache import ArrayFile, Cache
from .enrich import enrich_digest
from .enrich.overrides import load_overrides
from .enrich.tags import load_topics, renamed_topics
from .errors import DigestError, SettingsError
from .identity import (
    LOCK_FILE,
    Identified,
    Lock,
    adopt,
    dump_lock,
    identify,
    parse_lock,
    publish,
    read_rows,
    redirects,
    stale_reasons,
    tag_redirects,
)
from .languages import ENGLISH, dominant_language, interface_language
from .llm.apply import Inferred
from .llm.store import INFERRED_FILE, read_results
from .model import PATHS, Paper, Problem, Progress, no_progress
from .project import SiteIdentity, template_dirs, write_engine_config
from .read import ReadResult, expand_sources, no_abstracts, paper_id, read_sources
from .read.corrections import correct_paragraphs
from .read.paragraphs import PARAGRAPH_BREAK
from .render import PageStore, RenderResult, generated_fingerprint, render_site, site_title
from .render.digest_exports import read_export, written_export
from .render.groups import tag_pages
from .settings import SETTINGS_FILE, Settings, load_settings
from .stamps import files_digest, read_stamp, tree_files, write_atomically, write_stamp

#: The last run's inputs key, generated files' fingerprint and report.
STAMP = ".paper-digest/generate.json"
#: Each abstract's analysis from the last run: a folder of shards (see cache.py).
CACHE = ".paper-digest/analysis-cache"
#: Each paper's nearest papers from the last run, by the key of its vector (see enrich/related.py).
NEIGHBOURS = ".paper-digest/neighbours"
#: Each text's word counts from the last run, for related papers (see enrich/vectors.py: count_terms).
TERM_COUNTS = ".paper-digest/term-counts.npz"
#: The single-file caches of before the shards: removed when found.
_OLD_CACHES = (".paper-digest/analysis-cache.json", ".paper-digest/neighbours.json")
#: The paper and listing pages the last run wrote, by key (see render/sync.py).
PAGES = ".paper-digest/pages.json"
#: Bump when the stamp's layout changes.
_STAMP_VERSION = 3


@dataclass
class GenerateReport:
    """Everything the CLI summarises after generating."""

    papers: list[Paper]
    problems: list[Problem]
    files: list[str]
    render: RenderResult
    timings: dict[str, float] = field(default_factory=dict)
    #: True when nothing changed since the last run and its report was reused
    #: (then `papers` is empty and the counts come from that run).
    reused: bool = False
    counts: dict[str, int] = field(default_factory=dict)
    #: The search engine the pages were written for: what the build stage must use.
    engine: str = "material"
    #: Papers per language, when `papers` is let go (`without_papers`) or the report reused.
    languages: dict[str, int] | None = None

    @property
    def paper_count(self) -> int:
        return self.counts["papers"] if "papers" in self.counts else len(self.papers)

    @property
    def analysed_count(self) -> int:
        """Return how many abstracts this run analysed (not found in the analysis cache)."""
        return 0 if self.reused else self.counts.get("analysed", len(self.papers))

    @property
    def tag_count(self) -> int:
        if "tags" in self.counts:
            return self.counts["tags"]
        return len({t.slug for p in self.papers for t in p.tags})

    @property
    def language_counts(self) -> dict[str, int]:
        """Return how many papers are in each language."""
        if self.languages is not None:
            return self.languages
        return dict(sorted(Counter(paper.lang for paper in self.papers).items()))

    def without_papers(self) -> GenerateReport:
        """Return the report with its papers let go and what the summary says of them kept.

        `build` waits for the site engine and the search index holding only this: the papers
        (about a gigabyte at 100,000) are not read again.
        """
        counts = {**self.counts, "papers": self.paper_count, "tags": self.tag_count, "analysed": self.analysed_count}
        return replace(self, papers=[], counts=counts, languages=self.language_counts)


def load_project(project_dir: Path, site: bool = True, **overrides: object) -> Settings:
    """Load and check every setting, the topic vocabulary and the overrides file, before any source is read.

    With `site`, a templates folder the settings name must be there too (every command but
    `check` renders pages; without the setting, the project's templates/ is optional and the
    package's defaults fill in). Any problem raises a DigestError naming its file.
    """
    settings = load_settings(project_dir, **overrides)
    settings_file = settings.project_dir / SETTINGS_FILE
    named_templates = site and settings.templates_dir != Settings.templates_dir
    for name in ("topics_file", *(("templates_dir",) if named_templates else ())):
        value = getattr(settings, name)
        path = settings.resolve(value) if value else None
        if path is not None and not (path.is_dir() if name == "templates_dir" else path.is_file()):
            where = settings_file if settings_file.exists() else None
            raise SettingsError(name, f"no such {'folder' if name == 'templates_dir' else 'file'}: {path}", where)
    load_topics(settings.resolve(settings.topics_file) if settings.topics_file else None)
    load_overrides(settings.resolve(settings.overrides_file) if settings.overrides_file else None)
    return settings


def analysis_fingerprint(settings: Settings) -> str:
    """Return a hash of what one abstract's analysis depends on: the code, models, vocabularies and settings.

    The project folder is left out, so a cache copied with its project stays valid.
    """
    package = Path(__file__).resolve().parent
    # Subpackages (read/, enrich/, render/, build/) count too: a change to them changes the output.
    own = sorted([*package.rglob("*.py"), *(package / "data").glob("*")])
    extra = [settings.resolve(name) for name in (settings.topics_file, settings.overrides_file) if name]
    # Paths count relative to the package and the project folder: a cache restored into another
    # checkout (CI's fresh clone) or a copied project stays valid.
    extras = files_digest(extra, root=settings.project_dir, content=True)
    # The site engine reads the pages; it changes nothing the generator writes.
    # Nor does the inference endpoint: a build reads only the results file (an input, see inputs_key).
    kept = {k: str(v) for k, v in asdict(settings).items()
            if k not in ("project_dir", "site_engine") and not k.startswith("llm_")}
    settings_text = json.dumps(kept, sort_keys=True)
    return files_digest(own, root=package.parent, content=True, extra=f"{settings_text} {_libraries()} {extras}")


#: The libraries whose results reach the output (models, slugs, templates, text): another version of
#: any of them, or another Python, and nothing cached from before is trusted.
_LIBRARIES = (
    "scikit-learn", "numpy", "scipy", "sparse-dot-topn", "Jinja2", "MarkupSafe", "python-slugify", "text-unidecode",
    "pylatexenc", "bibtexparser", "PyYAML", "py3langid",
)


def _libraries() -> str:
    found = []
    for name in _LIBRARIES:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} -")
    return f"python {sys.version.split()[0]}; " + "; ".join(found)


def inputs_key(files: list[Path], settings: Settings, fingerprint: str) -> str:
    """Return a hash of everything a run's output depends on: `fingerprint`, the templates and the sources."""
    pages = [file for folder in template_dirs(settings) for file in tree_files(folder)]
    # Paths inside the project count relative to it: the page memo of a cache restored into another
    # checkout (CI's fresh clone) stays valid.
    return files_digest([*pages, *files], root=settings.project_dir, content=True, extra=fingerprint)


def _reused_report(stamp: dict) -> GenerateReport:
    problems = [Problem(**p) for p in stamp["problems"]]
    render = RenderResult(unchanged=stamp["counts"]["generated"])
    return GenerateReport(
        [], problems, stamp["files"], render, reused=True, counts=stamp["counts"], engine=stamp["engine"],
        languages=stamp.get("languages", {}),
    )


def sources_or_default(sources: Iterable[str | Path], settings: Settings) -> list[Path]:
    """Return the named sources, or the project's default corpus."""
    chosen = [Path(s) for s in sources]
    return chosen or [settings.resolve(s) for s in settings.default_sources]


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Run the block without Python's cyclic garbage collector (reference counting still frees memory).

    A run holds a large heap of long-lived records (20,000 papers: over a GB)
    while it allocates millions of small objects, and each of the collector's
    full passes walks that whole heap: one edited abstract of 20,000 took 20.9 s
    to generate with it and 17.9 s without, at the same peak memory. The
    pipeline's records hold no reference cycles worth collecting.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def return_freed_memory() -> None:
    """Hand the memory the process freed back to the system, where the C library can (glibc); else nothing.

    Python frees a rendered page's bytes to the C library, which keeps them for
    later use: the generator's process would hold the site's rendered text
    (100,000 papers: over 2 GB) while it waits for MkDocs and Pagefind.
    """
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    gc.collect()
    trim(0)


def load_lock(settings: Settings) -> tuple[Lock, str]:
    """Return the project's lock and its text ("" when there is none).

    A digest without a lock adopts the ids and addresses its last run published
    (the docs dir's papers.json or papers.json.gz, else the built site's), so that upgrading, or
    starting the lock, moves no page.
    """
    path = settings.resolve(LOCK_FILE)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        for folder in (settings.docs_path, settings.site_path):
            published = written_export(folder, PATHS.papers_json)
            try:
                if published is not None:
                    return adopt(read_rows(read_export(published)), paper_id), ""
            except (OSError, EOFError, UnicodeDecodeError):
                continue
        return Lock(), ""
    except (OSError, UnicodeDecodeError) as exc:
        raise DigestError(f"{path}: cannot read the lock file: {exc}") from exc
    return parse_lock(text, str(path)), text


def identify_papers(read: ReadResult, settings: Settings, lock: Lock, memo: Cache | None = None) -> Identified:
    """Give the papers read their stable ids, with the overrides file's paragraph corrections applied.

    Corrections name papers by stable id: the papers are identified as read, corrected, and the
    corrected ones identified again. The result's `moved` holds the ids joined into other papers;
    its problems report the edits kept, the corrections made and the corrections naming no paper.
    """
    overrides = load_overrides(settings.resolve(settings.overrides_file) if settings.overrides_file else None)
    # Said of the file as the project names it, as the sources are.
    overrides = replace(overrides, file=settings.overrides_file)
    identified = identify(read.papers, lock, memo)
    known = {paper.id for paper in identified.papers}
    if overrides.join or overrides.split:
        corrected, moved, problems = correct_paragraphs(
            read.papers, [p.id for p in identified.papers], dict(read.parts), overrides, paper_id
        )
        identified = identify(corrected, lock, memo)
        identified.moved = moved
        identified.problems.extend(problems)
    identified.problems.extend(overrides.unknown(known | {paper.id for paper in identified.papers}))
    return identified


def published_slugs(lock: Lock) -> dict[str, str]:
    """Return the slug of each paper's current address in the lock (papers never published have none)."""
    return {entry.id: entry.urls[-1].split("/")[-2] for entry in lock.entries
            if entry.urls and entry.urls[-1].count("/") == 2}


def paragraph_owners(papers: list[Paper]) -> dict[str, str]:
    """Return the fingerprint of each paragraph of a many-paragraph abstract, with its paper's id.

    A paper that was published alone and is now a paragraph of another (joined) leads to that one.
    """
    return {
        paper_id(piece): paper.id
        for paper in papers if PARAGRAPH_BREAK in paper.abstract
        for piece in paper.abstract.split(PARAGRAPH_BREAK)
    }


def site_language(settings: Settings, papers: list[Paper]) -> str:
    """Return the interface language the site is set to: the setting, else the digest's own ("" for English).

    English is Material's default: a digest of English abstracts writes no `theme.language`, so its
    configuration stays as it was, and a language the project's mkdocs.yml names is kept.
    """
    if settings.site_language:
        return settings.site_language
    language = interface_language(dominant_language([paper.lang for paper in papers]))
    return "" if language == ENGLISH else language


def _lock_key(key: str, lock_text: str) -> str:
    """Return a run's inputs key with the lock file's text: a lock edited by hand is a change."""
    return hashlib.blake2b(f"{key} {lock_text}".encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def generate(
    sources: Iterable[str | Path], settings: Settings, progress: Progress = no_progress,
    enriched: Callable[[list[Paper], str], None] | None = None, locked: bool = False,
) -> GenerateReport:
    """Read the sources, enrich the papers and write the Markdown site.

    `enriched` is called with the enriched papers and the search engine before
    the pages render (the build starts its search index then: build.EarlySearch).
    With `locked`, a lock file that this run would change is an error (CI), raised before any page is written.
    """
    with cyclic_gc_paused():
        return _generate(sources, settings, progress, enriched, locked)


def _generate(
    sources: Iterable[str | Path], settings: Settings, progress: Progress,
    enriched: Callable[[list[Paper], str], None] | None, locked: bool = False,
) -> GenerateReport:
    timings: dict[str, float] = {}
    start = time.perf_counter()
    progress("Reading sources", 0, 1)
    paths = sources_or_default(sources, settings)
    stamp_path = settings.resolve(STAMP)
    # Hashed once (the models are megabytes): the run stamp and the cache both depend on it.
    fingerprint = analysis_fingerprint(settings)
    # The model's stored results are an input like the sources: a run after `infer` is not skipped.
    results_path = settings.resolve(INFERRED_FILE)
    sources_key = inputs_key([*expand_sources(paths), results_path], settings, fingerprint)
    lock, lock_text = load_lock(settings)
    key = _lock_key(sources_key, lock_text)
    stamp = read_stamp(stamp_path)
    if stamp.get("version") != _STAMP_VERSION:
        stamp = {}
    if stamp.get("inputs") == key and stamp.get("generated") == generated_fingerprint(settings.docs_path):
        progress("Reading sources", 1, 1)
        # The theme (the package's and the project's overrides) is laid again all the same: an edited
        # override or an upgraded package changes the site with the same sources.
        write_engine_config(settings, SiteIdentity(**stamp["identity"]))
        return _reused_report(stamp)
    stamp_path.unlink(missing_ok=True)
    cache = Cache(settings.resolve(CACHE), fingerprint)
    read = read_sources(paths, settings, cache)
    if not read.papers:
        raise DigestError(no_abstracts(read))
    identified = identify_papers(read, settings, lock, cache)
    read.problems.extend(identified.problems)
    # As `check` decides: a correction naming a paper that is gone counts as much as a skipped record.
    issues = [p for p in read.problems if p.level != "info"] if settings.strict else []
    if issues:
        raise DigestError("strict mode: problems in the input:\n" + "\n".join(f"  {p}" for p in issues))
    timings["read"] = time.perf_counter() - start
    start = time.perf_counter()
    progress("Reading sources", 1, 1)
    neighbours = Cache(settings.resolve(NEIGHBOURS), fingerprint)
    counts = ArrayFile(settings.resolve(TERM_COUNTS), fingerprint)
    # The map's layout is drawn in another process (large digests) while the pages render.
    known = cache.added
    inferred = Inferred(read_results(results_path), published_slugs(identified.lock))
    papers, layout = enrich_digest(
        identified.papers, settings, progress, cache, neighbours, draw_map=True, counts=counts, inferred=inferred
    )
    analysed = cache.added - known
    engine = settings.search_engine(len(papers))
    try:
        live_tags = tag_pages(papers, settings.listing_size)
        new_lock = publish(identified.lock, papers, identified.moved, paragraph_owners(papers), live_tags)
        new_lock_text = dump_lock(new_lock)
        if locked and new_lock_text != lock_text:
            reasons = "\n".join(f"  {reason}" for reason in stale_reasons(lock, new_lock))
            raise DigestError(
                f"{settings.resolve(LOCK_FILE)} is out of date (--locked):\n{reasons}\n"
                "Run `paper-digest build` without --locked and commit the lock file it writes."
            )
        cache.save()
        neighbours.save()
        counts.save()
        # Saved, the caches are let go before the pages render: they hold every paper's analysis,
        # neighbours and word counts (100,000 papers: about a gigabyte), which rendering never reads.
        del cache, neighbours, counts
        for old in _OLD_CACHES:
            settings.resolve(old).unlink(missing_ok=True)
        timings["enrich"] = time.perf_counter() - start
        if enriched is not None:
            enriched(papers, engine)
        start = time.perf_counter()
        # The templates count as well as the code: a page is reused only if both are the same.
        pages = PageStore(settings.resolve(PAGES), settings.docs_path, inputs_key([], settings, fingerprint))
        # A topic renamed by the user leads to its new name's page before a vocabulary's rename does.
        overrides = load_overrides(settings.resolve(settings.overrides_file) if settings.overrides_file else None)
        renamed = renamed_topics() | overrides.rename
        moved = redirects(new_lock, papers) | tag_redirects(new_lock.tags, live_tags, renamed)
        rendered = render_site(papers, layout, settings, progress, pages, moved)
    finally:
        layout.close()
    identity = SiteIdentity(
        site_title(settings, sorted({p.collection for p in papers})), settings.site_description,
        site_language(settings, papers),
    )
    write_engine_config(settings, identity)
    if new_lock_text != lock_text:
        write_atomically(settings.resolve(LOCK_FILE), new_lock_text.encode("utf-8"))
    timings["render"] = time.perf_counter() - start
    report = GenerateReport(papers, read.problems, read.files, rendered, timings, engine=engine,
                            counts={"analysed": analysed})
    stamp = {
        "version": _STAMP_VERSION,
        "inputs": _lock_key(sources_key, new_lock_text),
        "generated": generated_fingerprint(settings.docs_path),
        "files": read.files,
        "problems": [asdict(p) for p in read.problems],
        "counts": {"papers": len(papers), "tags": report.tag_count, "generated": rendered.total},
        "languages": report.language_counts,
        "engine": engine,
        "identity": asdict(identity),
    }
    write_stamp(stamp_path, stamp)
    return report
