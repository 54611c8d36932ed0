"""Pagefind search for large digests: the records the generator writes, the index the build makes.

The generator writes one search record per paper (its URL, title, plain text
and tag names) to a dotfile of the docs dir, which MkDocs does not publish.
The build turns the records into one minimal HTML page each and runs the
Pagefind CLI over them while MkDocs renders the real pages: the index no
longer waits for the site, and Pagefind reads a few hundred bytes of markup
per paper instead of a whole themed page.

(Pagefind's Python API would take the records directly, but its service
answers one request per 0.1 s: 20,000 papers would take over half an hour.)
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import DigestError
from ..model import Paper

#: The search records, one JSON object per line, in the docs dir (dotfiles are not published).
RECORDS_FILE = ".paper-digest-search.jsonl"


def search_records(papers: list[Paper]) -> str:
    """Return the JSON lines Pagefind indexes: one per paper, in input order, byte-stable."""
    lines = [
        json.dumps(
            {"url": p.url, "title": p.title, "text": p.plain, "tags": [t.name for t in p.tags]},
            ensure_ascii=False,
            sort_keys=True,
        )
        for p in papers
    ]
    return "".join(line + "\n" for line in lines)


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


def index_records(records_file: Path, output: Path) -> None:
    """Index the search records with Pagefind into the folder `output` (replaced)."""
    try:
        lines = records_file.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line]
    except (OSError, ValueError) as exc:
        raise DigestError(f"{records_file}: cannot read the search records ({exc}); generate again") from exc
    with tempfile.TemporaryDirectory(prefix="paper-digest-search-") as pages:
        for record in records:
            path = Path(pages) / _page_path(record["url"])
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(record_page(record), encoding="utf-8")
        # Pagefind writes straight into `output`: the index is not copied again.
        shutil.rmtree(output, ignore_errors=True)
        command = [
            sys.executable, "-m", "pagefind", "--site", pages, "--output-path", str(output),
            "--force-language", "en", "--quiet",
        ]
        process = subprocess.run(command, capture_output=True, text=True, check=False)
        if process.returncode != 0 or not (output / "pagefind.js").exists():
            raise DigestError(process.stderr.strip() or "pagefind wrote no index")
