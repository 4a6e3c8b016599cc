"""Buckets of document vectors: the vector arm's candidates without reading every vector.

Each index group's docs (notes with their sections; each source's records) are split into
buckets, each around one *centre*. The seeds are docs of the group with a vector whose ref hashes
to 0 modulo RATE (about one doc in RATE), so the centres start from the brain's own
distribution, as k-means' seeding does; ITERATIONS rounds of k-means, in integers, over the
group's *sample* (the docs whose ref hashes to 0 modulo RATE // SPREAD, the seeds among them)
then move each centre to the mean of its sample docs. Sections are docs here like any other,
though a bucket's file holds only the docs the arm may list (emit/vectors.py): never a section.
Every doc goes to the bucket whose centre is most similar to it, both centred on the brain's
mean (see buckets(); dot / sqrt(cc), exact integer dots; the first centre on a tie). A search
ranks the centres by similarity to the query, centred alike, and reads only the PROBE nearest
buckets (query/vectorstore.py), so its first download stays small.

The centres are a function of the group's sample and the brain's mean alone (rows.py: the mean
of the sample docs), and a doc's bucket of its own vector and the centres, so a full build and a
rebuild give the same ones, and an edit outside the sample (seven docs in eight) moves no centre:
a rebuild assigns the docs that changed and keeps every other doc's bucket (buckets()' `kept`).
"""
from __future__ import annotations

import zlib
from itertools import compress

RATE = 256   # docs per bucket, on average: a bucket file is ~20 KB packed at 128 dims; few files (docs/performance.md#targets)
# k-means runs over 1/SPREAD of the docs (docs/decisions.md#buckets-the-vector-arm-reads-what-it-ranks-not-every-vector)
SPREAD = 8   # sample docs per seed
BLOCK = 4096
ITERATIONS = 2


def is_centre(ref: str) -> bool:
    return zlib.crc32(ref.encode("utf-8")) % RATE == 0


def in_sample(ref: str) -> bool:
    """Whether `ref`'s doc is in the sample the centres and the mean are made of (every seed is)."""
    return zlib.crc32(ref.encode("utf-8")) % max(1, RATE // SPREAD) == 0


def sampled(refs: list[str], rate: int | None = None) -> list[bool]:
    """in_sample of each of `refs` (is_centre's with `rate` RATE), hashed in C loops."""
    rate = max(1, RATE // SPREAD) if rate is None else rate
    return [h % rate == 0 for h in map(zlib.crc32, map(str.encode, refs))]   # str.encode: UTF-8


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


def buckets(refs: list[str], rows: list[bytes], mean: list[int], dims: int,
            kept: dict | None = None) -> tuple[list[bytes], list[int]]:
    """(the centres' int8 vectors, each doc's bucket) for one group's docs `refs` (in doc
    order) with int8 vectors `rows`, centred on the brain's `mean` (rows.py): uncentred, the
    tokens' common direction makes a few centres hubs that take most docs (a bucket of 1,500
    where the median held 14); centred, the largest holds a few hundred. The seeds are the docs
    with a vector whose ref hashes to 0 (else the first doc with a vector); ITERATIONS rounds of
    k-means over the sample then move each centre to the rounded mean of its sample docs, which
    finds a query's nearest docs in far fewer buckets (measured:
    docs/decisions.md#buckets-the-vector-arm-reads-what-it-ranks-not-every-vector).
    A group with no doc with a vector has no centre, and every doc in bucket 0. `kept`: what
    the last call for this group left, left holding this one's; when its sample and mean are
    the same, its centres are, and only the docs between the unchanged first and last ones
    (refs and vectors) are assigned: a new record, sorting last in its source, alone."""
    import numpy as np   # lazily, as everywhere the vector arm runs
    kept = {} if kept is None else kept
    mu = np.asarray(mean, dtype=np.int64)
    last = kept.get("last")
    if last is not None and last[3] == mean and len(last[4]) > 1:
        old_refs, old_rows, old_bucket, _, centres = last
        head, tail = _same_ends(refs, rows, old_refs, old_rows)
        was, now = range(head, len(old_refs) - tail), range(head, len(refs) - tail)
        if _sampled(old_refs, old_rows, was) == _sampled(refs, rows, now):   # the same centres
            moved = _assign(_matrix(rows[head:len(refs) - tail], dims) - mu, _matrix(centres, dims) - mu) if now else []
            bucket = old_bucket[:head] + moved + old_bucket[len(old_bucket) - tail:]
            kept["last"] = (refs, rows, bucket, mean, centres)
            return centres, bucket
    centres, bucket = _made(refs, rows, list(compress(range(len(refs)), sampled(refs))), mu, dims)
    kept["last"] = (refs, rows, bucket, mean, centres)
    return centres, bucket


def _same_ends(refs, rows, old_refs, old_rows) -> tuple[int, int]:
    """How many docs at the start, and then at the end, are the same (ref and vector) as before."""
    most, head = min(len(refs), len(old_refs)), 0
    while head < most and refs[head] == old_refs[head] and rows[head] == old_rows[head]:
        head += 1
    tail = 0
    while tail < most - head and refs[-1 - tail] == old_refs[-1 - tail] and rows[-1 - tail] == old_rows[-1 - tail]:
        tail += 1
    return head, tail


def _sampled(refs, rows, span) -> list[tuple[str, bytes]]:
    return [(refs[i], rows[i]) for i in span if in_sample(refs[i])]


def _made(refs: list[str], rows: list[bytes], sample: list[int], mu, dims: int) -> tuple[list[bytes], list[int]]:
    """buckets() from nothing kept: seeds, ITERATIONS rounds over the sample, then every doc."""
    import numpy as np
    x = _matrix(rows, dims)
    with_vector = np.flatnonzero((np.abs(x).sum(axis=1) > 0) & (x != mu).any(axis=1)).tolist()
    centre = sampled(refs, RATE)
    seeds = [i for i in with_vector if centre[i]] or with_vector[:1]
    if len(seeds) < 2:
        return [rows[i] for i in seeds], [0] * len(refs)
    xs, c = x[sample], x[seeds]
    for _ in range(ITERATIONS):
        a = np.asarray(_assign(xs - mu, c - mu))
        totals = np.zeros_like(c)
        np.add.at(totals, a, xs)
        counts = np.bincount(a, minlength=len(c))
        held = counts > 0   # an emptied centre stays where it was
        c[held] = _rounded(totals[held], counts[held][:, None])
        c = c[np.abs(c - mu).sum(axis=1) > 0]
    return [row.astype(np.int8).tobytes() for row in c], _assign(x - mu, c - mu)


def _matrix(rows: list[bytes], dims: int):
    import numpy as np
    return np.frombuffer(b"".join(rows), dtype=np.int8).reshape(len(rows), dims).astype(np.int64)


def _assign(y, centred) -> list[int]:
    """Each row of y's most similar centre: dot / sqrt(cc), exact integer dots, the first on a tie.
    The dots are a float32 product: y and the centres are int8 vectors less the mean (±254 at
    most), so every partial sum is an integer below dims × 254² < 2^24, exact in a float32
    whatever the order of the sums; the division is in float64."""
    import numpy as np
    assert y.shape[1] * 254 * 254 < 1 << 24, "float32 dots are exact only below 2^24"
    c = centred.astype(np.float64)
    roots = np.sqrt((c * c).sum(axis=1))[None, :]
    y, c = y.astype(np.float32), centred.astype(np.float32)
    out: list[int] = []
    for at in range(0, len(y), BLOCK):   # BLOCK × centres dots at once
        out += np.argmax((y[at:at + BLOCK] @ c.T).astype(np.float64) / roots, axis=1).tolist()
    return out
