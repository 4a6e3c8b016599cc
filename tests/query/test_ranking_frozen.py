"""The ranking of a search, bit for bit, as settled: each reply's
items (ref, score, lexical score), in order, and its `total`, on the example brain and on a
generated brain whose frequent words have big (b/) postings (docs/replies.md#matching-and-ranking).

ranking_before.json holds those replies; it was written by this file run as a script (with an
earlier tree's `builder` and `bench` first on the path, to hold a new reader to that tree's ranking):

    PYTHONPATH=/path/to/earlier/tree .venv/bin/python tests/query/test_ranking_frozen.py

A change that means to rank otherwise writes it again, and says why in its commit.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FROZEN = HERE / "ranking_before.json"
NOW = "2026-12-02T12:00:00Z"
LIMIT = 10
EXAMPLE_SCOPES = [None, "memories", "memories/chat", "projects", "30d", "tags/web", "person:maya-chen"]
EXAMPLE_QUERIES = ["website", "launch plan", "the", "pricing page", "meeting notes deploy", "new website",
                   "brand refresh", "style guide colour", "hero feedback November 2026", "standup 2026-12-01"]
GENERATED_SCOPES = [None, "memories", "memories/chat", "memories/issues", "30d"]


def generated_queries(site: Path) -> list[str]:
    """The most frequent words (those with a big, b/, posting first: a shard names one by its
    number, in either format), alone and three at a time, and rarer ones."""
    from builder.bm25 import IndexReader, analyze
    reader = IndexReader(next((site / "_bf" / "search").iterdir()) / "index")
    terms = {t: e for k in range(reader.meta["shards"]) for t, e in reader._shard("t", k).items() if analyze(t) == [t]}
    count = {t: 10 ** 9 if isinstance(e, int) else sum(len(field[1]) for field in e) for t, e in terms.items()}
    ranked = sorted(terms, key=lambda t: (-count[t], t))
    return ranked[:12] + [" ".join(ranked[k:k + 3]) for k in range(0, 24, 3)] + ranked[300:3000:450]


def digest(reply: dict) -> dict:
    return {"total": reply["total"], "items": [[i["ref"], i["score"], i.get("lexical_score")] for i in reply["items"]]}


def replies(example: Path, generated: Path) -> list:
    from builder.query.search import search
    from builder.query.site import open_site
    out = []
    for site, scopes, queries in ((example, EXAMPLE_SCOPES, EXAMPLE_QUERIES),
                                  (generated, GENERATED_SCOPES, generated_queries(generated))):
        s = open_site(site)
        for scope in scopes:
            for query in queries:
                out.append([site.name, query, scope, digest(search(s, query, scope=scope, limit=LIMIT, mode="lexical"))])
    return out


def sites(root: Path) -> tuple[Path, Path]:
    """The example brain and a generated one of 1000 notes, built without vectors."""
    from bench.gen import generate
    from builder.build import build
    example, generated = root / "example", root / "generated"
    build([HERE.parents[1] / "examples" / "brain"], example, now=NOW, pagefind=False, embeddings=False)
    generate(root / "brain", 1000, records_per_note=3, seed=11)
    build([root / "brain"], generated, now=NOW, pagefind=False, embeddings=False)
    return example, generated


def test_replies_rank_as_before(tmp_path):
    example, generated = sites(tmp_path)
    reader_dir = next((generated / "_bf" / "search").iterdir()) / "index"
    assert list((reader_dir / "b").iterdir()), "the generated brain has big postings"
    frozen = json.loads(FROZEN.read_text("utf-8"))
    got = replies(example, generated)
    assert len(got) == len(frozen) and sum(bool(r[3]["items"]) for r in got) > 100
    for g, f in zip(got, frozen):
        assert g == f, g[:3]   # same refs, order, totals, and the same doubles


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        FROZEN.write_text("[\n" + ",\n".join(json.dumps(r) for r in replies(*sites(Path(tmp)))) + "\n]\n", "utf-8")
    print(f"wrote {FROZEN}", file=sys.stderr)
