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
and `pagefind/parts.json` lists them. Parts stay few because each one adds its
own index chunks to a reader's search.

A rebuild leaves those base parts as they are and indexes only the records
edited or added since they were made, into the delta part (`pagefind-delta/`);
parts.json lists the base results it replaces (their ids, which the state of
each base part keeps), and the search box leaves those out. Past DELTA_MAX
such records the records are cut into base parts again, and only the parts
whose records changed are indexed.

(Pagefind's Python API would take the records directly, but its service
answers one request per 0.1 s: 20,000 papers would take over half an hour.)
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from ..errors import DigestError
from ..model import Paper
from ..rows import RowLayout

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


def record_page(record: dict, delta: bool = False) -> str:
    """Return the minimal HTML page Pagefind indexes for one record; every text is escaped.

    A page of the delta part says so in its metadata: its result never has the
    id of the base record it replaces, which the search box hides.
    """
    tags = "".join(
        f'<span data-pagefind-filter="tag" data-pagefind-ignore="index">{html.escape(name)}</span>'
        for name in record["tags"]
    )
    marker = '<span data-pagefind-meta="part:delta" data-pagefind-ignore="index"></span>' if delta else ""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title></head><body><article>'
        f"<h1>{html.escape(record['title'])}</h1><p>{html.escape(record['text'])}</p>{tags}{marker}"
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


def read_records(records_file: Path) -> str:
    """Return the search records file's text, or raise a DigestError that says to generate again."""
    try:
        return records_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DigestError(f"{records_file}: cannot read the search records ({exc}); generate again") from exc


def parts_of(records: str, part_size: int) -> list[Part]:
    """Split search records (`search_records`' text) into parts of `part_size` lines, in order."""
    lines = [line for line in records.splitlines() if line]
    chunks = [lines[start : start + part_size] for start in range(0, len(lines), part_size)] or [[]]
    return [_part(part_folder(n), chunk) for n, chunk in enumerate(chunks)]


def _made_by() -> str:
    # A part is as good as its records, the page each becomes and the indexer's version.
    return f"{_PAGE_FORMAT} pagefind {version('pagefind')}"


def _part(folder: str, lines: list[str]) -> Part:
    digest = hashlib.sha256((_made_by() + "\n" + "\n".join(lines)).encode("utf-8")).hexdigest()
    return Part(folder, tuple(lines), digest)


def index_part(part: Part, output: Path, delta: bool = False) -> None:
    """Index one part's records with Pagefind into the folder `output` (replaced); `delta`: the delta part."""
    with tempfile.TemporaryDirectory(prefix="paper-digest-search-") as pages:
        Indexing(part, Path(pages), output, delta).wait()


class Indexing:
    """One part being indexed: its records written as pages to `pages`, and Pagefind running over them.

    Both run in a process of their own (`python -m generator.build.indexer`,
    which writes the pages, then becomes Pagefind): the caller goes on (renders
    pages, runs MkDocs) and calls `wait` when it needs the index. Writing 5,000
    pages is some 10,000 system calls, a second or more that this process does
    not wait for. No Python thread is involved, so the generator may fork its
    page workers meanwhile.
    """

    def __init__(self, part: Part, pages: Path, output: Path, delta: bool = False) -> None:
        self.part = part
        self.output = output
        pages.mkdir(parents=True, exist_ok=True)
        records = pages / _RECORDS_NAME
        records.write_text("".join(line + "\n" for line in part.lines), encoding="utf-8")
        command = [sys.executable, "-m", f"{__package__}.indexer", str(records), str(pages), str(output)]
        if delta:
            command.append("--delta")
        # The process imports this very package, wherever it was imported from (installed or not).
        home = str(Path(__file__).resolve().parents[2])
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": home if not path else os.pathsep.join([home, path])}
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


def write_pages(records_file: Path, pages: Path, delta: bool = False) -> None:
    """Write each record of `records_file` (JSON lines) as its page under `pages` (`delta`: of the delta part)."""
    try:
        records = [json.loads(line) for line in records_file.read_text(encoding="utf-8").splitlines() if line]
    except ValueError as exc:
        raise DigestError(f"{RECORDS_FILE}: cannot read the search records ({exc}); generate again") from exc
    for record in records:
        path = pages / _page_path(record["url"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(record_page(record, delta), encoding="utf-8")
    records_file.unlink()


def install_parts(indexed: Path, site: Path, changed: list[Part]) -> None:
    """Move the freshly indexed `changed` parts from the folder `indexed` into `site`, replacing them."""
    for part in changed:
        shutil.rmtree(site / part.folder, ignore_errors=True)
        shutil.move(indexed / part.folder, site / part.folder)


def list_parts(site: Path, folders: list[str], hidden: tuple[str, ...] = ()) -> None:
    """Drop the parts of `site` that are gone and write the parts list (only when it changed).

    `folders` are the parts, the first part's first; `hidden`, the results the
    search box leaves out (base records the delta part replaces). Called once the
    parts are in place, so the list never names a folder that is not there.
    """
    wanted = set(folders)
    for stale in sorted(site.glob("pagefind-*")):
        if stale.is_dir() and stale.name not in wanted:
            shutil.rmtree(stale)
    listing: dict[str, list[str]] = {"parts": [f"{folder}/" for folder in folders[1:]]}
    if hidden:
        listing["hidden"] = list(hidden)
    text = json.dumps(listing) + "\n"
    target = site / part_folder(0) / PARTS_FILE
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


#: The part of the records edited or added since the base parts were indexed.
DELTA_FOLDER = "pagefind-delta"
#: Past this many records in the delta part, or base records it replaces, the base parts whose
#: records changed are indexed again and the delta part goes: it stays small for a reader to fetch.
DELTA_MAX = 1000


def record_key(line: str) -> str:
    """Return the key of one search record (a line of the records file)."""
    return hashlib.blake2b(line.encode("utf-8", "surrogatepass"), digest_size=10).hexdigest()


@dataclass(frozen=True)
class SearchPlan:
    """What the index of a build holds, and which parts of it to index now.

    The base parts (`folders`, the first part's first) hold the records in
    chunks of `search_part_size`, as they were when each was indexed; the delta
    part, the records edited or added since; `hidden`, the ids of the base
    results the delta part replaces or whose paper is gone. One edited abstract
    then indexes one record, not a whole part of thousands (5 s of Pagefind at
    7,000). `kept`: the state of each base part left as it is.
    """

    folders: tuple[str, ...]
    index: tuple[Part, ...]
    delta: Part | None
    hidden: tuple[str, ...]
    kept: dict[str, dict]


def plan_index(records: str, part_size: int, state: object, site: Path) -> SearchPlan:
    """Return what to index for `records` given the index `state` the last build left in `site` (None: none).

    The delta part is used while it stays within DELTA_MAX; past it (or with no
    usable state), the records are cut into base parts again and only the parts
    whose records changed are indexed.
    """
    lines = [line for line in records.splitlines() if line]
    parts = _state_parts(state, part_size, site)
    if parts is not None:
        known = {key for part in parts.values() for key in part["keys"]}
        keys = [record_key(line) for line in lines]
        now = set(keys)
        delta_lines = [line for line, key in zip(lines, keys, strict=True) if key not in known]
        hidden = tuple(sorted(
            fragment for part in parts.values() for key, fragment in zip(part["keys"], part["ids"], strict=True)
            if key not in now
        ))
        if len(delta_lines) <= DELTA_MAX and len(hidden) <= DELTA_MAX:
            delta = _part(DELTA_FOLDER, delta_lines) if delta_lines else None
            fresh = delta is not None and (
                not isinstance(state, dict) or state.get("delta") != delta.digest or not (site / DELTA_FOLDER).is_dir()
            )
            folders = tuple(sorted(parts, key=_part_number))
            return SearchPlan(
                (*folders, *((DELTA_FOLDER,) if delta else ())), (delta,) if fresh and delta else (), delta, hidden,
                parts,
            )
    previous = _state_parts(state, part_size, site, every=False) or {}
    cut = parts_of(records, part_size)
    index = tuple(part for part in cut if previous.get(part.folder, {}).get("digest") != part.digest
                  or not (site / part.folder).is_dir())
    again = {part.folder for part in index}
    kept = {part.folder: previous[part.folder] for part in cut if part.folder not in again}
    return SearchPlan(tuple(part.folder for part in cut), index, None, (), kept)


def _part_number(folder: str) -> int:
    return 0 if folder == part_folder(0) else int(folder.rsplit("-", 1)[1])


def _state_parts(state: object, part_size: int, site: Path, every: bool = True) -> dict[str, dict] | None:
    """Return the base parts the state describes, if it is of this indexer and part size and intact.

    With `every`, None unless every part has its records' keys and result ids
    and its folder is in `site` (what the delta part needs).
    """
    if not isinstance(state, dict) or state.get("made_by") != _made_by() or state.get("part_size") != part_size:
        return None
    parts = state.get("parts")
    if not isinstance(parts, dict) or not parts:
        return None
    good = {}
    for folder, part in parts.items():
        numbered = folder.startswith("pagefind-") and folder.removeprefix("pagefind-").isdigit()
        usable = (
            isinstance(part, dict) and isinstance(part.get("digest"), str) and not part.get("incomplete")
            and isinstance(part.get("keys"), list) and isinstance(part.get("ids"), list)
            and len(part["keys"]) == len(part["ids"]) and (folder == part_folder(0) or numbered)
            and (site / folder).is_dir()
        )
        if usable:
            good[folder] = part
        elif every:
            return None
    if every and part_folder(0) not in good:
        return None
    return good


def index_state(plan: SearchPlan, indexed: dict[str, dict], part_size: int) -> dict:
    """Return the state the next build plans from: each base part's digest, records' keys and result ids."""
    parts = {**plan.kept, **indexed}
    return {
        "made_by": _made_by(), "part_size": part_size,
        "parts": {folder: parts[folder] for folder in plan.folders if folder != DELTA_FOLDER},
        "delta": plan.delta.digest if plan.delta else "",
    }


def part_state(part: Part, output: Path) -> dict:
    """Return what the state keeps of a base part indexed into `output`: digest, records' keys, result ids.

    A result's id is its fragment's name (Pagefind's page hash), found by the
    URL the fragment holds. If some record has no fragment (another Pagefind),
    the ids are left empty and the next change cuts the parts again.
    """
    by_url: dict[str, str] = {}
    for fragment in (output / "fragment").glob("*.pf_fragment"):
        try:
            data = gzip.decompress(fragment.read_bytes())
            data = data.removeprefix(b"pagefind_dcd")
            url = json.loads(data.decode("utf-8"))["url"]
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            continue
        if isinstance(url, str):
            by_url[url.strip("/")] = fragment.name.removesuffix(".pf_fragment")
    keys, ids = [], []
    for line in part.lines:
        fragment_id = by_url.get(str(json.loads(line).get("url", "")).strip("/"))
        if fragment_id is None:
            return {"digest": part.digest, "keys": [], "ids": [], "incomplete": True}
        keys.append(record_key(line))
        ids.append(fragment_id)
    return {"digest": part.digest, "keys": keys, "ids": ids}
