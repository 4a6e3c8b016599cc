"""write_index + IndexReader: scores equal a plain BM25 reference (lunr's field-summed BM25,
computed here from the documents with math.log), tiers, determinism (FORMAT.md, bf-lunr-5)."""
import gzip
import json
import math

import pytest

from builder.bm25 import IndexReader, analyze_pairs, write_index
from builder.bm25.scoring import FIELDS, PARAMS, idf, ln

from bm25_corpus import make_docs, make_queries


def reference(docs, words, required):
    """{ref: score} by the formula of reader.py, straight from the documents."""
    docs = sorted(docs, key=lambda d: d["ref"])
    n = len(docs)
    tf = []      # per doc, per field: Counter of terms (exact + differing folded)
    lens = []
    for doc in docs:
        tf.append([]), lens.append([])
        for f in FIELDS:
            pairs = analyze_pairs(doc.get(f) or "")
            counts = {}
            for e, fo in pairs:
                counts[e] = counts.get(e, 0) + 1
                if fo != e:
                    counts[fo] = counts.get(fo, 0) + 1
            tf[-1].append(counts), lens[-1].append(len(pairs))
    avg = [sum(ls[i] for ls in lens) / n for i in range(len(FIELDS))]

    def w(t, d):
        df = sum(1 for dd in range(n) for i in range(len(FIELDS)) if t in tf[dd][i])
        total = 0.0
        for i, f in enumerate(FIELDS):
            if t in tf[d][i]:
                k1, b, boost = PARAMS[f]["k1"], PARAMS[f]["b"], PARAMS[f]["boost"]
                x = tf[d][i][t]
                total += math.log(1 + abs((n - df + 0.5) / (df + 0.5))) * (k1 + 1) * x / (
                    k1 * (1 - b + b * lens[d][i] / avg[i]) + x) * boost
        return total
    pairs = [p for word in words for p in analyze_pairs(word)]
    groups, bonus = {}, {}
    for e, f in pairs:
        groups[f] = groups.get(f, 0) + 1
        if e != f:
            bonus[e] = bonus.get(e, 0) + 1
    out = {}
    for d, doc in enumerate(docs):
        holds = [any(f in c for c in tf[d]) for f in groups]
        if not groups or (required and not all(holds)) or not any(holds):
            continue
        out[doc["ref"]] = sum(c * w(t, d) for t, c in list(groups.items()) + list(bonus.items()))
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    docs, vocab = make_docs(150)
    out = tmp_path_factory.mktemp("idx")
    write_index(docs, out)
    return docs, vocab, IndexReader(out)


@pytest.mark.parametrize("required", [True, False])
def test_scores_equal_the_bm25_reference(corpus, required):
    docs, vocab, reader = corpus
    nonempty = 0
    for words in make_queries(vocab, 60) + [["Éclair", "eclair"], ["café"], ["cafe", "quoted"]]:
        got = reader.search(words, required)
        want = reference(docs, words, required)
        assert {g[0] for g in got} == set(want), words
        for ref, score, _, _ in got:
            assert score == pytest.approx(want[ref], rel=1e-12)
        nonempty += bool(got)
        keys = [(tier, -score) for _, score, _, tier in got]
        assert keys == sorted(keys)
    assert nonempty >= 30


def test_ln_is_close_to_math_log():
    for x in [1.0, 1.5, 2.0, 2.5, 3.0, 10.0, 1e3 + 0.5, 123456.789, 2 ** 40 + 3, 1.0000001]:
        assert ln(x) == pytest.approx(math.log(x), rel=1e-15, abs=1e-16)
    assert idf(10, 10) == pytest.approx(math.log(1 + 0.5 / 10.5))


def test_matched_words_and_limit(corpus):
    _, vocab, reader = corpus
    words = [vocab[0], vocab[1], "zqxjunknown"]
    res = reader.search(words, required=False)
    assert res and all(m and m <= {t for w in words[:2] for _, t in analyze_pairs(w)} for _, _, m, _ in res)
    assert reader.search(words, required=True) == []
    assert reader.search(words, required=False, limit=5) == res[:5]
    assert reader.search([], required=True) == []
    assert reader.search(["the"], required=False) == []  # stop word: never indexed


def test_tiers(tmp_path):
    docs = [
        {"ref": "a.md", "title": "Sync", "body": "about sync", "names": ["Sync", "alpha-one"]},
        {"ref": "b.md", "title": "Sync settings", "body": "sync sync sync settings", "names": ["Sync settings"]},
        {"ref": "c.md", "title": "Other", "headings": "Sync", "body": "sync sync sync sync sync"},
        {"ref": "d.md", "title": "x", "aliases": "Sync helper", "body": "", "names": ["x", "Sync helper"]},
    ]
    write_index(docs, tmp_path)
    reader = IndexReader(tmp_path)
    got = reader.search(["sync"], True)
    assert [(r, t) for r, _, _, t in got][:1] == [("a.md", 0)]
    assert {r for r, _, _, t in got if t == 1} == {"b.md", "d.md"}
    assert [t for _, _, _, t in got][-1] == 2 and got[-1][0] == "c.md"
    got = reader.search(["sync", "settings"], True)
    assert got[0][0] == "b.md" and got[0][3] == 0
    got = reader.search(["sync", "zzz"], False)   # a word no document holds: every hit is tier 3
    assert {t for _, _, _, t in got} == {3}
    got = reader.search(["settings", "helper"], False)   # no doc holds both: any-word hits only
    assert {r: t for r, _, _, t in got} == {"b.md": 3, "d.md": 3}
    got = reader.search(["sync", "settings"], False)   # b holds both (in its title): tier 0, then 3
    assert [t for _, _, _, t in got] == [0] + [3] * (len(got) - 1)
    # a name no indexed text holds (a file stem) still finds its document, first
    assert reader.search(["alpha one"], True) == [("a.md", 0.0, frozenset(), 0)]
    assert reader.search(["alpha", "one"], False) == [("a.md", 0.0, frozenset(), 0)]
    got = reader.search(["x", "sync"], False)
    assert [(r, t) for r, _, _, t in got[:2]] == [("d.md", 1), ("a.md", 1)] or got[0][3] == 1
    assert reader.search(["sync", "helper"], True)[0][:1] == ("d.md",)


def test_write_is_deterministic(tmp_path):
    docs, _ = make_docs(120, seed=3)
    a = write_index(docs, tmp_path / "a")
    b = write_index(list(reversed(docs)), tmp_path / "b")
    rel = [p.split("/a/", 1)[1] for p in a]
    assert rel == [p.split("/b/", 1)[1] for p in b]
    for pa, pb in zip(a, b):
        assert open(pa, "rb").read() == open(pb, "rb").read()
    # rewriting a smaller index removes the stale shards
    write_index(docs[:3], tmp_path / "a")
    left = sorted(str(p) for p in (tmp_path / "a").rglob("*.json*"))
    assert left == sorted(write_index(docs[:3], tmp_path / "a"))


def test_postings_hold_no_corpus_statistic(tmp_path):
    """Adding a document changes no posting of a term it does not hold (issue 15)."""
    docs, _ = make_docs(60, seed=5)
    write_index(docs, tmp_path / "a")
    extra = {"ref": "zzz-last", "title": "zqxnew", "body": "zqxnew words"}
    write_index(docs + [extra], tmp_path / "b")
    ta, tb = {}, {}
    for d, t in ((tmp_path / "a", ta), (tmp_path / "b", tb)):
        for f in sorted((d / "t").glob("*.json.gz")):
            t.update(json.loads(gzip.decompress(f.read_bytes())))
    assert set(tb) - set(ta) >= {"zqxnew"}
    assert all(tb[term] == ta[term] for term in ta if term not in ("word",))


def test_duplicate_refs_rejected(tmp_path):
    doc = {"ref": "x", "title": "t", "aliases": "", "headings": "", "body": ""}
    with pytest.raises(ValueError):
        write_index([doc, dict(doc)], tmp_path)
