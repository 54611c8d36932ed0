"""The built site's size by part (`build --summary`), and the host limits a build warns of (issue 43)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.build.sitesize import HOSTS, host_warnings, measure_site, part_of
from generator.cli import main
from generator.errors import SettingsError
from generator.settings import load_settings
from tests.conftest import write_tree

A1 = "We introduce GRACE, a framework for contrastive policy optimization."
A2 = "We propose ReaPER, a replay method for offline reinforcement learning."
DIGEST = {"in/digest.txt": f"Tiny 2026 Papers\n\n{A1}\n\n{A2}\n"}


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_each_kind_of_file_is_counted_in_its_part() -> None:
    assert part_of("papers/grace-1a2b3c/index.html") == "paper pages"
    assert part_of("tags/offline-rl/index.html") == "topic pages"
    assert part_of("tags/offline-rl.bib") == "topic exports"
    assert part_of("all/title/page/2/index.html") == "All papers"
    assert part_of("papers.json.gz") == "exports"
    assert part_of("pagefind-2/index/en_1.pf_index") == "search"
    assert part_of("feed-offline-rl.xml") == "feeds"
    assert part_of("assets/site.js") == "theme and scripts"
    assert part_of("404.html") == "other pages"


def test_the_walk_sums_every_file_once_and_finds_the_largest_and_the_fullest_folder(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "papers/a/index.html": "x" * 3000, "papers/b/index.html": "x" * 1000, "papers.json": "y" * 5000,
        "tags/t/index.html": "z" * 10, "tags/t.bib": "b" * 20,
    })
    size = measure_site(tmp_path)
    by_name = {part.name: (part.bytes, part.files) for part in size.parts}
    assert by_name["paper pages"] == (4000, 2) and by_name["exports"] == (5000, 1)
    assert by_name["topic exports"] == (20, 1) and by_name["topic pages"] == (10, 1)
    assert (size.bytes, size.files, size.folders) == (9030, 5, 5)
    assert size.largest == ("papers.json", 5000) and size.largest_page == ("papers/a/index.html", 3000)
    assert size.fullest == ("/", 3)  # papers/, tags/, papers.json (tags/ also holds 2)
    # A tar of the site, as GitHub uploads it: a header per entry, each file padded to 512 bytes.
    assert size.tar_bytes == 512 * 10 + 512 * (6 + 2 + 10 + 1 + 1)


def test_each_host_warns_of_its_own_documented_limit_from_80_percent(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"papers/p{i}/index.html": "x" for i in range(9)})
    size = measure_site(tmp_path)  # 9 files, 10 folders
    assert host_warnings(size, HOSTS["github-pages"]) == []
    # GitLab counts folders as entries: 19 of 20 is over 80%, 9 files alone would not be.
    gitlab = host_warnings(size, HOSTS["gitlab-pages"], max_files=20)
    assert len(gitlab) == 1 and "19 files and folders" in gitlab[0] and "GitLab Pages" in gitlab[0]
    assert "20" in gitlab[0] and "host_max_files" in gitlab[0]
    assert host_warnings(size, HOSTS["cloudflare-pages"], max_files=12) == []
    warned = host_warnings(size, HOSTS["cloudflare-pages"], max_files=11)
    assert warned and "Cloudflare Pages" in warned[0] and "9 files, 82%" in warned[0]
    assert host_warnings(size, HOSTS["none"]) == []
    big = measure_site(write_tree(tmp_path / "big", {"papers.json": "x" * 900}))
    site = host_warnings(big, HOSTS["github-pages"], max_bytes=1000)
    assert len(site) == 1 and "90%" in site[0] and "GitHub Pages" in site[0] and "host_max_mb" in site[0]


def test_netlify_warns_of_a_folder_near_54000_entries_and_cloudflare_of_a_file_near_25_mib() -> None:
    from generator.build.sitesize import Part, SiteSize

    size = SiteSize([Part("paper pages", 10, 50_000)], folders=50_000, fullest=("papers/", 50_000),
                    largest=("papers.json", 21 * 1024 * 1024))
    netlify = host_warnings(size, HOSTS["netlify"])
    assert len(netlify) == 1 and "papers/" in netlify[0] and "54,000" in netlify[0] and "netlify.com" in netlify[0]
    cloudflare = host_warnings(size, HOSTS["cloudflare-pages"])
    assert any("papers.json" in w and "25 MiB" in w for w in cloudflare)
    assert any("50,000 files" in w and "20,000" in w for w in cloudflare)


def test_a_host_that_is_not_known_is_rejected_before_any_work(tmp_path: Path) -> None:
    write_tree(tmp_path, {"paper-digest.toml": 'host = "geocities"\n'})
    with pytest.raises(SettingsError, match=r"host.*github-pages"):
        load_settings(tmp_path)
    write_tree(tmp_path, {"paper-digest.toml": "host_max_files = -1\n"})
    with pytest.raises(SettingsError, match="host_max_files"):
        load_settings(tmp_path)


@pytest.mark.slow
def test_build_summary_reports_the_size_by_part_and_a_low_limit_warns_or_stops_a_strict_build(project: Path) -> None:
    write_tree(project, {**DIGEST, "paper-digest.toml": 'host = "gitlab-pages"\nhost_max_files = 60\n'})
    summary = project / "summary.md"
    result = run("build", str(project / "in" / "digest.txt"), "--project", str(project), "--summary", str(summary))
    assert result.exit_code == 0, result.output
    files = sum(1 for p in (project / "site").rglob("*") if p.is_file())
    text = summary.read_text(encoding="utf-8")
    assert "| Size: paper pages | " in text and "in 2 files" in text
    assert f"in {files:,} files" in text  # the whole site's row counts every file
    assert "| Size: largest page | " in text
    # The console says it too, and warns, naming the host and the limit.
    assert "paper pages:" in result.output
    assert "warning:" in result.output and "GitLab Pages" in result.output and "of the 60 set for GitLab Pages" in result.output
    # --strict: the same site is an error (exit 1), naming the host.
    strict = CliRunner().invoke(main, ["build", str(project / "in" / "digest.txt"), "--project", str(project), "--strict"])
    assert strict.exit_code == 1 and "GitLab Pages" in strict.output
    # With no low limit set, a tiny site warns of nothing.
    write_tree(project, {"paper-digest.toml": 'host = "gitlab-pages"\n'})
    quiet = run("build", str(project / "in" / "digest.txt"), "--project", str(project))
    assert quiet.exit_code == 0 and "warning:" not in quiet.output


@pytest.mark.slow
def test_a_paper_page_carries_little_besides_its_article_and_cites_without_the_abstract(default_site) -> None:
    # Issue 43: the theme's chrome was 17.2-17.6 KB a page on the default digest, against a 5-7 KB article.
    for path in sorted(default_site.site_path.glob("papers/*/index.html")):
        page = path.read_text(encoding="utf-8")
        article = page[page.index("<article"):page.index("</article>")]
        assert len(page.encode()) - len(article.encode()) < 14_500, path
        assert '<img src="../../assets/logo.svg"' in page  # the logo a file, not an inline SVG twice
        assert "\n" not in page[page.index('<nav class="md-tabs"'):page.index("</nav>", page.index("md-tabs"))]
        cite = article[article.index('language-bibtex">'):]
        assert "abstract = {" not in cite[: cite.index("</code>")]
    # The abstract stays in the exports.
    assert "abstract = {" in (default_site.site_path / "papers.bib").read_text(encoding="utf-8")
