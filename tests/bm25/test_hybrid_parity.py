"""Hybrid, semantic and lexical search (builder/query/vector.py ↔ site/engine/vector.js) reply
alike in Python and node over a brain with vectors: the example brain plus the notes of the
vocabulary-mismatch set, its vectors in buckets of ~2 docs so that searches probe
a few of many (builder/vectors/buckets.py). Also: the modes' rules (arms, degraded, exit 6 without vectors, the
known-item guard). Chromium: tests/browser/test_parity.py."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from builder.build import build
from builder.kernel.errors import BfError, EmbeddingsMissing
from builder.query.search import search
from builder.query.site import open_site
from builder.vectors import buckets

from test_multilingual import python_replies

ROOT = Path(__file__).resolve().parents[2]
NOW = "2026-12-02T12:00:00Z"
MISMATCH = json.loads((ROOT / "tests" / "fixtures" / "mismatch.json").read_text("utf-8"))


def mixed_brain(root: Path) -> Path:
    shutil.copytree(ROOT / "examples" / "brain", root)
    for note in MISMATCH["notes"]:
        (root / note["path"]).parent.mkdir(parents=True, exist_ok=True)
        (root / note["path"]).write_text(f"# {note['title']}\n\n{note['body']}\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    base = tmp_path_factory.mktemp("hybrid")
    brain = mixed_brain(base / "brain")
    rate = buckets.RATE
    buckets.RATE = 2     # buckets of ~2 docs: many more than PROBE, so every search probes
    try:
        build([brain], base / "site", now=NOW, pagefind=False)
    finally:
        buckets.RATE = rate
    build([brain], base / "plain", now=NOW, pagefind=False, embeddings=False)
    return base / "site", base / "plain"


def calls() -> list:
    queries = [q["query"] for q in MISMATCH["queries"]] + [
        "new website", "pricing tiers", "who owns the blog archive", "launch", "Alice Martin", "東京 タワー",
        "Ünïcödé", "the of and", "café", "\"launch checklist\"", "budget", "zzzqqq", "xqzvvk brrtt",
        "What did Carol say about the logo?", "Bob and Alice launch", "the notes of the team about the annual evaluation"]
    out = [[q, {"mode": m}] for q in queries for m in ("hybrid", "semantic")]
    out += [[q, {"mode": "hybrid", "scope": s, "limit": 5}] for q in queries[::5] for s in ("memories", "projects", "mm")]
    out += [[q, {}] for q in queries[::3]] + [["launch", {"mode": "lexical"}], ["x", {"mode": "fuzzy"}]]
    return out


def test_python_equals_node(sites, run_node):
    site, _ = sites
    todo = calls()
    js = run_node("node_site_search.mjs", {"site": str(site), "calls": todo})
    py = []
    for query, options in todo:
        try:
            py.extend(python_replies(site, [(query, options)]))
        except BfError as exc:   # the bad mode: both runtimes raise the same error
            py.append(exc.to_json())
    bad = [(c, p, j) for c, p, j in zip(todo, py, js) if p != j]
    assert not bad, bad[:3]
    assert sum(bool(r.get("items")) and r["items"][0].get("similarity") is not None for r in py) > 40


def test_modes(sites):
    site, plain = sites
    s = open_site(site)
    hybrid = search(s, "how do we charge customers", mode="hybrid")
    assert hybrid["arms"] == ["lexical", "vector"] and hybrid["degraded"] is False
    default = search(s, "how do we charge customers")      # hybrid where the site has vectors
    assert default["arms"] == ["lexical", "vector"] and default["degraded"] is False
    assert search(s, "launch", mode="lexical")["arms"] == ["lexical"]
    semantic = search(s, "how do we charge customers", mode="semantic")
    assert semantic["arms"] == ["vector"] and all(i["lexical_score"] is None for i in semantic["items"])
    p = open_site(plain)
    lexical = search(p, "pricing tiers")
    assert lexical["arms"] == ["lexical"] and lexical["degraded"] is True
    assert all(i["similarity"] is None for i in lexical["items"])
    for mode in ("hybrid", "semantic"):
        with pytest.raises(EmbeddingsMissing) as err:
            search(p, "pricing", mode=mode)
        assert err.value.exit == 6 and err.value.to_json()["code"] == "embeddings_missing"


def test_known_item_stays_first(sites):
    """A query that is a note's title keeps that note first whatever the vector arm thinks."""
    s = open_site(sites[0])
    for q in ("Pricing tiers", "New website", "Garden", "Coffee machine", "Launch checklist"):
        lexical = search(s, q, mode="lexical")["items"]
        assert search(s, q, mode="hybrid")["items"][0]["ref"] == lexical[0]["ref"]


def test_words_that_match_stay_ahead_of_the_vector_arm(sites):
    """Any-word queries: an item holding two of the words (one of two: a typo in the other) is
    strong, and the vector arm re-ranks only below it (with weight 3 it moved "prcing tiers"'
    note from first to fifth)."""
    s = open_site(sites[0])
    for q in ("prcing tiers", "pricing tiers qqzvx", "Alice Martin budget zzkq"):
        lexical = [i["ref"] for i in search(s, q, mode="lexical")["items"]]
        assert lexical and search(s, q, mode="hybrid")["items"][0]["ref"] == lexical[0], q


def test_vector_arm_finds_what_words_miss(sites):
    s = open_site(sites[0])
    top3 = lambda mode: [i["ref"] for i in search(s, "annual employee evaluation", mode=mode)["items"][:3]]
    assert "mm/performance-reviews.md" not in top3("lexical")
    assert "mm/performance-reviews.md" in top3("hybrid")


def test_gibberish_brings_nothing_of_its_own(sites):
    """A query made only of word pieces has a vector close to everything: the vector arm adds no
    item for it (in either runtime: the parity calls hold the same queries)."""
    s = open_site(sites[0])
    for q in ("zzzqqq", "xqzvvk brrtt"):
        for mode in ("hybrid", "semantic"):
            assert search(s, q, mode=mode)["items"] == [], (q, mode)
            assert search(s, q, mode=mode, scope="memories/brief")["items"] == [], (q, mode)
    assert search(s, "annual employee evaluation", mode="semantic")["items"]


def test_no_vector_scan_when_word_matches_fill_the_reply(sites, monkeypatch):
    """Additions follow every strong item: when those fill the reply the arm does not scan
    every vector for them (node agrees: the parity calls include limit 5), and the items are
    those of the larger reply's first places."""
    from builder.query import vectorstore
    s = open_site(sites[0])
    scans = []
    real = vectorstore.BrainVectors.nearest
    monkeypatch.setattr(vectorstore.BrainVectors, "nearest", lambda self, *a: scans.append(a) or real(self, *a))
    wide = search(s, "pricing", mode="hybrid", limit=50)
    assert scans
    scans.clear()
    narrow = search(s, "pricing", mode="hybrid", limit=1)
    assert not scans and narrow["items"] == wide["items"][:1]
    search(s, "transferring our workplace to another address", mode="hybrid", limit=1)   # words missed: the arm adds
    assert scans



def test_the_arm_reads_only_the_buckets_it_probes(sites):
    """The arm's own candidates come from the PROBE buckets nearest the query: it reads those,
    not every vector, and ranks their docs as a scan of every doc would; scanning every bucket
    gives exactly the nearest items of that scan."""
    from builder.query.search import open_stores
    from builder.query.vector import PROBE
    from builder.query.vectorstore import brain_vectors, table
    s = open_site(sites[0])
    vectors = brain_vectors(s, open_stores(s, None)[0]["brain"])
    assert sum(g[3] for g in vectors.meta["groups"]) > PROBE + 5
    q = table(s).query("annual employee evaluation", vectors.weights())
    qq = sum(v * v for v in q)
    probed = vectors.nearest(q, qq, None, 20, PROBE)
    assert len(vectors.blocks) == PROBE and not vectors.vectors   # no row read: no lexical candidate
    seen = {int(d) for _, ids in vectors.blocks.values() for d in ids}
    every = sorted(((vectors.similarity(q, qq, d), d) for _, first, count, *_ in vectors.meta["groups"]
                    for d in range(first, first + count) if vectors.addable(d)), key=lambda sd: (-sd[0], sd[1]))
    assert probed == [sd for sd in every if sd[1] in seen][:20]
    assert vectors.nearest(q, qq, None, 20) == every[:20]
    with pytest.MonkeyPatch.context() as m:   # a cold search's plain integers pick and rank alike
        m.setitem(sys.modules, "numpy", None)
        s = open_site(sites[0])
        assert brain_vectors(s, open_stores(s, None)[0]["brain"]).nearest(q, qq, None, 20, PROBE) == probed


def test_the_brains_weights_weigh_the_query(sites):
    """The query's vector weighs each token by the brain's weights file (vectors/weights.py), as
    the documents were embedded: a token many of the brain's docs hold weighs less than 16
    sixteenths, the others 16; node gives the same replies for such queries (the parity calls
    hold "the notes of the team about the annual evaluation")."""
    from builder.query.search import open_stores
    from builder.query.vectorstore import brain_vectors, table
    from builder.vectors import doc_tokens
    s = open_site(sites[0])
    vectors = brain_vectors(s, open_stores(s, None)[0]["brain"])
    weights = vectors.weights()
    text = "the notes of the team about the annual evaluation"
    assert 1 <= weights[doc_tokens("the")[0]] < 16 and all(1 <= w < 16 for w in weights.values())
    assert any(t not in weights for t in doc_tokens(text))
    rows = [table(s).row(t) for t in doc_tokens(text)]
    assert table(s).query(text, weights) == [sum(weights.get(t, 16) * r[i] for t, r in zip(doc_tokens(text), rows))
                                             for i in range(len(rows[0]))]
    assert table(s).query(text, weights) != [16 * sum(column) for column in zip(*rows)]
