"""Redirect pages: every address a paper or topic page had before leads to where it is now.

A small static HTML page at each old address (no MkDocs plugin): a meta
refresh, a canonical link for search engines, `noindex`, and a plain link
for a reader whose browser does not follow the refresh.
"""

from __future__ import annotations

from html import escape

from ..model import PATHS


def redirect_path(url: str) -> str:
    """Return the docs-dir path of the page published at `url` ("papers/x/" -> "papers/x/index.html")."""
    return f"{url.rstrip('/')}/index.html"


def redirect_page(old: str, new: str, site_url: str = "") -> str:
    """Return the redirect page at address `old` to address `new` ("" for the home page).

    Both are relative to the site root; the link is relative to `old`, so the
    site can be served from any folder.
    """
    depth = old.strip("/").count("/") + 1
    target = "../" * depth + new
    canonical = f"{site_url.rstrip('/')}/{new}" if site_url else target
    if not new:
        what = "the digest's home page (the paper is no longer in the digest)"
    elif new == PATHS.tags_index_url and old.startswith(PATHS.tags_index_url):
        what = "the digest's topics (this topic is no longer in the digest)"
    else:
        what = "its new address"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Moved</title>\n"
        f'<meta http-equiv="refresh" content="0; url={escape(target)}">\n'
        f'<link rel="canonical" href="{escape(canonical)}">\n'
        '<meta name="robots" content="noindex">\n'
        # No favicon request from a page the browser leaves at once.
        '<link rel="icon" href="data:,">\n'
        "</head>\n<body>\n"
        f'<p>This page moved to <a href="{escape(target)}">{escape(what)}</a>.</p>\n'
        "</body>\n</html>\n"
    )


def redirect_files(redirects: dict[str, str], site_url: str = "") -> dict[str, bytes]:
    """Return the redirect pages of `redirects` (old address: new address), keyed by docs-dir path."""
    return {
        redirect_path(old): redirect_page(old, new, site_url).encode("utf-8")
        for old, new in sorted(redirects.items())
    }
