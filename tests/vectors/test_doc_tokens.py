"""vectors.doc_tokens takes a text's tokens piece by piece between spaces, each piece's kept in a
Chunks memo: the same ids as the tokenizer gives the whole text's first DOC_TOKENS * 8
characters, cut at DOC_TOKENS, in every script and around every kind of separator; and
vectors.doc_vectors, many texts at once, gives each its own vector."""
import random
import unicodedata

from builder import vectors
from builder.bm25.pipeline import LATIN, SPACELESS
from builder.vectors import DOC_TOKENS, Chunks, doc_tokens, doc_vectors, token_ids, weighed_table

SCRIPTS = (*SPACELESS, *LATIN, (0x370, 0x3FF), (0x400, 0x52F), (0x590, 0x5FF), (0x600, 0x6FF), (0x900, 0x97F),
           (0x2000, 0x206F), (0x3000, 0x303F), (0xFF00, 0xFFEF), (0x1F300, 0x1F64F))
# what may stand beside a space: other spaces, marks, controls, the final-sigma context, ideographs
SEPARATORS = (" ", "  ", " \u0301", "\u0301 ", "\n", "\t ", "\u00a0", "\u3000", "\u2028", "\x85", "\u200b ",
              "Σ ", " Σ", "ΟΔΟΣ ", ". ", " ,", "\ufffd ", "\x00", " 東", "ё ")


def _texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    chars = [chr(c) for lo, hi in SCRIPTS for c in range(lo, min(hi, lo + 400) + 1)
             if unicodedata.category(chr(c)) != "Cn"]
    known = [t for t in vectors.vocab() if not t.startswith(("##", "["))]
    words = ["".join(rng.choices(chars, k=rng.randint(1, 8))) for _ in range(300)] + rng.sample(known, 300)
    return ["".join(rng.choice(words) + rng.choice(SEPARATORS) for _ in range(rng.randint(1, 1200)))
            for _ in range(n)]


def test_pieces_give_the_whole_texts_tokens(monkeypatch):
    wp, memo = vectors.wordpiece(), Chunks()
    texts = _texts(7, 150)
    assert sum(map(len, texts)) > 300_000
    for text in texts:
        expected = wp.tokens(text[:DOC_TOKENS * 8])[:DOC_TOKENS]
        assert doc_tokens(text, memo) == expected
        assert doc_tokens(text) == expected
    assert any(len(doc_tokens(t)) == DOC_TOKENS for t in texts)
    assert any(len(doc_tokens(t)) < DOC_TOKENS for t in texts)
    monkeypatch.setattr(Chunks, "MAX", 50)   # a memo that starts over gives the same
    small = Chunks()
    assert [doc_tokens(t, small) for t in texts[:20]] == [doc_tokens(t) for t in texts[:20]]
    assert len(small) <= 50


def test_vectors_at_once_equal_each_alone():
    """The sum of a text's token rows as integers, scaled to a largest component of ±127 and
    rounded half to even; no token (an empty text, [UNK] alone): all zero."""
    import numpy as np
    texts = _texts(3, 40) + ["", "   ", "a" * 150, "pricing tiers", "東京"]
    table = vectors.table()

    def alone(text):
        total = table[doc_tokens(text)].astype(np.int64).sum(axis=0)
        top = int(np.abs(total).max())
        return bytes(len(total)) if top == 0 else np.rint(total * (127 / top)).astype(np.int8).tobytes()

    ones = weighed_table([16] * vectors.meta()["rows"])
    got = doc_vectors([t for t, _ in token_ids(texts, Chunks())], ones)
    assert got == [alone(t) for t in texts]
    assert got[-4] == bytes(vectors.meta()["dims"]) and any(got[:40])
    assert doc_vectors([], ones) == []


def test_weighed_vectors_sum_each_row_times_its_weight():
    """A document's vector weighs each token's row by the brain's weight in sixteenths
    (vectors/weights.py): a token that weighs less moves the vector less, a weight of 16 for
    every token gives the unweighed vector."""
    import numpy as np
    texts = _texts(4, 20) + ["Caroline: I went to the support group yesterday"]
    tokens = [t for t, _ in token_ids(texts)]
    weights = np.full(vectors.meta()["rows"], 16, dtype=np.int64)
    light = doc_tokens("caroline")
    weights[light] = 3
    table = vectors.table().astype(np.int64)

    def alone(text):
        ids = doc_tokens(text)
        total = (table[ids] * weights[ids][:, None]).sum(axis=0)
        top = int(np.abs(total).max())
        return bytes(len(total)) if top == 0 else np.rint(total * (127 / top)).astype(np.int8).tobytes()

    got = doc_vectors(tokens, weighed_table(weights))
    assert got == [alone(t) for t in texts]
    assert got[-1] != doc_vectors(tokens[-1:], weighed_table([16] * len(weights)))[0]
