"""`python -m generator.build.indexer RECORDS PAGES OUTPUT`: one search index part, in a process of its own.

Writes each record of RECORDS (JSON lines) as its page under PAGES, then
becomes Pagefind over PAGES, writing the index into OUTPUT (see pagefind.Indexing).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from ..errors import DigestError
from .pagefind import write_pages


def main(arguments: list[str]) -> None:
    """Write the pages, then replace this process by Pagefind; exit with the error's text if the records are bad."""
    records, pages, output = (Path(a) for a in arguments)
    try:
        write_pages(records, pages)
    except DigestError as error:
        sys.exit(str(error))
    # Pagefind writes straight into `output`: the index is not copied again.
    shutil.rmtree(output, ignore_errors=True)
    command = [
        sys.executable, "-m", "pagefind", "--site", str(pages), "--output-path", str(output),
        "--force-language", "en", "--quiet",
    ]
    sys.stdout.flush()
    os.execv(sys.executable, command)


if __name__ == "__main__":
    main(sys.argv[1:])
