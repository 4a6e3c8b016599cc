"""query/topk.py ranks like the general path (search._candidates + _best_per_note): same
items in the same order, same total and narrowed flag, over scopes, --type and --path."""
from __future__ import annotations

from datetime import datetime

import pytest

from builder.query import search as mod
from builder.query import store as store_mod
from builder.query import topk
from builder.query.scopes import parse_scope
from search_fixtures import site

SCOPES = [None, "memories", "memories/chat", "memories/email", "memories/chat/undated", "projects", "concepts",
          "30d", "2026-11", "memories/issues/30d", "person:maya-chen", "tags/web", "projects/new-website.md"]
QUERIES = ["website", "launch plan", "the", "pricing page", "meeting notes deploy", "nothing-matches-xyz",
           "new website", "brand refresh", "style guide colour"]


def general(stores, words, scope, type_, path, when, as_of, limit):
    kept, narrowed = mod._candidates(stores, words, [], scope, type_, path, when, as_of)
    ranked = mod._best_per_note(kept)
    return ranked[:limit], len(ranked), narrowed


def view(result):
    top, total, narrowed = result
    return [(e.brain, e.ref, score, count, tier) for e, score, count, tier in top], total, narrowed


@pytest.mark.parametrize("scope", SCOPES)
def test_topk_equals_general_path(scope):
    s = site()
    stores, _ = mod.open_stores(s, None)
    sc = parse_scope(scope, stores)
    as_of = datetime.fromisoformat(s.as_of.replace("Z", "+00:00"))
    for query in QUERIES:
        words = mod.parse_query(query)[0]
        for type_, path in [(None, None), ("project", None), (None, "memories/c"), (None, "projects/")]:
            # with and without a date the query names (its hits placed then weigh more)
            for when in ({}, mod.spans(stores, "2026-11", as_of)):
                for limit in (1, 3, 50):
                    fast = mod._top(stores, words, [], sc, type_, path, when, as_of, limit)
                    slow = general(stores, words, sc, type_, path, when, as_of, limit)
                    assert view(fast) == view(slow), (query, scope, type_, path, when, limit)


def test_scoped_record_search_reads_no_other_source():
    s = site()   # a fresh Site, so fresh stores: nothing read yet
    reply = mod.search(s, "deploy", scope="memories/chat")
    assert reply["total"] > 0
    store = store_mod.open_store(s, "brain")
    loaded = {rel for rel, data in store._files.items() if data is not None}
    assert not any(rel.startswith("records/") and not rel.startswith("records/chat/") for rel in loaded)
    assert not any(rel.startswith("notes/") for rel in loaded)


def test_keep_groups():
    s = site()
    stores, _ = mod.open_stores(s, None)
    store = stores["brain"]
    assert topk.keep_groups(parse_scope("projects", stores), store, None, None) == {""}
    assert topk.keep_groups(parse_scope("memories/chat", stores), store, None, None) == {"chat"}
    assert topk.keep_groups(parse_scope("memories/chat", stores), store, "x", None) == set(store.meta["records"])
    assert topk.keep_groups(parse_scope("30d", stores), store, None, None) is None


def test_warm_scoped_search_reuses_verdicts(monkeypatch):
    """A scoped search keeps each checked hit's verdict on the store (BrainStore.verdicts); the
    next search in that scope reads it instead of checking again, with the same reply."""
    s = site()   # a fresh Site, so fresh stores
    first = mod.search(s, "website", scope="30d", mode="lexical")
    store = store_mod.open_store(s, "brain")
    (verdicts,) = store._checks.values()
    assert 0 in verdicts and ((verdicts == 1) | (verdicts == 2)).any()   # some pass, some are refused
    calls = []
    monkeypatch.setattr(mod, "admits_doc", lambda *a: calls.append(a) or True)
    assert mod.search(s, "website", scope="30d", mode="lexical") == first
    assert not calls
