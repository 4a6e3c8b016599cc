"""vectors/rows.doc_rows with a kept memo (a watch build): rows and mean after documents change,
come and go equal a call with nothing kept."""
import random

from builder import vectors
from builder.kernel.parallel import Spread
from builder.vectors import rows as rows_module
from builder.vectors.rows import begin_rows, doc_rows


def test_kept_rows_and_mean_equal_fresh_ones():
    rng = random.Random(3)
    words = "pricing tiers charge customers meeting notes deploy release chat issue budget plan".split()
    doc = lambda ref: {"ref": ref, "title": rng.choice(words), "aliases": "", "headings": "",
                       "body": " ".join(rng.choices(words, k=6))}
    docs = [doc(f"n{i}.md") for i in range(120)]
    dims, kept = vectors.meta()["dims"], {}
    doc_rows(docs, [d["ref"] for d in docs], dims, kept)
    fresh_id = iter(range(1000, 10 ** 6))
    for step in range(30):
        at = rng.randrange(len(docs))
        if step % 3 == 0:
            docs[at] = dict(docs[at], body=" ".join(rng.choices(words, k=5)))   # an edit
        elif step % 3 == 1:
            docs.insert(at, doc(f"n{next(fresh_id)}.md"))                        # a new document
        else:
            del docs[at]                                                          # one gone
        docs = list(docs)
        refs = [d["ref"] for d in docs]
        assert doc_rows(docs, refs, dims, kept) == doc_rows(docs, refs, dims), step


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
