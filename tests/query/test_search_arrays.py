"""Long postings are weighed and ranked over numpy arrays (bm25/postings.py ARRAY_FROM): the
same replies, scores bit for bit, as the element-by-element path, over every scope, filter,
phrase and date of the ranking tests."""
from __future__ import annotations

import numpy  # noqa: F401  (long postings use arrays once numpy is loaded)
import pytest

from builder.bm25 import postings
from builder.query import search as mod
from search_fixtures import site
from test_search_topk import QUERIES, SCOPES

EXTRA = ["pricing tiers", '"new website" launch', "footer midnight zzqx", "standup 2026-12-01",
         "hero feedback November 2026", "brand refresh", "explanations"]


def replies(monkeypatch, array_from: int) -> list:
    monkeypatch.setattr(postings, "ARRAY_FROM", array_from)
    s = site()   # a fresh Site: no posting weighed before
    out = []
    for scope in SCOPES:
        for query in QUERIES + EXTRA:
            for mode in ("lexical", "hybrid"):
                try:
                    out.append(mod.search(s, query, scope=scope, limit=50, mode=mode))
                except Exception as exc:   # the same refusal either way
                    out.append(repr(exc))
    return out


def test_arrays_rank_like_the_loop(monkeypatch):
    loop = replies(monkeypatch, 10 ** 9)
    arrays = replies(monkeypatch, 0)
    assert len(loop) == len(arrays) and sum(isinstance(r, dict) and bool(r["items"]) for r in loop) > 100
    for a, b in zip(loop, arrays):
        assert a == b
