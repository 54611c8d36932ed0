"""Vendor KaTeX into site_src/assets/katex/ so the site needs no CDN.

Run from the project root:  python scripts/vendor_katex.py [VERSION]

Fetches the `katex` npm package with `npm pack`, copies katex.min.js,
katex.min.css (rewritten to load only the WOFF2 fonts, which every current
browser reads), the WOFF2 fonts and the licence.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

DEST = Path(__file__).resolve().parent.parent / "site_src" / "assets" / "katex"


def main(version: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["npm", "pack", f"katex@{version}", "--silent"], cwd=tmp, check=True, capture_output=True, text=True
        )
        with tarfile.open(Path(tmp) / out.stdout.strip().splitlines()[-1]) as tar:
            tar.extractall(tmp, filter="data")
        package = Path(tmp) / "package"
        if DEST.exists():
            shutil.rmtree(DEST)
        (DEST / "fonts").mkdir(parents=True)
        shutil.copy(package / "dist" / "katex.min.js", DEST)
        shutil.copy(package / "LICENSE", DEST / "LICENSE")
        css = (package / "dist" / "katex.min.css").read_text(encoding="utf-8")
        # Keep only the woff2 source of each @font-face.
        css = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", css)
        (DEST / "katex.min.css").write_text(css, encoding="utf-8")
        for font in (package / "dist" / "fonts").glob("*.woff2"):
            shutil.copy(font, DEST / "fonts")
        version_found = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
        (DEST / "VERSION").write_text(version_found + "\n", encoding="utf-8")
    print(f"vendored KaTeX {version_found} into {DEST}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "0.16")
