"""Search quality over the example brain: hit@1, hit@3, hit@10 and MRR@10 of tests/fixtures/quality.json,
each held to a floor a little under what bf measures today (FLOORS). Also prints warm in-process
latency (p50/p95) over the same queries; nothing asserts on time, only that warm answers equal cold ones."""
from __future__ import annotations

import json
import time
from pathlib import Path

from builder.query.search import search
from search_fixtures import ROOT, site

QUERIES = json.loads((ROOT / "tests" / "fixtures" / "quality.json").read_text("utf-8"))["queries"]


def _rank(items: list[dict], expect: str) -> int | None:
    """0-based rank of the expected item (itself or one of its sections), or None."""
    for k, item in enumerate(items):
        if item["ref"] == expect or item["ref"].startswith(expect + "#"):
            return k
    return None


def test_fixture_is_big_enough():
    assert len(QUERIES) >= 40
    assert len({q["query"] for q in QUERIES}) == len(QUERIES)


# Measured 2026-12 on examples/brain (50 queries): hit@1 0.94, hit@3 0.98, hit@10 1.00, MRR@10 0.965
# (misses at 1: "brand refresh" ranks 4th, "prorate to the day" and "visitors clear explanation
# pricing" 2nd). Each floor lets one query slip by one step; raise them when search gets better.
FLOORS = {"hit@1": 0.92, "hit@3": 0.96, "hit@10": 0.98, "mrr@10": 0.94}


def test_quality_floors():
    s = site()
    ranks = [_rank(search(s, q["query"], limit=10)["items"], q["expect"]) for q in QUERIES]
    n = len(ranks)
    measured = {
        "hit@1": sum(r == 0 for r in ranks) / n,
        "hit@3": sum(r is not None and r < 3 for r in ranks) / n,
        "hit@10": sum(r is not None for r in ranks) / n,
        "mrr@10": sum(1 / (r + 1) for r in ranks if r is not None) / n,
    }
    misses = {q["query"]: r for q, r in zip(QUERIES, ranks) if r != 0}
    print("\nsearch quality: " + " ".join(f"{k}={v:.3f}" for k, v in measured.items()) + f" over {n} queries; "
          f"not first (0-based rank or None): {misses}")
    below = {k: (round(measured[k], 3), floor) for k, floor in FLOORS.items() if measured[k] < floor}
    assert not below, f"below the floor (measured, floor): {below}; not first: {misses}"


def test_warm_answers_equal_cold_ones():
    """Latency is printed, not asserted; the test checks that the caches warmed by the first pass
    (index shards, store files) do not change any answer."""
    s = site()
    cold = [search(s, q["query"]) for q in QUERIES]    # warm: every index shard and store file loaded once
    times, warm = [], []
    for q in QUERIES * 3:
        start = time.perf_counter()
        warm.append(search(s, q["query"]))
        times.append(time.perf_counter() - start)
    times.sort()
    p50, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
    print(f"\nwarm in-process search latency: p50={p50 * 1000:.2f} ms p95={p95 * 1000:.2f} ms")
    assert warm == cold * 3
