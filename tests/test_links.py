"""Every internal link and asset reference of the built default site resolves."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest

from tests.htmlscan import scan

pytestmark = pytest.mark.slow

LINK_ATTRIBUTES = {"a": "href", "link": "href", "script": "src", "img": "src", "source": "src", "iframe": "src"}
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


def resolve(site: Path, page_url: str, reference: str, prefix: str = "/") -> tuple[Path | None, str]:
    """Return the file a reference points to (None if external) and its fragment; the site is served at `prefix`."""
    target = urlparse(urljoin(page_url, reference))
    if target.scheme != "http" or target.netloc != "site":
        return None, ""
    if not target.path.startswith(prefix):
        return site / "outside-the-site", target.fragment
    path = site / unquote(target.path[len(prefix):])
    if target.path.endswith("/") or path.is_dir():
        path = path / "index.html"
    return path, target.fragment


@cache
def ids_of(path: Path) -> frozenset[str]:
    return frozenset(a["id"] for _, a in scan(path).elements if a.get("id"))


def references(site: Path):
    """Yield (file, reference, is_asset) for every link and asset reference in the site."""
    for html in sorted(site.rglob("*.html")):
        for tag, attrs in scan(html).elements:
            name = LINK_ATTRIBUTES.get(tag)
            # An SVG link (a chart's bar) may give its target as xlink:href.
            reference = (attrs.get(name) or attrs.get(f"xlink:{name}")) if name else None
            if reference:
                yield html, reference, tag != "a"
    for css in sorted(site.rglob("*.css")):
        for reference in CSS_URL.findall(css.read_text(encoding="utf-8")):
            if not reference.startswith(("data:", "#")):
                yield css, reference, True


def page_url(site: Path, file: Path, prefix: str = "/") -> str:
    return "http://site" + prefix + file.relative_to(site).as_posix()


def broken_links(site: Path, prefix: str = "/") -> tuple[int, list[str]]:
    """Return how many internal links and asset references the built `site` holds, and those that do not resolve.

    `prefix`: the path the site is served at ("/pr-preview/pr-1/"); a link outside it is broken.
    """
    broken = []
    checked = 0
    for file, reference, _ in references(site):
        target, fragment = resolve(site, page_url(site, file, prefix), reference, prefix)
        if target is None:
            continue
        checked += 1
        if not target.is_file():
            broken.append(f"{file.relative_to(site)} -> {reference}")
        elif fragment and target.suffix == ".html" and unquote(fragment) not in ids_of(target):
            broken.append(f"{file.relative_to(site)} -> {reference} (no such anchor)")
    return checked, broken


def test_every_internal_link_and_asset_resolves(default_site) -> None:
    checked, broken = broken_links(default_site.site_path)
    assert checked > 1000
    assert broken == []


def test_no_asset_is_loaded_from_outside_the_site(default_site) -> None:
    site = default_site.site_path
    outside = [
        f"{file.relative_to(site)} -> {reference}"
        for file, reference, is_asset in references(site)
        if is_asset and resolve(site, page_url(site, file), reference)[0] is None
    ]
    assert outside == []
