"""What a reader's site costs in the browser: the map's frame time, papers-like-this payload and latency (not a test).

    python bench/reader_site.py [--size 20000] [--site PATH] [--sample 100]

Builds a digest of `--size` papers from ../shared/corpora as bench/scale.py does
(or takes an already built `--site`), serves it on 127.0.0.1 and drives headless
Chromium (1280 x 900) through it:

1. the map: how much of the canvas the central 98% of papers cover, how many
   topic labels are drawn, and the time to draw one frame while a mouse drag
   pans the zoomed map (each frame's drawing, from map.js, and the intervals
   between animation frames): median and 95th percentile;
2. papers like this abstract, the shipped way (each paper's strongest words,
   fetched by word shard): for `--sample` papers, whether the paper's own
   abstract finds it first and the second half of its abstract in the top 3,
   and each query's bytes fetched (shards and chunks not yet cached: a first
   query) and seconds to answer;
3. the other way the issue suggests, measured on the same papers: Pagefind
   (the large digest's search index) queried once per word with the text's 8
   most distinctive words (rarest first by Pagefind's own counts, after a
   search of each of the text's words), scores summed: bytes, seconds, hits.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.model import PATHS
from generator.render.digest_exports import read_export, written_export
from tests.browser.chromium import launch
from tests.browser.conftest import serve

#: The second way: Pagefind queried word by word (its multi-word search wants every word in a page).
PAGEFIND_SIMILAR = """async ([base, text]) => {
  const started = performance.now();
  const pagefind = await import(new URL('pagefind/pagefind.js', base).href);
  await pagefind.options({ baseUrl: new URL(base).pathname, noWorker: true });
  await pagefind.init();
  const parts = await (await fetch(new URL('pagefind/parts.json', base))).json();
  for (const folder of parts.parts) await pagefind.mergeIndex(new URL(folder, base).pathname);
  const stop = new Set((await (await fetch(new URL('similar/index.json', base))).json()).stop);
  const words = Array.from(new Set((text.toLowerCase().match(/[a-z][a-z0-9-]*[a-z0-9]/g) || [])
    .filter(w => !stop.has(w) && w.length > 3)));
  // Each word's document count, from Pagefind itself (this is what fetches its index chunks).
  const counts = [];
  for (const word of words) counts.push([word, (await pagefind.search(word)).results.length]);
  const chosen = counts.filter(c => c[1] > 0).sort((a, b) => a[1] - b[1]).slice(0, 8);
  const scores = new Map(), found = new Map();
  for (const [word] of chosen) {
    for (const r of (await pagefind.search(word)).results) {
      scores.set(r.id, (scores.get(r.id) || 0) + r.score);
      found.set(r.id, r);
    }
  }
  const best = Array.from(scores.entries()).sort((a, b) => b[1] - a[1]).slice(0, 3);
  const urls = [];
  for (const [id] of best) urls.push((await found.get(id).data()).url);
  return { urls, seconds: (performance.now() - started) / 1000 };
}"""


def build(size: int, folder: Path) -> Path:
    """Build a digest of `size` corpus abstracts in `folder`; return its site."""
    from bench.scale import abstracts
    from generator.build import build_site
    from generator.pipeline import generate
    from generator.settings import load_settings
    from tests.conftest import copy_project

    project = copy_project(folder / "project")
    source = project / "in" / "digest.txt"
    source.parent.mkdir()
    text = "\n\n".join(abstracts(ROOT.parent / "shared" / "corpora", size))
    source.write_text(f"Scale {size} Papers\n\n{text}\n", encoding="utf-8")
    settings = load_settings(project)
    report = generate([source], settings)
    build_site(settings, report.engine)
    return settings.site_path


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure_map(page, url: str, count: int) -> None:
    page.goto(url + "map/")
    ready = f"window.pdMap !== undefined && window.pdMap.visibleCount() === {count}"
    page.wait_for_function(ready, timeout=120_000)
    canvas = page.locator(".pd-map canvas")
    canvas.scroll_into_view_if_needed()
    share = page.evaluate(
        """(count) => { const v = window.pdMap.view(), xs = [], ys = [];
            for (let i = 0; i < count; i++) { const p = window.pdMap.screenPoint(i); xs.push(p[0]); ys.push(p[1]); }
            const cut = Math.floor(count * 0.005);
            const span = a => { a.sort((p, q) => p - q); return a[a.length - 1 - cut] - a[cut]; };
            return span(xs) * span(ys) / (v.width * v.height); }""",
        count,
    )
    labels = page.evaluate("window.pdMap.labels().length")
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    page.evaluate("""() => { window.pdGaps = []; let last = performance.now();
        const tick = now => {
            window.pdGaps.push(now - last); last = now;
            if (window.pdGaps.length < 100000) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick); }""")
    before = len(page.evaluate("window.pdMap.frameTimes()"))
    box = canvas.bounding_box()
    middle_x, middle_y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(middle_x, middle_y)
    page.mouse.down()
    started = time.perf_counter()
    for step in range(120):  # back and forth, 150 px, a little up and down
        page.mouse.move(middle_x + 150 * ((step % 40) / 40 - 0.5), middle_y + step % 7)
    page.mouse.up()
    elapsed = time.perf_counter() - started
    draws = page.evaluate("window.pdMap.frameTimes()")[before:]
    gaps = page.evaluate("window.pdGaps")[2:]
    print(f"map at {count:,} papers: central 98% box covers {share:.0%} of the canvas; {labels} topic labels drawn")
    print(f"  panning: {len(draws)} frames drawn in {elapsed:.1f} s of dragging; draw time median "
          f"{statistics.median(draws):.1f} ms, p95 {percentile(draws, 0.95):.1f} ms; frame interval median "
          f"{statistics.median(gaps):.1f} ms, p95 {percentile(gaps, 0.95):.1f} ms")


def measure_similar(browser, url: str, records: list[dict], sample: int) -> None:
    rng = random.Random(7)
    chosen = rng.sample(records, min(sample, len(records)))
    shipped: dict[str, list[float]] = {"own": [], "half": [], "bytes": [], "seconds": []}
    other: dict[str, list[float]] = {"half": [], "bytes": [], "seconds": []}
    for record in chosen:
        words = record["abstract"].split()
        half = " ".join(words[len(words) // 2 :])
        for kind, text in (("own", record["abstract"]), ("half", half)):
            # A fresh page each time: what a first query fetches, nothing cached.
            context = browser.new_context()
            page = context.new_page()
            fetched: dict[str, int] = {}

            def on_response(response, fetched=fetched) -> None:
                with contextlib.suppress(Exception):
                    fetched[response.url] = len(response.body()) if response.ok else 0

            page.goto(url + "similar/")
            page.wait_for_function("window.pdSimilar !== undefined")
            page.wait_for_load_state("networkidle")
            page.on("response", on_response)
            page.evaluate("(t) => window.pdSimilar.rank(t)", text)
            page.wait_for_function("(document.querySelector('[data-pd-similar]').dataset.seconds || '') !== ''",
                                   timeout=60_000)
            titles = page.eval_on_selector_all(".pd-similar__item .pd-paper-link", "a => a.map(x => x.textContent)")
            shipped["bytes"].append(sum(fetched.values()))
            shipped["seconds"].append(float(page.evaluate("document.querySelector('[data-pd-similar]').dataset.seconds")))
            if kind == "own":
                shipped["own"].append(bool(titles) and titles[0] == record["title"])
            else:
                shipped["half"].append(record["title"] in titles[:3])
            context.close()
        if len(other["bytes"]) < min(30, sample):
            context = browser.new_context()
            page = context.new_page()
            fetched = {}
            page.goto(url + "similar/")
            page.wait_for_load_state("networkidle")
            page.on("response", lambda response, fetched=fetched: fetched.__setitem__(
                response.url, len(response.body()) if response.ok else 0))
            answer = page.evaluate(PAGEFIND_SIMILAR, [url, half])
            other["bytes"].append(sum(fetched.values()))
            other["seconds"].append(answer["seconds"])
            other["half"].append(any(u.rstrip("/").endswith(record["url"].rstrip("/")) for u in answer["urls"]))
            context.close()
    n = len(chosen)
    print(f"papers like this abstract ({n} papers): own abstract first {sum(shipped['own']):.0f}/{n}, "
          f"second half in the top 3 {sum(shipped['half']):.0f}/{n}")
    print(f"  shipped (word shards): a first query fetches median {statistics.median(shipped['bytes']) / 1e3:.0f} KB, "
          f"max {max(shipped['bytes']) / 1e3:.0f} KB; answers in median {statistics.median(shipped['seconds']):.2f} s, "
          f"p95 {percentile(shipped['seconds'], 0.95):.2f} s")
    m = len(other["bytes"])
    if m:
        print(f"  Pagefind with the 8 most distinctive words ({m} second halves): top 3 {sum(other['half']):.0f}/{m}; "
              f"fetches median {statistics.median(other['bytes']) / 1e3:.0f} KB, "
              f"max {max(other['bytes']) / 1e3:.0f} KB; "
              f"answers in median {statistics.median(other['seconds']):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=20_000)
    parser.add_argument("--site", type=Path, help="an already built site (default: build one of --size papers)")
    parser.add_argument("--sample", type=int, default=100)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="reader-site-") as folder:
        site = args.site or build(args.size, Path(folder))
        # A digest's papers.json, or its papers.json.gz once it is 100 MB (gzip_exports_min_mb).
        published = written_export(site, PATHS.papers_json)
        assert published is not None, f"{site}: no papers.json"
        records = json.loads(read_export(published))
        index = json.loads((site / "similar" / "index.json").read_text(encoding="utf-8"))
        total = sum(f.stat().st_size for f in (site / "similar").iterdir())
        print(f"{len(records):,} papers; similar/ holds {total / 1e6:.1f} MB in {index['shards']} word shards and "
              f"{-(-len(records) // index['chunk'])} paper chunks (fetched a few at a time)")
        # Do the largest topics read as regions? Their papers near their label (the 3 x 3 cells of a
        # 16 x 16 grid around it: 3.5% of the canvas, so 3.5% of a topic's papers if it were spread evenly).
        data = json.loads((site / "map.json").read_text(encoding="utf-8"))
        shares = [label["papers"] / data["topics"][label["topic"]]["count"] for label in data["labels"][:10]]
        print(f"the 10 largest topics keep a median {statistics.median(shares):.0%} of their papers (min "
              f"{min(shares):.0%}) within 3.5% of the canvas around their label (spread evenly: 3.5%)")
        server = serve(site)
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright, None)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                measure_map(page, server.url, len(records))
                page.close()
                measure_similar(browser, server.url, records, args.sample)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
