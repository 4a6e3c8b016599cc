"""The benchmark's query mix (a fresh agent's MCP session) and a cold `bf search`, for bench/run.py.

An agent asks each question once, so the first read of a common word's postings is what it
waits for. The mix, drawn with a fixed seed from the built index of the site's first brain
(terms that analyse back to themselves, so the query finds the indexed term): 20 of the 50
most frequent terms, 20 of the 200 rarest, 20 three-term queries of frequent
terms and 20 scoped queries (a frequent or rare term within `memories` or one source). One
fresh `bf mcp` process answers the 80 queries, each timed once; the report lists them, and the
median of each kind.
"""
from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from builder.bm25 import IndexReader, analyze
from builder.bm25.postings import unpack_big
from builder.kernel import packs

from .mcptimes import mcp_times

SEED = 43
KINDS = ("frequent", "rare", "three", "scoped")   # the mix's four kinds of 20 queries, in its order


def _term_counts(reader: IndexReader) -> dict[str, int]:
    """term -> its (document, field) postings, over every shard."""
    counts = {}
    for k in range(reader.meta["shards"]):
        for term, entry in reader._shard("t", k).items():
            if isinstance(entry, int):   # a big posting (FORMAT.md Big postings)
                entry = unpack_big(packs.read(reader.dir, f"b/{entry}.bin", True))
            counts[term] = sum(len(field[1]) for field in entry)
    return counts


def query_mix(site: Path, seed: int = SEED) -> list[tuple[str, str | None]]:
    """The 80 (query, scope) pairs of the mix."""
    brain = sorted(p.name for p in (Path(site) / "_bf" / "search").iterdir())[0]
    reader = IndexReader(Path(site) / "_bf" / "search" / brain / "index")
    counts = {t: n for t, n in _term_counts(reader).items() if analyze(t) == [t]}
    ranked = sorted(counts, key=lambda t: (-counts[t], t))
    frequent, rare = ranked[:50], sorted(ranked[-200:])
    rng = random.Random(seed)
    sources = sorted(name for name, _, _ in reader.meta["groups"] if name)
    scopes = ["memories"] + [f"memories/{s}" for s in sources[:3]]
    mix = [(t, None) for t in rng.sample(frequent, 20)] + [(t, None) for t in rng.sample(rare, min(20, len(rare)))]
    mix += [(" ".join(rng.sample(frequent, 3)), None) for _ in range(20)]
    mix += [(rng.choice(frequent if k % 2 else rare), scopes[k % len(scopes)]) for k in range(20)]
    return mix


def mix_report(site: Path) -> dict:
    """The mix's fresh-session MCP p50/p95 and each kind's median (ms), its queries, and a cold
    `bf search` (s) of the mix's first frequent term (the median of three fresh processes)."""
    mix = query_mix(site)
    times, empty = mcp_times(site, mix, 0, warm=False)
    cuts = statistics.quantiles(times, n=20)
    frequent = mix[0][0]
    colds = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "builder", "search", frequent, "--site", str(site)],
                       check=True, capture_output=True)
        colds.append(time.perf_counter() - start)
    kinds = {kind: round(statistics.median(times[k * 20:(k + 1) * 20]), 2) for k, kind in enumerate(KINDS)
             if len(times) == 20 * len(KINDS)}   # (a tiny site has fewer than 20 rare terms)
    return {"mix_mcp_p50_ms": round(statistics.median(times), 2), "mix_mcp_p95_ms": round(cuts[18], 2),
            **{f"mix_mcp_{kind}_p50_ms": ms for kind, ms in kinds.items()},
            "mix_empty_replies": empty, "mix_queries": [[q, s] for q, s in mix],
            "cold_search_frequent_s": round(statistics.median(colds), 3), "cold_search_query": frequent}
