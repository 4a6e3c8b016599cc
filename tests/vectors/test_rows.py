"""vectors/rows.doc_rows with a kept memo (a watch build): rows and mean after documents change,
come and go equal a call with nothing kept."""
import random

from builder import vectors
from builder.vectors.rows import doc_rows


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
