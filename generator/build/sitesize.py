"""The built site's size by part, and the limits of the hosts it may be published on.

`measure_site` walks the built site once: the bytes and files of each part
(paper pages, topic pages, exports, search, ...), the largest file and the
fullest folder. `host_warnings` compares that with what the chosen host
documents (setting `host`), and says so from 80% of a limit on, naming the
host, the limit and where it is documented.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: Each part of a built site and the first path segment (or file name prefix) it owns, in report order.
#: A path matches the first rule whose prefix it starts with; what matches none is "other pages".
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("paper pages", ("papers/",)),
    ("topic exports", ()),  # tags/*.bib and tags/*.csv: matched by ending, below
    ("topic pages", ("tags/",)),
    ("collection pages", ("collections/",)),
    ("All papers", ("all/", "all.json")),
    ("feeds", ("feed",)),
    ("exports", ("papers.json", "papers.csv", "papers.bib")),
    ("search", ("pagefind", "search/")),
    ("papers like this", ("similar/",)),
    ("map and filter data", ("map.json", "filter.json")),
    ("theme and scripts", ("assets/",)),
)
OTHER = "other pages"

#: A warning from this share of a host's limit on: room to grow before a deployment fails.
WARN_SHARE = 0.8

MB = 1_000_000
MIB = 1024 * 1024


@dataclass(frozen=True)
class Host:
    """What a host documents as the most a published site may hold (None: no such limit)."""

    name: str
    source: str
    #: The whole site, in bytes; for GitHub Pages, the uploaded artifact (a tar of the site).
    site_bytes: int | None = None
    #: Entries of the whole site; `count_folders`: folders count as entries too (GitLab counts them).
    files: int | None = None
    count_folders: bool = False
    file_bytes: int | None = None
    #: Entries of one folder.
    folder_entries: int | None = None


#: The hosts `host` may name, with their documented limits (checked December 2026).
HOSTS: dict[str, Host] = {
    "github-pages": Host(
        "GitHub Pages", "https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits",
        site_bytes=1_000_000_000,
    ),
    "gitlab-pages": Host(
        "GitLab Pages (GitLab.com)", "https://docs.gitlab.com/user/gitlab_com/#gitlab-pages",
        site_bytes=1_000_000_000, files=200_000, count_folders=True,
    ),
    "cloudflare-pages": Host(
        "Cloudflare Pages (Free plan)", "https://developers.cloudflare.com/pages/platform/limits/",
        files=20_000, file_bytes=25 * MIB,
    ),
    "netlify": Host(
        "Netlify", "https://docs.netlify.com/site-deploys/overview/#files-per-directory-limit",
        folder_entries=54_000,
    ),
    "none": Host("no host", ""),
}


@dataclass
class Part:
    """One part of the site: its name, bytes and files."""

    name: str
    bytes: int = 0
    files: int = 0


@dataclass
class SiteSize:
    """What `measure_site` found."""

    parts: list[Part]
    folders: int = 0
    #: The size of a tar of the site (512-byte header per entry, data padded to 512 bytes): what GitHub measures.
    tar_bytes: int = 0
    largest: tuple[str, int] = ("", 0)
    largest_page: tuple[str, int] = ("", 0)
    fullest: tuple[str, int] = ("", 0)

    @property
    def bytes(self) -> int:
        return sum(part.bytes for part in self.parts)

    @property
    def files(self) -> int:
        return sum(part.files for part in self.parts)


def part_of(path: str) -> str:
    """Return the part of the site a "/"-separated path relative to the site belongs to."""
    if path.startswith("tags/") and path.endswith((".bib", ".csv")):
        return "topic exports"
    for name, prefixes in PARTS:
        if prefixes and path.startswith(prefixes):
            return name
    return OTHER


def measure_site(site: Path) -> SiteSize:
    """Walk the built site once: bytes and files by part, the largest file and page, the fullest folder."""
    parts = {name: Part(name) for name, _ in PARTS}
    parts[OTHER] = Part(OTHER)
    size = SiteSize(list(parts.values()))
    root = os.fspath(site)
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        relative = os.path.relpath(folder, root).replace(os.sep, "/")
        prefix = "" if relative == "." else relative + "/"
        size.folders += len(dirs)
        size.tar_bytes += 512 * len(dirs)
        entries = len(dirs) + len(names)
        if entries > size.fullest[1]:
            size.fullest = (prefix or "/", entries)
        for name in names:
            path = prefix + name
            n = os.stat(os.path.join(folder, name)).st_size
            part = parts[part_of(path)]
            part.bytes += n
            part.files += 1
            size.tar_bytes += 512 + -(-n // 512) * 512
            if n > size.largest[1]:
                size.largest = (path, n)
            if name.endswith(".html") and n > size.largest_page[1]:
                size.largest_page = (path, n)
    return size


def host_warnings(size: SiteSize, host: Host, max_bytes: int = 0, max_files: int = 0) -> list[str]:
    """Return a sentence for each of `host`'s limits the site has passed 80% of.

    `max_bytes`, `max_files`: the user's own limits (a self-managed GitLab's, a paid plan's), in place of the host's.
    """
    where = f" ({host.source})" if host.source else ""
    out = []
    site_limit = max_bytes or host.site_bytes
    if site_limit:
        # GitHub measures the uploaded artifact, a tar of the site: a little more than the files' sum.
        measured = size.tar_bytes if host is HOSTS["github-pages"] and not max_bytes else size.bytes
        allows = f"set for {host.name} (host_max_mb)" if max_bytes else f"{host.name} allows for a whole site"
        if measured >= WARN_SHARE * site_limit:
            out.append(f"the site is {_mb(measured)}, {measured / site_limit:.0%} of the {_mb(site_limit)} "
                       f"{allows}{where}")
    file_limit = max_files or host.files
    if file_limit:
        entries = size.files + (size.folders if host.count_folders else 0)
        what = "files and folders" if host.count_folders else "files"
        allows = f"set for {host.name} (host_max_files)" if max_files else f"{host.name} allows"
        if entries >= WARN_SHARE * file_limit:
            out.append(f"the site has {entries:,} {what}, {entries / file_limit:.0%} of the {file_limit:,} "
                       f"{allows}{where}")
    if host.file_bytes and size.largest[1] >= WARN_SHARE * host.file_bytes:
        path, n = size.largest
        out.append(f"{path} is {_mb(n)}, {n / host.file_bytes:.0%} of the {host.file_bytes / MIB:g} MiB "
                   f"{host.name} allows for one file{where}")
    if host.folder_entries and size.fullest[1] >= WARN_SHARE * host.folder_entries:
        path, n = size.fullest
        out.append(f"the folder {path} holds {n:,} entries, {n / host.folder_entries:.0%} of the "
                   f"{host.folder_entries:,} {host.name} allows in one folder{where}")
    return out


def size_lines(size: SiteSize, papers: int = 0) -> list[tuple[str, str]]:
    """Return the size report as (part, "bytes, files") rows, largest part first, then the totals.

    `papers`: the digest's papers, for the bytes a paper costs.
    """
    rows = [
        (part.name, f"{_mb(part.bytes)} in {part.files:,} files")
        for part in sorted(size.parts, key=lambda p: (-p.bytes, p.name)) if part.files
    ]
    per_paper = f", {size.bytes / papers / 1000:.1f} KB a paper" if papers else ""
    rows.append(("whole site", f"{_mb(size.bytes)} in {size.files:,} files and {size.folders:,} folders{per_paper}"))
    if size.largest_page[0]:
        rows.append(("largest page", f"{size.largest_page[0]} ({size.largest_page[1] / 1000:.0f} KB)"))
    rows.append(("largest file", f"{size.largest[0]} ({_mb(size.largest[1])})"))
    return rows


def _mb(n: int) -> str:
    return f"{n / MB:,.1f} MB" if n >= 100_000 else f"{n / 1000:,.1f} KB"
