"""write_index + IndexReader score exactly like stock lunr.py 0.8 built with
the ported lunr.js pipeline."""
import pytest
from lunr.builder import Builder
from lunr.query import QueryPresence
from lunr.token import Token

from builder.lunrjs import FIELD_BOOSTS, IndexReader, tokenize, write_index
from builder.lunrjs.pipeline import lunr_py_functions

from lunrjs_corpus import make_docs, make_queries


def stock_index(docs, monkeypatch):
    import lunr.builder

    monkeypatch.setattr(lunr.builder, "Tokenizer", lambda obj, metadata=None: [
        Token(t, {"position": [a, n]}) for t, a, n in tokenize(obj or "")])
    trimmer, stop_words, stemmer = lunr_py_functions()
    b = Builder()
    b.pipeline.add(trimmer, stop_words, stemmer)
    b.search_pipeline.add(stemmer)
    b.ref("ref")
    for field, boost in FIELD_BOOSTS.items():
        b.field(field, boost=boost)
    for doc in docs:
        b.add(doc)
    return b.build()


def assert_same(got, expected):
    scores = {e["ref"]: e["score"] for e in expected}
    assert len(got) == len(expected)
    assert {g[0] for g in got} == set(scores)
    for (ref, score, _), e in zip(got, expected):
        assert score == pytest.approx(scores[ref], abs=1e-9)
        # lunr leaves ties in insertion order; ours breaks them by ref.
        assert ref == e["ref"] or abs(scores[ref] - e["score"]) < 1e-9


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    docs, vocab = make_docs(400)
    out = tmp_path_factory.mktemp("idx")
    write_index(docs, out)
    return docs, vocab, IndexReader(out)


@pytest.mark.parametrize("required", [True, False])
def test_scores_equal_stock_lunr_py(corpus, required, monkeypatch):
    docs, vocab, reader = corpus
    index = stock_index(docs, monkeypatch)
    presence = QueryPresence.REQUIRED if required else QueryPresence.OPTIONAL
    nonempty = 0
    for words in make_queries(vocab, 200):
        q = index.create_query()
        for w in words:
            q.term(w.lower(), presence=presence)
        expected = index.query(q)
        got = reader.search(words, required)
        assert_same(got, expected)
        nonempty += bool(got)
        scores = [g[1] for g in got]
        assert scores == sorted(scores, reverse=True)
        for a, b in zip(got, got[1:]):
            assert a[1] > b[1] or a[0] < b[0]
    assert nonempty >= 100


def test_matched_words_and_limit(corpus):
    _, vocab, reader = corpus
    words = [vocab[0], vocab[1], "zqxjunknown"]
    res = reader.search(words, required=False)
    assert res and all(m <= {vocab[0], vocab[1]} and m for _, _, m in res)
    assert reader.search(words, required=True) == []
    assert reader.search(words, required=False, limit=5) == res[:5]
    assert reader.search([], required=True) == []
    assert reader.search(["the"], required=False) == []  # stop word: never indexed


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
    left = sorted(str(p) for p in (tmp_path / "a").rglob("*.json"))
    assert left == sorted(write_index(docs[:3], tmp_path / "a"))


def test_duplicate_refs_rejected(tmp_path):
    doc = {"ref": "x", "title": "t", "aliases": "", "headings": "", "body": ""}
    with pytest.raises(ValueError):
        write_index([doc, dict(doc)], tmp_path)


def test_milli_rounding_matches_lunr_py():
    from builder.lunrjs.index import _TF_BITS, _milli

    # norms chosen so scores land on/near half-thousandths, where a
    # plain round(x * 1000) could differ from lunr.py's round(x, 3)
    idf, boost = 1.0, 1
    norms = [2.2 / 0.0625 - 1, 2.2 / 0.0005 - 1, 1.0, 0.1234567, 3.3]
    for i in range(2000):
        norms.append(0.5 + i / 997)
    packed = [(d << _TF_BITS) | 1 for d in range(len(norms))]
    got = _milli(idf, packed, norms, boost)
    expected = [round(round(idf * ((1.2 + 1) * 1) / (n + 1) * boost, 3) * 1000) for n in norms]
    assert got == expected
