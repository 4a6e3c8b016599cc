"""The brain's token weights (docs/decisions.md#the-brains-token-weights): a token that many of the brain's
documents hold says little about any one of them, whatever its weight in English.

A token held by df of the brain's N embedded documents (its notes, sections and records; a
document holds the tokens its vector reads, vectors.doc_tokens) weighs min(1, M / (SHARE · df)),
M = max(N, FEW), in sixteenths: round(ONE · M / (SHARE · df)), half up, between 1 and ONE (a
token no document holds: ONE), computed in integers. FEW keeps a small brain's words whole: in a
brain of eight messages every word is in 2% of them, and weighing them all down left a vector
mostly what a title or a name said; a token is weighed down only once more than FEW / SHARE
documents hold it. Both a document's vector and a query's (query/vectorstore.py,
site/engine/vectorstore.js) are sums of their tokens' rows times these weights, so Python and JS
agree bit for bit. The static table's SIF weights know English: in a chat every message starts
with its speaker's name, rare in English and so weighed in full, and a short message's vector
was mostly that name.

The weights move in steps of a sixteenth: an edit changes a token's weight only when its share
of the documents crosses a step, and a rebuild (vectors/rows.py) embeds again exactly the
documents holding a token whose weight changed, so it gives a full build's vectors.
"""
from __future__ import annotations

ONE = 16      # a weight of 1, in sixteenths: a document's weighed sum stays below 2^31 (int32)
SHARE = 50    # a token held by more than 1 / SHARE (2%) of the brain's documents weighs less
FEW = 1000    # ... and by more than FEW / SHARE (20) of them


def sixteenths(df, n: int):
    """Each token's weight in sixteenths (a numpy uint8 array) from `df`, how many of the
    brain's `n` documents hold it (an int64 array over the vocabulary)."""
    import numpy as np   # lazily, as everywhere the vector arm runs
    df, m = np.asarray(df, dtype=np.int64), max(n, FEW)
    w = (2 * ONE * m + SHARE * df) // (2 * SHARE * np.maximum(df, 1))   # ONE·m/(SHARE·df), half up
    return np.where(df > 0, np.clip(w, 1, ONE), ONE).astype(np.uint8)


def frequencies(held: list[bytes], rows: int):
    """How many of the documents whose distinct token ids are `held` (vectors.token_ids) hold each
    of the vocabulary's `rows` tokens (an int64 array)."""
    import numpy as np
    return np.bincount(np.frombuffer(b"".join(held), dtype=np.uint16), minlength=rows).astype(np.int64)


def listed(weights) -> tuple[list[int], list[int]]:
    """(the ids, ascending, of the tokens that weigh less than ONE, their weights): the site's
    weights file (emit/vectors.py); a token it does not list weighs ONE."""
    import numpy as np
    ids = np.flatnonzero(np.asarray(weights) < ONE)
    return ids.tolist(), np.asarray(weights)[ids].tolist()
