"""Search quality over the example brain: hit@1 and hit@3 of tests/fixtures/quality.json.
Also prints warm in-process latency (p50/p95) over the same queries; nothing asserts on time."""
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


def test_hit_at_3():
    s = site()
    ranks = [_rank(search(s, q["query"], limit=3)["items"], q["expect"]) for q in QUERIES]
    hit1 = sum(r == 0 for r in ranks) / len(ranks)
    hit3 = sum(r is not None for r in ranks) / len(ranks)
    misses = [q["query"] for q, r in zip(QUERIES, ranks) if r is None]
    print(f"\nsearch quality: hit@1={hit1:.2f} hit@3={hit3:.2f} over {len(ranks)} queries; misses: {misses}")
    assert hit3 >= 0.9, misses


def test_warm_latency_is_reported():
    s = site()
    for q in QUERIES:                     # warm: every index shard and store file loaded once
        search(s, q["query"])
    times = []
    for q in QUERIES * 3:
        start = time.perf_counter()
        search(s, q["query"])
        times.append(time.perf_counter() - start)
    times.sort()
    p50, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
    print(f"\nwarm in-process search latency: p50={p50 * 1000:.2f} ms p95={p95 * 1000:.2f} ms")
    assert times
