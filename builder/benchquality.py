"""`python -m builder.bench --quality`: search quality per arm (issue 17), hit@3 and MRR@10 for
lexical, semantic and hybrid search on
  known_item  examples/brain with tests/fixtures/quality.json (the example brain's known items);
  mismatch    tests/fixtures/mismatch.json: queries sharing no content word with their target,
              its notes added to a generated brain (builder/benchgen.py) of DISTRACTORS notes.
An item counts as the expected one when its ref is `expect` or a section of it.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import MODES
from .benchgen import NOW, generate
from .build import build
from .query.search import search
from .query.site import open_site

ROOT = Path(__file__).resolve().parent.parent
DISTRACTORS = 1000


def _rank(items: list[dict], expect: str) -> int | None:
    for k, item in enumerate(items):
        if item["ref"] == expect or item["ref"].startswith(expect + "#"):
            return k
    return None


def score(site_dir: Path, queries: list[dict]) -> dict:
    """{mode: {hit@3, mrr@10}} over `queries` ([{query, expect}])."""
    site, out = open_site(site_dir), {}
    for mode in MODES:
        ranks = [_rank(search(site, q["query"], limit=10, mode=mode)["items"], q["expect"]) for q in queries]
        out[mode] = {"hit@3": round(sum(r is not None and r < 3 for r in ranks) / len(ranks), 3),
                     "mrr@10": round(sum(1 / (r + 1) for r in ranks if r is not None) / len(ranks), 3)}
    return out


def mismatch_brain(root: Path) -> list[dict]:
    """Generate the distractor brain at `root` with the mismatch set's notes; return its queries."""
    data = json.loads((ROOT / "tests" / "fixtures" / "mismatch.json").read_text("utf-8"))
    generate(root, DISTRACTORS, records_per_note=1)
    for note in data["notes"]:
        path = root / note["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {note['title']}\n\n{note['body']}\n", encoding="utf-8")
    return data["queries"]


def quality(work: Path) -> dict:
    known = json.loads((ROOT / "tests" / "fixtures" / "quality.json").read_text("utf-8"))["queries"]
    build([ROOT / "examples" / "brain"], work / "known_site", now=NOW, pagefind=False)
    queries = mismatch_brain(work / "mismatch_brain")
    build([work / "mismatch_brain"], work / "mismatch_site", now=NOW, pagefind=False)
    return {"known_item": score(work / "known_site", known), "mismatch": score(work / "mismatch_site", queries),
            "queries": {"known_item": len(known), "mismatch": len(queries)}}
