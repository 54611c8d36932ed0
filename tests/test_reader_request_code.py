"""A strict reader's "before" request is tagged by the other checkout's generator (bench/reader_request_fields.py --code)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_code_tags_with_the_checkouts_own_generator(tmp_path: Path) -> None:
    # A checkout in the shape of this one: its bench module imports its own generator.
    (tmp_path / "bench").mkdir()
    (tmp_path / "generator").mkdir()
    (tmp_path / "generator" / "__init__.py").write_text("WHO = 'the other checkout'\n", encoding="utf-8")
    (tmp_path / "bench" / "reader_request_tags.py").write_text(
        "import sys\nfrom pathlib import Path\nsys.path.insert(0, str(Path(__file__).resolve().parent.parent))\n"
        "import generator\n\ndef tag_in_venue_digest(chosen, venue_papers):\n    return generator.WHO\n",
        encoding="utf-8",
    )
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
        "from bench.reader_request_fields import tagger_of;"
        "print(tagger_of(Path(sys.argv[2]))([], []))"
    )
    done = subprocess.run([sys.executable, "-c", script, str(ROOT), str(tmp_path)], capture_output=True, text=True,
                          cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "the other checkout"
