"""Related notes (builder/vectors/related.py): each note's RELATED nearest other notes by the
vector arm's similarity, ties by ref; a process that computes them again after some notes
changed, appeared or went gets the lists a full computation gives."""
from __future__ import annotations

import math
import random

import numpy as np

from builder.vectors.related import RELATED, related

DIMS = 8


def brute(refs: list[str], rows: list[bytes]) -> dict[str, list[str]]:
    """Every pair scored in Python integers, as query/vector.py scores a query."""
    vecs = {r: np.frombuffer(row, dtype=np.int8).astype(int) for r, row in zip(refs, rows)}
    out = {}
    for a in refs:
        aa = int(vecs[a] @ vecs[a])
        scored = []
        for b in refs:
            bb = int(vecs[b] @ vecs[b])
            if b != a and aa and bb:
                scored.append((int(vecs[a] @ vecs[b]) / (math.sqrt(aa) * math.sqrt(bb)), b))
        out[a] = [b for _, b in sorted(scored, key=lambda p: (-p[0], p[1]))[:RELATED]]
    return out


def row(rng: random.Random) -> bytes:
    if rng.random() < 0.05:
        return bytes(DIMS)                                   # a zero vector relates to nothing
    return np.array([rng.choice((-2, -1, 0, 1, 2)) for _ in range(DIMS)], dtype=np.int8).tobytes()   # many ties


def test_each_note_gets_its_nearest_others_ties_by_ref():
    rng = random.Random(17)
    refs = sorted(f"n{i:03d}.md" for i in range(300))
    rows = [row(rng) for _ in refs]
    got = related(refs, rows, DIMS)
    assert got == brute(refs, rows)
    assert all(len(v) == RELATED for r, v in got.items() if any(rows[refs.index(r)]))


def test_lists_kept_between_calls_equal_a_full_computation():
    rng = random.Random(15)
    notes = {f"n{i:03d}.md": row(rng) for i in range(300)}
    kept: dict = {}
    related(sorted(notes), [notes[r] for r in sorted(notes)], DIMS, kept)
    for step in range(30):
        for _ in range(rng.choice((1, 1, 2, 3))):
            what = rng.random()
            if what < 0.6:
                notes[rng.choice(sorted(notes))] = row(rng)      # an edit
            elif what < 0.8:
                notes[f"new-{step}-{rng.random():.6f}.md"] = row(rng)
            elif len(notes) > 10:
                del notes[rng.choice(sorted(notes))]
        refs = sorted(notes)
        again = related(refs, [notes[r] for r in refs], DIMS, kept)
        assert again == related(refs, [notes[r] for r in refs], DIMS), f"step {step}"


def test_extreme_full_width_vectors_rank_as_the_float64_computation():
    """128 dims of ±127 (dots up to 128 × 127², the float32 product's exact range), a few
    distinct vectors repeated (ties on every list), other notes near them, zero vectors: the
    lists equal the plain float64 matrix product's, divided and ordered the same way."""
    rng = random.Random(3)
    dims = 128
    bases = [[rng.choice((-127, 127)) for _ in range(dims)] for _ in range(6)] + [[127] * dims, [-127] * dims]
    vecs = []
    for i in range(400):
        v = list(rng.choice(bases))
        if i % 3 == 0:
            v[rng.randrange(dims)] = rng.randint(-127, 127)          # almost a tie
        vecs.append(v if i % 37 else [0] * dims)
    refs = sorted(f"n{i:03d}.md" for i in range(len(vecs)))
    rows = [np.array(v, dtype=np.int8).tobytes() for v in vecs]
    x = np.array(vecs, dtype=np.float64)
    norms = np.sqrt((x * x).sum(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        sims = (x @ x.T) / (norms[:, None] * norms[None, :])
    want = {}
    for i, ref in enumerate(refs):
        scored = [(sims[i, j], refs[j]) for j in range(len(refs)) if j != i and norms[i] and norms[j]]
        want[ref] = [r for _, r in sorted(scored, key=lambda p: (-p[0], p[1]))[:RELATED]]
    assert related(refs, rows, dims) == want
    assert related(refs, rows, dims) == brute(refs, rows)
