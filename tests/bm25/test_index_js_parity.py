"""site/engine/bm25/ returns what IndexReader returns, bit for bit (scores are compared
with ==, not approximately: FORMAT.md says why they are equal)."""
import gzip
import json

import pytest

from builder.bm25 import IndexReader, write_index
from builder.bm25 import layout as layout_mod
from builder.bm25.postings import unpack_big

from bm25_corpus import MULTILINGUAL, make_docs, make_queries

pytestmark = pytest.mark.parity


def py_results(reader, queries):
    return [[[ref, score, sorted(m), tier] for ref, score, m, tier in reader.search(w, r, limit)]
            for w, r, limit in queries]


def js_results(run_node, directory, queries):
    out = run_node("node_search.mjs", {"dir": str(directory), "queries": queries})
    return [[[e["ref"], e["score"], e["matched"], e["tier"]] for e in res] for res in out["results"]], out


def test_js_equals_python(run_node, tmp_path, monkeypatch):
    # Small thresholds so this corpus also exercises big-term (binary) files and
    # several shards and ref chunks.
    monkeypatch.setattr(layout_mod, "BIG_POSTINGS", 60)
    monkeypatch.setattr(layout_mod, "SHARD_TARGET", 4096)
    monkeypatch.setattr(layout_mod, "REF_CHUNK", 50)
    monkeypatch.setattr(layout_mod, "LENGTH_CHUNK", 64)
    docs, vocab = make_docs(300, seed=11)
    ml = [{"ref": f"ml/{i:03d}.md", "title": t, "aliases": a, "headings": h, "body": b,
           "names": [t, a, f"zqstem-{i % 7}"]} for i, (t, a, h, b) in enumerate(MULTILINGUAL)]
    write_index(docs + ml, tmp_path)
    reader = IndexReader(tmp_path)
    assert reader.meta["big"] > 0 and reader.meta["shards"] > 1 and reader.meta["lengthChunks"] > 1
    postings = [e for f in tmp_path.glob("t/*.json.gz") for v in json.loads(gzip.decompress(f.read_bytes())).values()
                for e in (v if isinstance(v, list) else [])] + \
        [e for f in tmp_path.glob("b/*.bin.gz") for e in unpack_big(gzip.decompress(f.read_bytes()))]
    assert any(tf >= 16 for e in postings for tf in e[2]), "no tf >= 16 exercised"
    queries = [[w, req, None] for w in make_queries(vocab, 120, seed=3) for req in (True, False)]
    queries += [[vocab[:40], False, None], [vocab[:40], False, 7],
                [["Éclair", "café", "co-op", "😀x", "the"], False, None],
                [[vocab[0]], True, 3], [[], True, None]]
    for t, a, h, b in MULTILINGUAL:
        for text in (t, a, h, b[:12], b.split()[0] if b.split() else b):
            queries += [[[text], True, None], [[text], False, 5]]
    for i in range(8):   # names no indexed text holds (file stems), alone and with other words
        queries += [[[f"zqstem {i}"], True, None], [[f"zqstem-{i}"], False, 2],
                    [[f"zqstem {i}", vocab[i]], False, None], [[f"zqstem-{i}"] + [vocab[0]], True, None]]
    expected = py_results(reader, queries)
    got, _ = js_results(run_node, tmp_path, queries)
    assert sum(bool(r) for r in expected) >= 150
    assert any(r and r[0][1] == 0 and r[0][3] == 0 for r in expected)
    assert any(r and r[0][3] == 0 for r in expected) and any(r and r[0][3] == 1 for r in expected)
    for q, e, g in zip(queries, expected, got):
        assert g == e, q  # same refs, order, matched terms, tiers and identical floats


def test_first_search_fetches_few_files(run_node, tmp_path):
    docs, vocab = make_docs(200, seed=2)
    write_index(docs, tmp_path)
    _, out = js_results(run_node, tmp_path, [[[vocab[5]], True, 10]])
    fetched = out["fetched"]
    assert fetched[0] == "meta.json" and len(fetched) <= 5, fetched   # meta, n/, t/, l/, r/


def test_weighted_field_scale_equal_in_js(run_node, tmp_path):
    """meta params `scale` (a weighted field's tf * scale): both readers divide alike."""
    import json as _json
    docs, vocab = make_docs(80, seed=4)
    write_index(docs, tmp_path)
    meta = _json.loads((tmp_path / "meta.json").read_bytes())
    meta["params"]["body"]["scale"] = 2
    (tmp_path / "meta.json").write_text(_json.dumps(meta))
    reader = IndexReader(tmp_path)
    queries = [[w, req, None] for w in make_queries(vocab, 40, seed=9) for req in (True, False)]
    expected = py_results(reader, queries)
    got, _ = js_results(run_node, tmp_path, queries)
    assert got == expected and sum(map(bool, expected)) > 20
    meta["params"]["body"].pop("scale")
    (tmp_path / "meta.json").write_text(_json.dumps(meta))
    plain = py_results(IndexReader(tmp_path), queries)
    assert plain != expected
