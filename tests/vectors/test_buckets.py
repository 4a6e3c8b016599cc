"""Buckets of document vectors (builder/vectors/buckets.py) and the reader that probes them
(builder/query/vectorstore.py; tests/bm25/test_hybrid_parity.py for a built site): seeds chosen
by their own refs, centres moved by k-means in integers over the sample, every doc in its most
similar centre's bucket once both are centred on the brain's mean, equal inputs giving equal
buckets, and a call given the last one's memo giving what a call without it gives."""
from __future__ import annotations

import random

import numpy as np

from builder.vectors import buckets as mod
from builder.vectors.buckets import RATE, buckets, in_sample, is_centre, mean_of, sampled

DIMS = 8


def _rows(rng: random.Random, n: int) -> list[bytes]:
    return [np.array([rng.randint(-127, 127) for _ in range(DIMS)], dtype=np.int8).tobytes() for _ in range(n)]


def _refs(n: int) -> list[str]:
    return [f"notes/n{i:05d}.md" for i in range(n)]


def _matrix(rows: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(rows), dtype=np.int8).reshape(-1, DIMS).astype(np.float64)


def test_sampled_is_in_sample_and_is_centre_of_each_ref(monkeypatch):
    refs = _refs(3000) + ["notes/été.md", "notes/東京.md#タワー", "r/src/1"]
    assert sampled(refs) == list(map(in_sample, refs)) and any(sampled(refs))
    assert sampled(refs, RATE) == list(map(is_centre, refs)) and any(sampled(refs, RATE))
    monkeypatch.setattr(mod, "RATE", 2)   # read at call time, as in_sample reads it
    assert sampled(refs) == list(map(in_sample, refs)) == [True] * len(refs)


def test_the_mean_is_rounded_over_docs_with_a_vector():
    rows = [bytes([1] + [0] * 7), bytes([2] + [0] * 7), bytes(DIMS), np.array([-3] * 8, dtype=np.int8).tobytes()]
    assert mean_of(rows, DIMS) == [0] + [-1] * 7          # (1 + 2 - 3) / 3 = 0; -3 / 3 = -1
    assert mean_of([bytes(DIMS)], DIMS) == [0] * DIMS


def test_without_iterations_the_seeds_are_the_centres_and_each_doc_joins_its_nearest(monkeypatch):
    monkeypatch.setattr(mod, "ITERATIONS", 0)
    rng = random.Random(3)
    refs, rows = _refs(20 * RATE), _rows(rng, 20 * RATE)
    for i in range(0, len(rows), 7):
        rows[i] = bytes(DIMS)
    mean = mean_of(rows, DIMS)
    centres, bucket = buckets(refs, rows, mean, DIMS)
    seeds = [i for i, r in enumerate(refs) if rows[i] != bytes(DIMS) and is_centre(r)]
    assert centres == [rows[i] for i in seeds] and len(seeds) > 5
    y, c = _matrix(rows) - mean, _matrix(centres) - mean
    assert bucket == np.argmax((y @ c.T) / np.sqrt((c * c).sum(axis=1)), axis=1).tolist()


def test_a_k_means_round_moves_each_centre_to_the_rounded_mean_of_its_sample_docs(monkeypatch):
    monkeypatch.setattr(mod, "ITERATIONS", 1)
    rng = random.Random(4)
    refs, rows = _refs(10 * RATE), _rows(rng, 10 * RATE)
    mean = mean_of(rows, DIMS)
    x = _matrix(rows)
    seeds = _matrix([rows[i] for i, r in enumerate(refs) if is_centre(r)]) - mean
    sample = _matrix([rows[i] for i, r in enumerate(refs) if in_sample(r)])
    first = np.argmax(((sample - mean) @ seeds.T) / np.sqrt((seeds * seeds).sum(axis=1)), axis=1)
    moved = [(2 * sample[first == k].sum(axis=0) + n) // (2 * n) if (n := int((first == k).sum())) else seeds[k] + mean
             for k in range(len(seeds))]
    centres, bucket = buckets(refs, rows, mean, DIMS)
    assert centres == [np.asarray(m, dtype=np.int8).tobytes() for m in moved]
    c = _matrix(centres) - mean
    assert bucket == np.argmax(((x - mean) @ c.T) / np.sqrt((c * c).sum(axis=1)), axis=1).tolist()


def test_a_group_without_a_hashed_seed_and_one_without_vectors():
    rng = random.Random(5)
    refs = [r for r in _refs(400) if not is_centre(r)][:5]
    rows = _rows(rng, 5)
    rows[0] = bytes(DIMS)
    assert buckets(refs, rows, [0] * DIMS, DIMS) == ([rows[1]], [0] * 5)
    assert buckets(refs, [bytes(DIMS)] * 5, [0] * DIMS, DIMS) == ([], [0] * 5)


def test_equal_inputs_give_equal_buckets():
    rng = random.Random(6)
    refs, rows = _refs(8 * RATE), _rows(rng, 8 * RATE)
    mean = mean_of(rows, DIMS)
    assert buckets(refs, list(rows), mean, DIMS) == buckets(refs, list(rows), mean, DIMS)


def test_a_memo_gives_what_a_call_without_it_gives():
    """A doc added, one changed and one removed outside the sample: the centres stay and the
    other docs keep their buckets; a change in the sample makes them again."""
    rng = random.Random(7)
    refs, rows = _refs(12 * RATE), _rows(rng, 12 * RATE)
    mean = mean_of(rows, DIMS)
    kept: dict = {}
    first = buckets(refs, rows, mean, DIMS, kept)
    outside = [i for i, r in enumerate(refs) if not in_sample(r)]
    new_ref = next(r for r in (f"notes/new{i}.md" for i in range(99)) if not in_sample(r))
    edited_refs = sorted(refs[:outside[0]] + refs[outside[0] + 1:] + [new_ref])
    by_ref = dict(zip(refs, rows)) | {new_ref: _rows(rng, 1)[0], refs[outside[1]]: _rows(rng, 1)[0]}
    edited = [by_ref[r] for r in edited_refs]
    again = buckets(edited_refs, edited, mean, DIMS, kept)
    assert again == buckets(edited_refs, edited, mean, DIMS) and again[0] == first[0]
    inside = next(i for i, r in enumerate(edited_refs) if in_sample(r))
    edited = list(edited)   # a build's rows are a new list (the memo holds the last one)
    edited[inside] = _rows(rng, 1)[0]
    assert buckets(edited_refs, edited, mean, DIMS, kept) == buckets(edited_refs, edited, mean, DIMS)
