"""Pagefind search for large digests: the records the generator writes, the index the build makes.

The generator writes one search record per paper (its URL, title, plain text
and tag names) to a dotfile of the docs dir, which MkDocs does not publish.
The build turns the records into one minimal HTML page each and runs the
Pagefind CLI over them while MkDocs renders the real pages: the index no
longer waits for the site, and Pagefind reads a few hundred bytes of markup
per paper instead of a whole themed page.

The index is split into parts of `search_part_size` records each, in input
order: `pagefind/` holds the first part and Pagefind's runtime, `pagefind-2/`,
`pagefind-3/`, ... the others, merged in the browser (Pagefind's `mergeIndex`),
and `pagefind/parts.json` lists them. A rebuild indexes again only the parts
whose records changed: an edited abstract re-indexes one part, papers added at
the end of the digest the last part and any new one. Parts stay few because
each one adds its own index chunks to a reader's search.

(Pagefind's Python API would take the records directly, but its service
answers one request per 0.1 s: 20,000 papers would take over half an hour.)
"""

from __future__ import annotations

import hashlib
import html
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from ..child_env import child_env
from ..errors import DigestError
from ..model import Paper
from ..rows import RowLayout
from .filters import sort_filters
from .fragments import bundle_fragments

#: The search records, one JSON object per line, in the docs dir (dotfiles are not published).
RECORDS_FILE = ".paper-digest-search.jsonl"
#: In the first part's folder: the site paths of the other parts, which the search box merges.
PARTS_FILE = "parts.json"


#: The search records file: one line per paper, nothing around them.
SEARCH_RECORDS = RowLayout()


def search_records(papers: list[Paper]) -> str:
    """Return the JSON lines Pagefind indexes: one per paper, in input order, byte-stable."""
    return "".join(search_record(paper) for paper in papers)


def search_record(paper: Paper) -> str:
    """Return one paper's search record: a line of JSON, with its line end."""
    record = {"url": paper.url, "title": paper.title, "text": paper.plain, "tags": [t.name for t in paper.tags]}
    return json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"


#: Bump when `record_page` changes what Pagefind sees: every index part is then made again.
_PAGE_FORMAT = 1


def record_page(record: dict) -> str:
    """Return the minimal HTML page Pagefind indexes for one record; every text is escaped."""
    tags = "".join(
        f'<span data-pagefind-filter="tag" data-pagefind-ignore="index">{html.escape(name)}</span>'
        for name in record["tags"]
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title></head><body><article>'
        f"<h1>{html.escape(record['title'])}</h1><p>{html.escape(record['text'])}</p>{tags}"
        "</article></body></html>\n"
    )


def _page_path(url: str) -> Path:
    # Only plain relative URLs of the generator's shape ("papers/<slug>/"): a
    # damaged records file cannot make the build write outside its folder.
    parts = url.strip("/").split("/")
    if not url or url.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise DigestError(f"search records: unexpected page URL {url!r}; run `paper-digest generate` again")
    return Path(*parts) / "index.html"


def part_folder(number: int) -> str:
    """Return the site folder of index part `number` (0: the first, which also holds Pagefind's runtime)."""
    return "pagefind" if number == 0 else f"pagefind-{number + 1}"


@dataclass(frozen=True)
class Part:
    """One part of the search index: its site folder, its records' lines and their hash."""

    folder: str
    lines: tuple[str, ...]
    digest: str


def read_parts(records_file: Path, part_size: int) -> list[Part]:
    """Split the search records file into parts of `part_size` lines, in order (always at least one part)."""
    try:
        text = records_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DigestError(f"{records_file}: cannot read the search records ({exc}); generate again") from exc
    return parts_of(text, part_size)


def parts_of(records: str, part_size: int) -> list[Part]:
    """Split search records (`search_records`' text) into parts of `part_size` lines, in order."""
    lines = [line for line in records.splitlines() if line]
    chunks = [lines[start : start + part_size] for start in range(0, len(lines), part_size)] or [[]]
    # A part is as good as its records, the page each becomes and the indexer's version.
    made_by = f"{_PAGE_FORMAT} pagefind {version('pagefind')}\n"
    return [
        Part(part_folder(n), tuple(chunk), hashlib.sha256((made_by + "\n".join(chunk)).encode("utf-8")).hexdigest())
        for n, chunk in enumerate(chunks)
    ]


def index_part(part: Part, output: Path) -> None:
    """Index one part's records with Pagefind into the folder `output` (replaced)."""
    with tempfile.TemporaryDirectory(prefix="paper-digest-search-") as pages:
        Indexing(part, Path(pages), output).wait()


class Indexing:
    """One part being indexed: its records written as pages to `pages`, and Pagefind running over them.

    Both run in a process of their own (`python -m generator.build.indexer`,
    which writes the pages, then becomes Pagefind): the caller goes on (renders
    pages, runs MkDocs) and calls `wait` when it needs the index. Writing 5,000
    pages is some 10,000 system calls, a second or more that this process does
    not wait for. No Python thread is involved, so the generator may fork its
    page workers meanwhile.
    """

    def __init__(self, part: Part, pages: Path, output: Path) -> None:
        self.part = part
        self.pages = pages
        self.output = output
        pages.mkdir(parents=True, exist_ok=True)
        records = pages / _RECORDS_NAME
        records.write_text("".join(line + "\n" for line in part.lines), encoding="utf-8")
        command = [sys.executable, "-m", f"{__package__}.indexer", str(records), str(pages), str(output)]
        # The process imports this very package, wherever it was imported from (installed or not).
        env = child_env()
        self._process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
        )

    def wait(self) -> None:
        """Wait for Pagefind; raise DigestError if it failed or wrote no index."""
        _, errors = self._process.communicate()
        if self._process.returncode != 0 or not (self.output / "pagefind.js").exists():
            raise DigestError(errors.strip() or "pagefind wrote no index")


#: The part's records, as `Indexing` hands them to its process (a dotfile: Pagefind skips it).
_RECORDS_NAME = ".records.jsonl"


def write_pages(records_file: Path, pages: Path) -> None:
    """Write each record of `records_file` (JSON lines) as its page under `pages`."""
    try:
        records = [json.loads(line) for line in records_file.read_text(encoding="utf-8").splitlines() if line]
    except ValueError as exc:
        raise DigestError(f"{RECORDS_FILE}: cannot read the search records ({exc}); generate again") from exc
    for record in records:
        path = pages / _page_path(record["url"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(record_page(record), encoding="utf-8")
    records_file.unlink()


def install_parts(indexed: Path, site: Path, changed: list[Part]) -> None:
    """Move the freshly indexed `changed` parts from the folder `indexed` into `site`, replacing them.

    Each part's fragments are packed into bundles first (fragments.py): a few hundred files, not one per paper;
    and its filter files are put in a fixed order (filters.py): the same records give the same bytes.
    """
    for part in changed:
        bundle_fragments(indexed / part.folder)
        sort_filters(indexed / part.folder)
        shutil.rmtree(site / part.folder, ignore_errors=True)
        shutil.move(indexed / part.folder, site / part.folder)


def list_parts(site: Path, parts: list[Part]) -> None:
    """Drop the parts of `site` that are gone and write the parts list (only when it changed).

    Called once the parts are in place, so the list never names a folder that is not there.
    """
    wanted = {part.folder for part in parts}
    for stale in sorted(site.glob("pagefind-*")):
        if stale.is_dir() and stale.name not in wanted:
            shutil.rmtree(stale)
    listing = json.dumps({"parts": [f"{part.folder}/" for part in parts[1:]]}) + "\n"
    target = site / part_folder(0) / PARTS_FILE
    if not target.exists() or target.read_text(encoding="utf-8") != listing:
        target.write_text(listing, encoding="utf-8")
