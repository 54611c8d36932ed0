"""One settings object holding every default; passed explicitly to each stage."""

from __future__ import annotations

import multiprocessing
import os
import re
import tomllib
import typing
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from urllib.parse import urlsplit

from .errors import SettingsError
from .formats import INPUT_FORMATS
from .languages import MATERIAL_LANGUAGES

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
    default_sources: tuple[str, ...] = ("data",)
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
    #: Collection of every paper read, whatever the sources say (venue, header line or file name).
    collection: str = ""
    #: The site's name (heading, browser tab, feeds); default: the collection's name, or a short
    #: form of several ("ICLR 2024–2026", "3 collections").
    site_name: str = ""
    #: One sentence about the site, for search engines and link previews.
    site_description: str = ""
    #: The language of the site's interface (Material's `theme.language`: "en", "zh", "de" ...); default: the
    #: language more than half the digest's abstracts are written in, when Material speaks it, else English.
    site_language: str = ""
    #: A topic needs at least this many papers for a page of its own; a smaller one folds into its parent topic,
    #: or shows only on the papers whose best topic it is.
    min_topic_papers: int = 3
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
    #: Papers per page of a tag or collection listing; longer lists continue on numbered pages.
    listing_size: int = 150
    #: The published site's address (https://example.org/digest/): feeds then link absolutely.
    site_url: str = ""
    #: Date (Unix seconds) of papers whose source gives none, for feeds; default: $SOURCE_DATE_EPOCH.
    source_date_epoch: str = ""
    #: Related papers listed on each paper page.
    related_count: int = 5
    #: Search engine: "material" (one index, fine for small digests), "pagefind" (chunked,
    #: loaded on demand), or "auto" (pagefind from `pagefind_min_papers` papers up).
    search: str = "auto"
    #: Digest size from which "auto" search switches to Pagefind.
    pagefind_min_papers: int = 500
    #: Papers per part of the Pagefind index: a rebuild re-indexes only the parts whose papers changed,
    #: and a reader's search fetches a little of every part (keep parts few: 3 at 20,000 papers).
    search_part_size: int = 7000
    #: Digests of up to this many papers also write each topic's BibTeX file (tags/<slug>.bib); a larger
    #: one's topic exports are made in the reader's browser from papers.bib (each abstract stored once).
    topic_files_max_papers: int = 2000
    #: In a digest larger than `topic_files_max_papers`, each of papers.json, papers.csv and papers.bib of
    #: this many MB or more is written gzipped only (papers.json.gz): GitHub refuses a file over 100 MiB in
    #: a repository, and at 100,000 papers the three would be 0.6 GB of a 1 GB host; 0: always.
    gzip_exports_min_mb: float = 100.0
    #: Rebuild only the changed pages (MkDocs --dirty) when the site uses Pagefind and its setup is unchanged.
    incremental: bool = True
    #: The engine that builds the site from the docs dir: "mkdocs" (MkDocs and Material) or "zensical"
    #: (Material's successor, which reads the same mkdocs.yml; `pip install '.[zensical]'`).
    site_engine: str = "mkdocs"
    #: Where the site is published: its documented limits are checked after each build (a warning from 80%
    #: of one, an error with `strict`): github-pages, gitlab-pages, cloudflare-pages, netlify or none.
    host: str = "github-pages"
    #: The host's limit on the whole site in MB, when yours differs from the documented one (0: the host's).
    host_max_mb: float = 0.0
    #: The host's limit on the site's files, when yours differs from the documented one (0: the host's).
    host_max_files: int = 0
    #: Processes (and threads) that share the per-paper work of large digests (0: one per core).
    workers: int = 0
    #: Reader for every source: auto (by file ending), text, jsonl, json, csv, tsv, bib or arxiv.
    input_format: str = "auto"
    #: In text digests, join a paragraph that goes on from the abstract before it (numbered findings,
    #: "Code is available at ..." lines) to that abstract; off: every paragraph is an abstract.
    join_paragraphs: bool = True
    #: Turn every skipped or suspicious record into an error.
    strict: bool = False
    #: Publish without a file that cannot be read whole (cut off, broken quoting, not XML) and without an
    #: abstract past the bounds, counting what is left out; off: either stops the build.
    skip_bad: bool = False
    #: Longest abstract, in characters; a longer one (a whole paper, many abstracts run together) stops the
    #: build. Above the longest record of the corpora (16,262 characters, a paper's whole text; the longest
    #: real abstract has 4,650).
    max_abstract_chars: int = 20_000
    #: Most sentences in a text digest's paragraph; more (many abstracts run together, a whole paper) stops the
    #: build. Above the most of any real abstract in the corpora (35; the 99.99th percentile has 22).
    max_abstract_sentences: int = 60
    #: An OpenAI-compatible chat-completions endpoint (its base address, usually ending in /v1) that
    #: `paper-digest infer` asks for titles, summaries and main topics; empty: no inference (the default).
    llm_url: str = ""
    #: The model the endpoint serves (`llama3.2:3b`, `gpt-4o-mini`, ...); needed with `llm_url`.
    llm_model: str = ""
    #: The NAME of the environment variable that holds the endpoint's key (`OPENAI_API_KEY`); empty: no key.
    #: The key itself is never in a file or a log.
    llm_api_key_env: str = ""
    #: Requests `infer` has under way at once.
    llm_concurrency: int = 1
    #: Seconds one request may take before it is retried (then the paper counts as failed).
    llm_timeout: float = 120.0

    def search_engine(self, paper_count: int) -> str:
        """Return the search engine for a digest of `paper_count` papers."""
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


#: The search engines a site can be built with.
ENGINES = ("material", "pagefind")

#: The engines that build a site from the docs dir (MkDocs is the default).
SITE_ENGINES = ("mkdocs", "zensical")

#: The hosts whose limits a build checks (`build/sitesize.py` holds them).
HOST_NAMES = ("github-pages", "gitlab-pages", "cloudflare-pages", "netlify", "none")

#: Settings that take one of a few words.
CHOICES: dict[str, tuple[str, ...]] = {
    "search": ("auto", *ENGINES),
    "site_engine": SITE_ENGINES,
    "host": HOST_NAMES,
    "input_format": INPUT_FORMATS,
}

#: Numeric settings and their smallest (and largest) allowed value.
RANGES: dict[str, tuple[float, float | None]] = {
    "min_topic_papers": (1, None),
    "max_topics_per_paper": (1, None),
    "second_area_ratio": (0.0, 1.0),
    "max_title_chars": (20, None),
    "max_summary_chars": (20, None),
    "related_count": (0, None),
    "listing_size": (20, None),
    "pagefind_min_papers": (0, None),
    "search_part_size": (10, None),
    "workers": (0, None),
    "max_abstract_chars": (1000, None),
    "max_abstract_sentences": (10, None),
    "host_max_mb": (0.0, None),
    "host_max_files": (0, None),
    "topic_files_max_papers": (0, None),
    "gzip_exports_min_mb": (0.0, None),
    "llm_concurrency": (1, 64),
    "llm_timeout": (1.0, 3600.0),
}


#: Settings that are gone, and what replaced them.
RETIRED: dict[str, str] = {
    "max_topic_share": "no longer a setting: no topic is capped any more; a topic with sub-topics lists them on its "
    "page and in the topic index (remove the line)",
}


def _wrong(name: str, expected: str, value: object) -> SettingsError:
    return SettingsError(name, f"expected {expected}, found {_describe(value)}")


_EXPECTED = {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}


def _describe(value: object) -> str:
    kind = {str: "a string", bool: "a boolean", int: "a whole number", float: "a number", list: "a list",
            tuple: "a list", dict: "a table"}.get(type(value), type(value).__name__)
    return f"{value!r} ({kind})" if not isinstance(value, dict | list | tuple) else kind


def _checked(name: str, value: object) -> object:
    """Return `value` as setting `name` holds it, or raise a SettingsError saying what was expected."""
    kind = typing.get_type_hints(Settings)[name]
    if kind == tuple[str, ...]:
        if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
            raise _wrong(name, "a list of strings, e.g. [\"data\"]", value)
        value = tuple(value)
    elif kind is float:
        # A whole number is a fine float; a boolean is not a number here.
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _wrong(name, _EXPECTED[float], value)
        value = float(value)
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _wrong(name, _EXPECTED[int], value)
    elif kind in (str, bool) and not isinstance(value, kind):
        raise _wrong(name, _EXPECTED[kind], value)
    if name == "site_language" and value and value not in MATERIAL_LANGUAGES:
        raise _wrong(name, "a language Material for MkDocs translates its interface into (en, de, fr, es, ja, zh, "
                           "zh-Hant, pt-BR ...: docs/guide/configuration.md), or \"\" to follow the digest", value)
    if name in CHOICES and value not in CHOICES[name]:
        raise _wrong(name, "one of " + ", ".join(CHOICES[name]), value)
    if name in RANGES:
        low, high = RANGES[name]
        assert isinstance(value, int | float)
        if value < low or (high is not None and value > high):
            bounds = f"at least {low:g}" if high is None else f"between {low:g} and {high:g}"
            raise _wrong(name, f"a number {bounds}", value)
    return value


def load_settings(project_dir: Path, **overrides: object) -> Settings:
    """Read `paper-digest.toml` from `project_dir` if present, apply overrides, and check every value.

    A bad file or value raises SettingsError naming the file and the setting,
    before any source is read.
    """
    project_dir = project_dir.resolve()
    values: dict[str, object] = {}
    path = project_dir / SETTINGS_FILE
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SettingsError("", f"not a valid TOML file: {exc}", path) from exc
        known = {f.name for f in fields(Settings)} - {"project_dir"}
        for key, value in data.items():
            name = key.replace("-", "_")
            if name in RETIRED:
                raise SettingsError(key, RETIRED[name], path)
            if name not in known:
                raise SettingsError(key, "unknown setting (docs/guide/configuration.md lists them)", path)
            try:
                values[name] = _checked(name, value)
            except SettingsError as error:
                raise error.at(path) from None
    for name, value in overrides.items():
        if value is not None:
            try:
                values[name] = _checked(name, value)
            except SettingsError as error:
                raise error.at(None) from None
    # The reproducible-builds convention: a date for what has none, never the clock.
    values.setdefault("source_date_epoch", os.environ.get("SOURCE_DATE_EPOCH", ""))
    settings = replace(Settings(project_dir=project_dir), **values)  # type: ignore[arg-type]
    _check_llm(settings, path if path.exists() else None, set(overrides) & set(values))
    return settings


#: An environment variable's name.
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _check_llm(settings: Settings, path: Path | None, from_command_line: set[str]) -> None:
    """Check the inference settings together: an address that can be asked, and a model to ask."""

    def where(name: str) -> Path | None:
        return None if name in from_command_line else path

    if settings.llm_url:
        parts = urlsplit(settings.llm_url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise _wrong("llm_url", "an http:// or https:// address such as http://localhost:11434/v1",
                         settings.llm_url).at(where("llm_url"))
        if parts.username or parts.password:
            raise SettingsError("llm_url", "an address without a user or password in it (name the key's variable "
                                "in llm_api_key_env)", where("llm_url"))
        if not settings.llm_model.strip():
            raise SettingsError("llm_model", "needed with llm_url: the name of the model the endpoint serves, "
                                "e.g. \"llama3.2:3b\"", where("llm_model"))
    name = settings.llm_api_key_env
    if name and (not _ENV_NAME.fullmatch(name) or len(name) >= 40):
        # Never echo it: a key pasted here by mistake must not reach a terminal or a CI log.
        raise SettingsError("llm_api_key_env", "expected the NAME of an environment variable (e.g. OPENAI_API_KEY), "
                            "not the key itself; the value is not shown", where("llm_api_key_env"))


def inference_key(settings: Settings) -> str:
    """Return the endpoint's key from the environment ("" when the settings name none).

    A missing or empty variable is a SettingsError: said before any source is read.
    """
    if not settings.llm_url:
        raise SettingsError("llm_url", "inference needs an endpoint: set llm_url (and llm_model) in "
                            f"{SETTINGS_FILE} (docs/guide/inference.md)")
    name = settings.llm_api_key_env
    if not name:
        return ""
    key = os.environ.get(name, "")
    if not key.strip():
        raise SettingsError("llm_api_key_env", f"the environment variable {name} is not set (it should hold "
                            "the endpoint's key)")
    return key.strip()
