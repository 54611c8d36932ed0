"""Topic and area pages keep their addresses: the lock lists every listing published, and each that goes leads on.

A topic's page moves when its name changes (a vocabulary's new name, the user's
`rename`), and goes when no paper has it any more; a listing's later pages go
when it shrinks. Each address the lock lists that this build does not publish
gets a redirect (render/redirects.py), on every build:

1. to the page of the name it was renamed to (the user's renames first, then
   the vocabularies', followed through any chain), when that topic has one;
2. else to its broader topic's page, when that one has a page;
3. else to the topics index, which says the topic is no longer in the digest.

A listing's later page that goes while its first page stays leads to the first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from ..model import PATHS, TagPage


def record_tags(known: Iterable[TagPage], live: Iterable[TagPage]) -> tuple[TagPage, ...]:
    """Return the lock's topic pages after this build: the live ones (with the most pages each had), the rest kept."""
    merged = {page.url: page for page in known}
    for page in live:
        before = merged.get(page.url)
        merged[page.url] = replace(page, pages=max(page.pages, before.pages if before else 1))
    return tuple(sorted(merged.values(), key=lambda page: page.url))


def tag_redirects(known: Iterable[TagPage], live: Iterable[TagPage], renamed: Mapping[str, str]) -> dict[str, str]:
    """Return each address of the lock's topic pages that this build does not publish, with where it leads.

    `renamed` maps a former topic name to its new one (the user's renames, then the vocabularies').
    """
    live = list(live)
    by_name = {page.name: page for page in live}
    published = {address for page in live for address in page.addresses()}
    result: dict[str, str] = {}
    for page in known:
        first = page.url if page.url in published else _successor(page, by_name, renamed)
        for address in page.addresses():
            if address not in published:
                result[address] = first
    return dict(sorted(result.items()))


def _successor(page: TagPage, by_name: Mapping[str, TagPage], renamed: Mapping[str, str]) -> str:
    """Return the address a topic without a page leads to: its new name's page, its broader topic's, or the index.

    The same name at another address (a slug made another way) is the same topic.
    """
    if page.name in by_name:
        return by_name[page.name].url
    name, seen = page.name, {page.name}
    while name in renamed and renamed[name] not in seen:
        name = renamed[name]
        seen.add(name)
        if name in by_name:
            return by_name[name].url
    if page.parent in by_name:
        return by_name[page.parent].url
    return PATHS.tags_index_url
