"""Block bounds (bm25/blocks.py, FORMAT.md#block-bounds): a ranking that reads only the l/ chunks
of the hits that may rank first gives the replies of the one that weighs every hit, bit for
bit, in Python and in node, on a generated brain big enough that it skips chunks; and it does
skip them."""
from __future__ import annotations

import json

import pytest

from builder.bm25 import IndexReader, analyze
from builder.query import search as mod
from builder.query import topk
from builder.query.site import open_site

NOW = "2026-12-02T12:00:00Z"
SCOPES = [None, "memories", "memories/chat", "memories/issues", "projects", "30d"]


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A generated brain of 2500 notes with 4 records each, its l/ chunks of 1,000 docs (a
    site's are of layout.LENGTH_CHUNK, 5,000: a brain this size would hold 6): ~30 chunks."""
    from bench.gen import generate
    from builder.bm25 import layout
    from builder.build import build
    root = tmp_path_factory.mktemp("blocks")
    generate(root / "brain", 2500, records_per_note=4, seed=5)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(layout, "LENGTH_CHUNK", 1000)
        build([root / "brain"], root / "site", now=NOW, pagefind=False, embeddings=False)
    assert _reader(root / "site").meta["lengthChunk"] == 1000
    return root / "site"


def _reader(site) -> IndexReader:
    return IndexReader(next((site / "_bf" / "search").iterdir()) / "index")


def _queries(site) -> list[str]:
    """Frequent words alone and three at a time, rarer ones, and a word with its exact form."""
    reader = _reader(site)
    terms = {t: e for k in range(reader.meta["shards"]) for t, e in reader._shard("t", k).items() if analyze(t) == [t]}
    count = {t: 10 ** 9 if isinstance(e, int) else sum(len(field[1]) for field in e) for t, e in terms.items()}
    ranked = sorted(terms, key=lambda t: (-count[t], t))
    return ranked[:16] + [" ".join(ranked[k:k + 3]) for k in range(0, 30, 3)] + ranked[40:400:60] + ["Décision"]


def _replies(site, queries) -> list:
    s = open_site(site)
    out = []
    for scope in SCOPES:
        for query in queries:
            for limit in (1, 10, 50):
                out.append(mod.search(s, query, scope=scope, limit=limit, mode="lexical"))
    return out


def test_pruned_ranking_equals_the_full_one(big, monkeypatch):
    monkeypatch.setattr(topk, "_BOUNDS", True)
    queries = _queries(big)
    pruned = _replies(big, queries)
    monkeypatch.setattr(topk, "blocked", lambda reader, words: None)
    full = _replies(big, queries)
    assert sum(bool(r["items"]) for r in full) > 200
    for a, b in zip(pruned, full):
        assert a == b, (a["query"], a["scope"])


def test_node_ranks_alike(big, run_node):
    queries = _queries(big)[:24]
    calls = [[q, {"scope": scope, "limit": 50, "mode": "lexical"}] for scope in SCOPES[:4] for q in queries]
    js = run_node("node_site_search.mjs", {"site": str(big), "calls": calls})
    s = open_site(big)
    assert len(js) == len(calls)
    for (query, options), reply in zip(calls, js):
        assert json.loads(json.dumps(mod.search(s, query, **options))) == reply, (query, options)


def test_frequent_words_skip_length_chunks(big, monkeypatch):
    """The l/ files a cold search of each of the most frequent words reads, against those its
    postings span (what weighing every hit reads)."""
    monkeypatch.setattr(topk, "_BOUNDS", True)
    reader = _reader(big)
    read_all, held_all = 0, 0
    for word in _queries(big)[:16]:
        s = open_site(big)   # cold: nothing read
        reply = mod.search(s, word, mode="lexical")
        store = next(iter(s.stores.values()))
        read = {k for kind, k, *_ in store.reader._chunks if kind == "l"}
        held = {d // reader.meta["lengthChunk"] for _, ids, _ in reader.raw(word) for d in ids}
        assert reply["total"] > 500 and read <= held
        read_all, held_all = read_all + len(read), held_all + len(held)
    print(f"l/ files read {read_all} of {held_all}")
    # 1,000 documents a file (the fixture's): here ~83% are read; weighing every hit reads all
    assert read_all < 0.9 * held_all, (read_all, held_all)


def test_length_floors_are_each_chunks_least_length(big):
    reader = _reader(big)
    floors = reader.meta["lengthFloors"]
    assert len(floors) == reader.meta["lengthChunks"]
    for k, row in enumerate(floors):
        try:
            chunk = reader._chunk("l", k)
        except FileNotFoundError:   # only unused ids: no file
            assert row == [0] * len(reader.meta["fields"])
            continue
        assert row == [min((n for n in column if n), default=0) for column in chunk]
