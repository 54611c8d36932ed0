"""Pages converted with less work (build/lean_markdown.py, raw_html.py): what MkDocs and Python-Markdown give."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as etree
from pathlib import Path

import markdown
import pytest
from markdown.extensions import md_in_html
from mkdocs.structure import pages as mkdocs_pages
from mkdocs.utils import meta

from generator.build.lean_markdown import html_blocks, raw_html_anchors
from generator.build.raw_html import whole_blocks

ROOT = Path(__file__).resolve().parent.parent


def _passes(source: str) -> tuple[tuple[list[str], list], tuple[list[str], list], bool]:
    """Python-Markdown's pass over `source` and the build's (its lines and stash each), and whether it took the short way."""
    results = []
    for run in (md_in_html.HtmlBlockPreprocessor.run, html_blocks):
        md = markdown.Markdown(extensions=["md_in_html", "attr_list", "toc"])
        lines = md.preprocessors["normalize_whitespace"].run(source.split("\n"))
        done = run(md.preprocessors["html_block"], lines)
        # (`md_in_html` stashes a `markdown` block as an element: compared by its serialisation)
        stash = [item if isinstance(item, str) else etree.tostring(item) for item in md.htmlStash.rawHtmlBlocks]
        results.append((done, stash))
    md = markdown.Markdown(extensions=["md_in_html"])
    short = whole_blocks(md, md.preprocessors["normalize_whitespace"].run(source.split("\n"))) is not None
    return results[0], results[1], short


def _anchors(source: str) -> tuple[set, set]:
    """The anchors MkDocs' collector finds in `source`'s raw HTML, and those the build's finds."""
    found = []
    for run in (mkdocs_pages._RawHTMLPreprocessor.run, raw_html_anchors):
        collector = mkdocs_pages._RawHTMLPreprocessor()
        md = markdown.Markdown(extensions=["md_in_html"])
        run(collector, md.preprocessors["normalize_whitespace"].run(source.split("\n")))
        found.append(collector.present_anchor_ids)
    return found[0], found[1]


def _build_plain_and_lean(project: Path) -> None:
    """Build `project` with plain MkDocs into `plain/` and with the build's MkDocs into `lean/` (Pagefind search)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PAPER_DIGEST_SEARCH": "pagefind", "PYTHONWARNINGS": "ignore"}
    for module, site in (("mkdocs", "plain"), ("generator.build.lean_mkdocs", "lean")):
        done = subprocess.run([sys.executable, "-m", module, "build", "--site-dir", site], cwd=project, env=env,
                              capture_output=True, text=True, check=False, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]


def _pages(docs: Path) -> list[Path]:
    return sorted(docs.rglob("*.md"))


@pytest.mark.parametrize("fixture", ["default_site", "hostile_site"])
def test_every_page_the_generator_writes_gets_the_pass_python_markdown_gives(fixture, request) -> None:
    site = request.getfixturevalue(fixture)
    settings = site if fixture == "default_site" else site[0]
    pages = _pages(settings.docs_path)
    short = {}
    for page in pages:
        body, _ = meta.get_data(page.read_text(encoding="utf-8"))
        theirs, ours, short[page] = _passes(body)
        assert ours == theirs, page
        mkdocs_anchors, anchors = _anchors(body)
        assert anchors == mkdocs_anchors, page
    papers = [page for page in pages if page.parent.name == "papers"]
    taken = sum(short[page] for page in papers)
    if fixture == "default_site":
        # The point of it: nearly every paper page skips the parse (those left have an autolink's `<`).
        assert taken >= 0.85 * len(papers), (taken, len(papers))
    else:
        # Attacks in the abstract that the parse would read as HTML (or an entity) send their page the long way.
        assert 0 < taken < len(papers)


@pytest.mark.parametrize(
    ("source", "short"),
    [
        ("# T\n\n<p class=\"x\" data-y>A <a href=\"../b/\">b</a> &amp; c &#8217; d & e</p>\n\nText & more.\n", True),
        ("<details class=\"info\">\n<summary>Why?</summary>\n<ul>\n<li><strong>A</strong> b</li>\n</ul>\n</details>\n",
         True),
        ("Text\n\n<pre><code class=\"language-bibtex\">@misc{a,\n  title = {{A}},\n\n}\n</code></pre>\n\n## End\n", False),
        ("<pre><code>@misc{a,\n  title = {{A &amp; B}},\n}\n</code></pre>\n\n## Source { data-x }\n\n<ul>\n<li>x</li>\n</ul>", True),
        ("<p>a</p>\n<p>b</p>\n\nText\n", False),  # two elements in one block
        ("<p>a</p> tail\n\nText\n", False),  # text after the element on its line
        ("<p>a</p>\ntext\n\nText\n", False),  # text on the next line, no blank line
        ("A [link](<https://example.org/a b>) in text\n\n<p>x</p>\n", False),  # an autolink's `<`
        ("AT&T and &copy without a semicolon\n\n<p>x</p>\n", False),  # the parse writes `&T;`, `&copy;`
        ("<p>a &name-x; b</p>\n", False),
        ("<!-- a comment -->\n\n<p>x</p>\n", False),
        ("<script>var a = '<p>';</script>\n\nText\n", False),
        ("<div markdown>\n\n*emphasis*\n\n</div>\n", False),
        ("<div markdown=\"1\">\n\n*emphasis*\n\n</div>\n", False),
        ("<P>upper</P>\n\nText\n", False),
        ("   <p>indented</p>\n\nText\n", False),
        ("<p>a<br>b</p>\n\nText\n", True),
        ("<ul class=\"pd-listing\">\n<li><p><a href=\"../p/\">T</a><br>\nS &amp; t</p></li>\n</ul>\n", True),
        ("<br>\n\nText\n", False),
        ("<p>a</br>b</p>\n\nText\n", False),
        ("<p>a<br/>b</p>\n\nText\n", False),
        ("<ul>\n<li>a\n</ul>\n", False),  # an unclosed tag
        ("<ul>\n<li>a</ul></li>\n", False),  # misnested
        ("<p>a</p></p>\n", False),
        ("<span>inline</span> at a line's start\n\nText\n", False),
        ("<p title=\"a > b\">x</p>\n\nText\n", False),  # a `>` in a value
        ("<p title='a>x</p>\n\nText's end>\n", False),  # the parse runs the open quote on into the text
        ("<p title=\"a\" data-x='b'>x</p>\n\nText\n", True),
        ("<p title='a' data-x=b>x</p>\n\nText\n", True),
        ("<p>a</p>", True),  # the last block, no newline after it
        ("\n\n\n<p>a</p>\n\n\n\n<ul>\n<li>b</li>\n</ul>\n\n\n", True),
        ("<table>\n<tr><td>a</td></tr>\n</table>\n\nText\n", True),
        ("<p>a <x-tag>b</x-tag></p>\n", False),  # a tag not on the list
        ("Text with a stray < sign\n\n<p>x</p>\n", False),
        ("Text with a stray > sign and 3 < 4\n", False),
        ("Only text, > and &amp;.\n\n## Heading\n", True),
        ("", True),
    ],
)
def test_the_short_way_gives_what_the_parse_gives_and_is_taken_only_for_a_plain_page(source, short) -> None:
    theirs, ours, took = _passes(source)
    assert ours == theirs
    assert took is short


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("<p id=\"x\">a</p>\n\nText\n", {"x"}),
        ("<p title=\"a\" id='y'>a</p>\n\nText\n", {"y"}),
        ("<h2 id=z>a</h2>\n", {"z"}),
        ("<ul>\n<li><a name=\"n\" href=\"#n\">a</a></li>\n</ul>\n", {"n"}),
        ("<p>the id of a name</p>\n\nAn id and a name in text.\n", set()),
        ("<p title=\"the id = a name\">a</p>\n", set()),
        ("<p title='a>x</p>\n\nid=\"q\" Text's end>\n", set()),
        ("Text with an autolink <https://example.org/?id=1>\n\n<p id=\"w\">a</p>\n", {"w"}),
    ],
)
def test_the_anchors_of_a_page_are_those_mkdocs_finds(source, expected) -> None:
    mkdocs_anchors, anchors = _anchors(source)
    assert anchors == mkdocs_anchors == expected


@pytest.mark.parametrize("paper_in_nav", [False, True])
def test_a_site_of_generated_pages_is_built_as_plain_mkdocs_builds_it(default_site, tmp_path, paper_in_nav) -> None:
    # The whole pass in place, through MkDocs and the theme: every page the same bytes. The theme's
    # fragments kept per folder (lean_mkdocs.KeptFragments) too, when a nav link lies in the papers'
    # folder: its tab's relative link differs on that paper's own page.
    project = tmp_path / "project"
    shutil.copytree(default_site.docs_path, project / "site_src")
    config = (default_site.project_dir / "mkdocs.yml").read_text(encoding="utf-8")
    if paper_in_nav:
        paper = sorted((project / "site_src" / "papers").glob("*.md"))[1].name
        config = config.replace("  - About: about.md\n", f"  - About: about.md\n  - A paper: papers/{paper}\n")
        assert paper in config
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copytree(default_site.project_dir / "overrides", project / "overrides")
    _build_plain_and_lean(project)
    files = sorted(p.relative_to(project / "plain") for p in (project / "plain").rglob("*.html"))
    assert len([f for f in files if f.parts[0] == "papers"]) >= 50
    assert files == sorted(p.relative_to(project / "lean") for p in (project / "lean").rglob("*.html"))
    assert [f for f in files if (project / "plain" / f).read_bytes() != (project / "lean" / f).read_bytes()] == []


@pytest.mark.parametrize("extension", ["footnotes", "toc"])
def test_pages_converted_one_after_another_keep_nothing_of_each_other(tmp_path, extension) -> None:
    # One Markdown instance serves every page, reset between pages, only for extensions whose reset
    # clears them: a link reference defined on the first page is not one on the next, and footnotes'
    # numbers would run on (footnotes are not on that list: their site is converted as MkDocs does).
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(4):
        (docs / f"p{n}.md").write_text(
            f"# Page {n}\n\nText[^a] and more[^b], [a link][r].\n\n## Cite\n\n## Cite\n\n[^a]: First {n}.\n"
            f"[^b]: Second.\n" + ("\n[r]: https://example.org/\n" if n == 0 else ""),
            encoding="utf-8",
        )
    (tmp_path / "mkdocs.yml").write_text(
        f"site_name: S\ndocs_dir: docs\ntheme:\n  name: material\n  font: false\nmarkdown_extensions:\n  - {extension}\n",
        encoding="utf-8",
    )
    _build_plain_and_lean(tmp_path)
    for n in range(4):
        page = (tmp_path / "lean" / f"p{n}" / "index.html").read_text(encoding="utf-8")
        assert page == (tmp_path / "plain" / f"p{n}" / "index.html").read_text(encoding="utf-8")
        assert 'id="cite"' in page and 'id="cite_1"' in page and 'id="cite_2"' not in page
        assert ('href="https://example.org/"' in page) is (n == 0)


def test_material_search_attributes_are_stripped_as_material_strips_them(tmp_path) -> None:
    # With Pagefind, Material's search plugin only strips `data-search-*="..."` attributes from each page;
    # the build looks for one first (lean_mkdocs._lighter_page_context): the same pages either way.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n<p data-search-exclude>kept as it is</p>\n", encoding="utf-8")
    (docs / "a.md").write_text('# A\n\n<p data-search-boost="2" class="x">stripped</p>\n\nText\n', encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: S\ndocs_dir: docs\ntheme:\n  name: material\n  font: false\nplugins:\n  - search\n",
        encoding="utf-8",
    )
    _build_plain_and_lean(tmp_path)
    for page in ("index.html", "a/index.html"):
        assert (tmp_path / "lean" / page).read_bytes() == (tmp_path / "plain" / page).read_bytes()
    stripped = (tmp_path / "lean" / "a" / "index.html").read_text(encoding="utf-8")
    assert '<p class="x">stripped</p>' in stripped and "data-search-boost" not in stripped
    assert "<p data-search-exclude>kept as it is</p>" in (tmp_path / "lean" / "index.html").read_text(encoding="utf-8")
