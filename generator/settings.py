"""One settings object holding every default; passed explicitly to each stage."""

from __future__ import annotations

import multiprocessing
import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from .errors import DigestError

#: The file in a project directory that can override any setting below.
SETTINGS_FILE = "paper-digest.toml"


#: Digests at least this large share their per-paper work (analysis, paper pages) among forked workers.
PARALLEL_FROM = 1000


@dataclass(frozen=True)
class Settings:
    """Every knob of the pipeline, with its default.

    Paths are relative to `project_dir` unless absolute; use `resolve()` to get
    an absolute path.
    """

    #: The project directory: holds mkdocs.yml, templates/ and site_src/.
    project_dir: Path = field(default_factory=Path.cwd)
    #: Sources read when none are named on the command line.
    default_sources: tuple[str, ...] = ("data/iclr2026",)
    #: MkDocs configuration file.
    config_file: str = "mkdocs.yml"
    #: MkDocs docs_dir: generated folders go here beside the hand-written pages.
    docs_dir: str = "site_src"
    #: Where MkDocs writes the static site.
    site_dir: str = "site"
    #: Jinja2 templates for the generated Markdown.
    templates_dir: str = "templates"
    #: Collection name used for a text file with no header line (default: the file's stem).
    default_collection: str = ""
    #: A topic needs at least this many papers to be shown; smaller ones are folded away.
    min_topic_papers: int = 3
    #: No topic may hold more than this share of the digest.
    max_topic_share: float = 0.15
    #: At most this many topics per paper.
    max_topics_per_paper: int = 4
    #: A second area is added when its probability is at least this share of the first's.
    second_area_ratio: float = 0.6
    #: Optional YAML file of topics that replaces the bundled vocabulary.
    topics_file: str = ""
    #: YAML file that adds topics, renames or hides tags and pins tags to papers (used when present).
    overrides_file: str = "tag-overrides.yaml"
    #: Longest title, in characters, before it is shortened at a word boundary.
    max_title_chars: int = 110
    #: Longest one-line summary on index pages, in characters.
    max_summary_chars: int = 220
    #: Related papers listed on each paper page.
    related_count: int = 5
    #: The topic map's t-SNE places at most this many papers; the rest join their nearest ones.
    map_layout_max: int = 2000
    #: Search engine: "material" (one index, fine for small digests), "pagefind" (chunked,
    #: loaded on demand), or "auto" (pagefind from `pagefind_min_papers` papers up).
    search: str = "auto"
    #: Digest size from which "auto" search switches to Pagefind.
    pagefind_min_papers: int = 500
    #: Rebuild only the changed pages (MkDocs --dirty) when the site uses Pagefind and its setup is unchanged.
    incremental: bool = True
    #: Processes (and threads) that share the per-paper work of large digests (0: one per core).
    workers: int = 0
    #: Reader for every source: auto (by file ending), text, jsonl, json, csv, tsv, bib or arxiv.
    input_format: str = "auto"
    #: Turn every skipped or suspicious record into an error.
    strict: bool = False

    def search_engine(self, paper_count: int) -> str:
        """Return the search engine for a digest of `paper_count` papers."""
        if self.search not in ("auto", "material", "pagefind"):
            raise DigestError(f"search must be auto, material or pagefind, not {self.search!r}")
        if self.search != "auto":
            return self.search
        return "pagefind" if paper_count >= self.pagefind_min_papers else "material"

    def cores(self) -> int:
        """Return how many processes or threads a parallel stage uses: `workers`, at most one per core."""
        available = os.cpu_count() or 1
        return min(available, self.workers or available)

    def forked_workers(self, paper_count: int) -> int:
        """Return how many forked processes share the per-paper work of a digest; 0: run in this process.

        Small digests stay in one process: starting workers would cost more than it saves.
        """
        if paper_count < PARALLEL_FROM or self.cores() < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return 0
        return self.cores()

    def resolve(self, path: str | Path) -> Path:
        """Return `path` made absolute against the project directory."""
        path = Path(path)
        return path if path.is_absolute() else self.project_dir / path

    @property
    def docs_path(self) -> Path:
        return self.resolve(self.docs_dir)

    @property
    def site_path(self) -> Path:
        return self.resolve(self.site_dir)


def load_settings(project_dir: Path, **overrides: object) -> Settings:
    """Read `paper-digest.toml` from `project_dir` if present, then apply overrides."""
    project_dir = project_dir.resolve()
    values: dict[str, object] = {}
    path = project_dir / SETTINGS_FILE
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise DigestError(f"{path}: not a valid TOML file: {exc}") from exc
        known = {f.name: f for f in fields(Settings)}
        for key, value in data.items():
            name = key.replace("-", "_")
            if name not in known or name == "project_dir":
                raise DigestError(f"{path}: unknown setting {key!r}")
            if isinstance(value, list):
                value = tuple(value)
            values[name] = value
    values.update({k: v for k, v in overrides.items() if v is not None})
    return replace(Settings(project_dir=project_dir), **values)
