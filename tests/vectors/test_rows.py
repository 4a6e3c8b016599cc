"""vectors/rows.doc_rows with a kept memo (a watch build): rows, mean and the brain's token
weights after documents change, come and go equal a call with nothing kept, the docs around the
change that hold a token whose weight stepped embedded again."""
import random

from builder import vectors
from builder.kernel.parallel import Spread
from builder.vectors import rows as rows_module
from builder.vectors.rows import begin_rows, doc_rows


def test_kept_rows_and_mean_equal_fresh_ones():
    rng = random.Random(3)
    words = ("pricing tiers charge customers meeting notes deploy release chat issue budget plan garden coffee "
             "machine launch website blog archive logo review annual employee office lease travel invoice").split()
    rank = [1 / (r + 1) for r in range(len(words))]   # a few common words, many rare ones: weights of every step
    doc = lambda ref: {"ref": ref, "title": rng.choice(words), "aliases": "", "headings": "",
                       "body": " ".join(rng.choices(words, rank, k=6))}
    docs = [doc(f"n{i}.md") for i in range(120)]
    dims, kept = vectors.meta()["dims"], {}
    doc_rows(docs, [d["ref"] for d in docs], dims, kept)
    stepped = 0
    fresh_id = iter(range(1000, 10 ** 6))
    for step in range(30):
        at = rng.randrange(len(docs))
        if step % 3 == 0:
            docs[at] = dict(docs[at], body=" ".join(rng.choices(words, rank, k=5)))   # an edit
        elif step % 3 == 1:
            docs.insert(at, doc(f"n{next(fresh_id)}.md"))                        # a new document
        else:
            del docs[at]                                                          # one gone
        docs = list(docs)
        refs = [d["ref"] for d in docs]
        weights = kept.get("weights")
        assert doc_rows(docs, refs, dims, kept) == doc_rows(docs, refs, dims), step
        stepped += (kept["weights"] != weights).any()
    assert stepped > 10   # a small brain's weights step on most edits


def test_rows_begun_beside_equal_rows_computed_in_place(monkeypatch):
    """A full build's vectors begun in workers as the index scope begins (begin_rows) are the rows
    doc_rows computes itself, with a document begin_rows did not see computed there."""
    monkeypatch.setattr(rows_module, "PARALLEL_DOCS", 10)
    rng = random.Random(5)
    words = "pricing tiers charge customers meeting notes deploy release chat issue budget plan".split()
    docs = [{"ref": f"n{i}.md", "title": rng.choice(words), "aliases": "", "headings": "",
             "body": " ".join(rng.choices(words, k=8))} for i in range(60)]
    dims, refs = vectors.meta()["dims"], [d["ref"] for d in docs]
    with begin_rows(docs[1:], Spread(True)) as begun:
        assert begun is not None
        assert doc_rows(docs, refs, dims, begun=begun) == doc_rows(docs, refs, dims)
    with begin_rows(docs[:5], Spread(True)) as none:   # too few to be worth workers
        assert none is None


def test_a_weight_step_embeds_again_the_docs_that_hold_the_token():
    """The brain's token weights are a statistic of every doc: a new doc that makes a token
    common steps its weight, and the docs around the change that hold it get the vectors a call
    with nothing kept gives; those that do not hold it keep theirs."""
    from builder.vectors.weights import sixteenths
    words = "pricing tiers charge customers meeting notes deploy release chat issue budget plan".split()
    docs = [{"ref": f"n{i:03}.md", "title": words[i % len(words)], "aliases": "", "headings": "",
             "body": f"{words[(i * 5) % len(words)]} zebra" if i < 4 else words[(i * 7) % len(words)]}
            for i in range(200)]
    dims, kept = vectors.meta()["dims"], {}
    first = doc_rows(docs, [d["ref"] for d in docs], dims, kept)
    zebra = vectors.doc_tokens("zebra")
    assert sixteenths([4], 200).tolist() == [16] and zebra[0] not in first[2][0]
    docs = docs + [{"ref": f"z{i}.md", "title": "zebra", "aliases": "", "headings": "", "body": "zebra"}
                   for i in range(26)]   # 30 of 226 docs hold it: past FEW / SHARE
    refs = [d["ref"] for d in docs]
    again = doc_rows(docs, refs, dims, kept)
    assert again == doc_rows(docs, refs, dims)
    ids, weights = again[2]
    assert zebra[0] in ids and weights[ids.index(zebra[0])] < 16
    assert all(a != b for a, b in zip(first[0][:4], again[0][:4]))   # held zebra: embedded again
    assert first[0][4:200] == again[0][4:200]
