"""Measure `paper-digest infer` on a strict-reader sample: write its requests, then turn answers into reader requests.

    python bench/reader_infer.py calls --sample-label 44-s30 --label 44-s30-infer
    # a model (or a helper standing in for one) answers each call of /work/reader/infer/<label>-<field>.jsonl
    # into <label>-<field>.answers.jsonl: one line {"id": ..., "answer": {"title", "summary", "topics", "area"}}
    python bench/reader_infer.py requests --sample-label 44-s30 --label 44-s30-infer

`calls` tags each sample paper (bench/reader_samples/<sample-label>-<field>.txt) inside the digest
of its venue-year, as `bench/reader_request_fields.py` does, and writes for it the chat messages
`paper-digest infer` would send (`offline_views`, `prompt.messages`: the field's candidate topics
and areas). `requests` checks each answer as `infer` does (`run.judge`), builds the venue's digest
with the answers as its stored results (`enrich` with `Inferred`), and writes the reader request
/work/reader/requests/<label>-<field>.jsonl with the areas, topics, title and summary the site
shows. The answers are not committed: they are a model's, and a reader judges the pages they make.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.reader_request_fields import CORPORA, REQUESTS, VENUES, pools, venue_sample
from bench.reader_request_tags import reader_fields, venue_digest
from generator.enrich import enrich_digest, offline_views
from generator.inference import limits_of
from generator.llm.apply import Inferred
from generator.llm.client import Reply
from generator.llm.prompt import Question, messages
from generator.llm.run import Job, judge
from generator.read import paper_id
from generator.settings import Settings

CALLS = Path("/work/reader/infer")
#: The samples of fields other than machine learning (ICLR's areas are not the model's to choose).
FIELDS = ("acl", "cvpr", "iros")


def jobs_of(settings: Settings, papers: list, wanted: set[str]) -> list[tuple[str, Job]]:
    """Return (corpus id, the request `infer` makes) of each wanted paper."""
    chosen = [paper for paper in papers if paper.source_id in wanted]
    views = offline_views(papers, settings, asked={paper.id for paper in chosen})
    return [(paper.source_id, Job(paper.id, paper_id(paper.abstract),
                                  Question(view.lead, tuple(n for n, _ in view.candidates), tuple(view.areas)),
                                  dict(view.candidates)))
            for paper, view in zip(chosen, views, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("calls", "requests"))
    parser.add_argument("--sample-label", required=True, help="the sample whose ids files name the papers")
    parser.add_argument("--label", required=True, help="names the calls, answers and request files")
    parser.add_argument("--model", default="stand-in", help="the model's name, as the pages say it")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--digest", type=int, default=600, help="papers of a venue's digest at most")
    args = parser.parse_args()
    found = pools(CORPORA)
    CALLS.mkdir(parents=True, exist_ok=True)
    for name in FIELDS:
        chosen, digest = venue_sample(name, found[name], args.count, args.digest, args.sample_label)
        wanted = {r["id"] for r in chosen}
        with tempfile.TemporaryDirectory() as folder:
            settings, papers = venue_digest(digest, Path(folder))
            jobs = jobs_of(settings, papers, wanted)
            limits = limits_of(settings)
            calls = CALLS / f"{args.label}-{name}.jsonl"
            if args.step == "calls":
                with open(calls, "w", encoding="utf-8") as handle:
                    for source_id, job in jobs:
                        system, user = messages(job.question, limits)
                        handle.write(json.dumps({"id": source_id, "system": system["content"],
                                                 "user": user["content"]}, ensure_ascii=False) + "\n")
                print(f"{len(jobs)} calls of {VENUES[name]} -> {calls}")
                continue
            answers = {}
            for line in (CALLS / f"{args.label}-{name}.answers.jsonl").read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                answers[row["id"]] = json.dumps(row["answer"], ensure_ascii=False)
            results = {job.id: judge(job, Reply(answers.get(source_id), 0, 0), limits, args.model)
                       for source_id, job in jobs}
            rejected = sum(bool(result.rejected) for result in results.values())
            enriched = {paper.source_id: paper for paper in enrich_digest(papers, settings,
                                                                          inferred=Inferred(results))[0]}
        rows = []
        for record in chosen:
            paper = enriched[record["id"]]
            rows.append({"id": record["id"], "abstract": record["abstract"],
                         "author_keywords": record.get("keywords") or [], **reader_fields(paper)})
        out = REQUESTS / f"{args.label}-{name}.jsonl"
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{len(rows)} papers -> {out} ({rejected} answers with a field rejected)")


if __name__ == "__main__":
    main()
