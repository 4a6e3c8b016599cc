"""Buckets of document vectors (issue 17): the vector arm's candidates without reading every vector.

Each index group's docs (notes with their sections; each source's records) are split into
buckets, each around one *centre*. The seeds are docs of the group with a vector whose ref hashes
to 0 modulo RATE (about one doc in RATE), so the centres start from the brain's own
distribution, as k-means' seeding does; ITERATIONS rounds of k-means, in integers, then move each
centre to the mean of its docs. Sections are never the arm's own candidates but are buckets'
docs all the same: a search reads a lexical candidate's bucket to rank it, and a bucket of RATE
docs, sections included, keeps that read ~5 KB.
Every doc goes to the bucket whose centre is most similar to it, both centred on the brain's
mean (see buckets(); dot / sqrt(cc), exact integer dots; the first centre on a tie). A search
ranks the centres by similarity to the query, centred alike, and reads only the PROBE nearest
buckets (query/vectorstore.py), so its first download stays small.

The buckets are a function of the group's refs and vectors and the brain's mean alone, so a full
build and a rebuild give the same ones; an edit moves the centres of its own group only.
"""
from __future__ import annotations

import zlib

RATE = 64    # docs per bucket, on average: a bucket file is ~5 KB packed at 128 dims
BLOCK = 4096
ITERATIONS = 2


def is_centre(ref: str) -> bool:
    return zlib.crc32(ref.encode("utf-8")) % RATE == 0


def sums(rows: list[bytes], dims: int):
    """(the int64 sum of the int8 vectors `rows` that are not zero, how many they are)."""
    import numpy as np   # lazily, as everywhere the vector arm runs
    x = np.frombuffer(b"".join(rows), dtype=np.int8).reshape(len(rows), dims).astype(np.int64)
    has = x[np.abs(x).sum(axis=1) > 0]
    return has.sum(axis=0), len(has)


def rounded_mean(total, count: int, dims: int) -> list[int]:
    """The mean of vectors summing to `total` (sums), rounded half up to integers (an edit
    seldom moves it), all zero when there are none."""
    return _rounded(total, count).tolist() if count else [0] * dims


def mean_of(rows: list[bytes], dims: int) -> list[int]:
    """The rounded mean (rounded_mean) of the int8 vectors `rows` that are not zero."""
    return rounded_mean(*sums(rows, dims), dims)


def _rounded(total, count):
    """total / count rounded half up, in integers (numpy arrays or ints alike)."""
    return (2 * total + count) // (2 * count)


def buckets(refs: list[str], rows: list[bytes], mean: list[int], dims: int) -> tuple[list[bytes], list[int]]:
    """(the centres' int8 vectors, each doc's bucket) for one group's docs `refs` (in doc
    order) with int8 vectors `rows`, centred on the brain's `mean` (mean_of): uncentred, the
    tokens' common direction makes a few centres hubs that take most docs (a bucket of 1,500
    where the median held 14); centred, the largest holds a few hundred. The seeds are the docs
    with a vector whose ref hashes to 0 (else the first doc with a vector); ITERATIONS rounds of
    k-means then move each centre to the rounded mean of its docs, which finds a query's nearest
    docs in far fewer buckets (measured: docs/decisions.md, "Buckets"). A group with no doc
    with a vector has no centre, and every doc in bucket 0."""
    import numpy as np   # lazily, as everywhere the vector arm runs
    x = np.frombuffer(b"".join(rows), dtype=np.int8).reshape(len(rows), dims).astype(np.int64)
    mu = np.asarray(mean, dtype=np.int64)
    with_vector = [i for i in np.flatnonzero(np.abs(x).sum(axis=1) > 0).tolist() if (x[i] != mu).any()]
    seeds = [i for i in with_vector if is_centre(refs[i])] or with_vector[:1]
    if len(seeds) < 2:
        return [rows[i] for i in seeds], [0] * len(refs)
    y = (x - mu).astype(np.float64)
    c = x[seeds]
    for _ in range(ITERATIONS):
        a = np.asarray(_assign(y, c - mu))
        totals = np.zeros_like(c)
        np.add.at(totals, a, x)
        counts = np.bincount(a, minlength=len(c))
        held = counts > 0   # an emptied centre stays where it was
        c[held] = _rounded(totals[held], counts[held][:, None])
        keep = np.abs(c - mu).sum(axis=1) > 0
        c = c[keep]
    return [row.astype(np.int8).tobytes() for row in c], _assign(y, c - mu)


def _assign(y, centred) -> list[int]:
    """Each row of y's most similar centre: dot / sqrt(cc), exact integer dots, the first on a tie."""
    import numpy as np
    c = centred.astype(np.float64)
    roots = np.sqrt((c * c).sum(axis=1))[None, :]
    out: list[int] = []
    for at in range(0, len(y), BLOCK):   # BLOCK × centres float64s at once
        out += np.argmax((y[at:at + BLOCK] @ c.T) / roots, axis=1).tolist()
    return out
