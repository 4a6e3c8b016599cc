"""The index's adjacent-pair filter (builder/bm25/adjacent.py, FORMAT.md a/): it never drops a hit
holding its phrase, so phrase searches answer as the text check alone does, and it spares the
texts of hits that cannot hold the phrase."""
from __future__ import annotations

import random

import numpy as np
import pytest

from bench.view import opened_files
from builder.bm25 import analyze
from builder.bm25.reader import IndexReader
from builder.query import search as search_mod
from builder.query.search import open_stores, search
from search_fixtures import site, site_dir


def _docs(store):
    """(doc id, entry, its exact terms) of every note, section and record of the brain."""
    reader = store.reader
    for group, first, count in reader.meta["groups"]:
        for doc in range(first, first + count):
            entry = store.hit(doc, group)
            if entry is not None:
                yield doc, entry, analyze(search_mod._text(store, entry), store.site.words)


def test_every_run_of_a_text_passes_the_filter():
    """No false negative: each two, three and four adjacent terms of every item's stored text."""
    stores, _ = open_stores(site(), None)
    rng, checked = random.Random(3), 0
    for store in stores.values():
        for doc, entry, terms in _docs(store):
            for n in (2, 3, 4):
                for i in rng.sample(range(max(0, len(terms) - n + 1)), min(5, max(0, len(terms) - n + 1))):
                    assert store.reader.may_hold([doc], [terms[i:i + n]])[0], (entry.ref, terms[i:i + n])
                    checked += 1
    assert checked > 1000


def test_a_pair_the_text_lacks_mostly_fails_it():
    """The filter filters: reversed pairs (which the texts mostly lack) fail it for most notes and
    records (a section is filtered as its note: by more pairs than its own)."""
    stores, _ = open_stores(site(), None)
    tried = failed = 0
    for store in stores.values():
        for doc, entry, terms in _docs(store):
            if entry.kind == "section":
                continue
            pairs = set(zip(terms, terms[1:]))
            for a, b in list(pairs)[:5]:
                if (b, a) not in pairs:
                    tried += 1
                    failed += not store.reader.may_hold([doc], [[b, a]])[0]
    assert tried > 200 and failed > 0.95 * tried, (failed, tried)


PHRASES = ['"pricing page"', '"page pricing"', '"launch checklist"', '"new website"', '"website new"',
           '"visitors want"', '"want visitors"', '"pricing tiers" launch', '"the pricing page of the website"']


@pytest.mark.parametrize("scope,options", [(None, {}), ("memories", {}), ("projects", {}), ("30d", {}),
                                           ("tags/website", {}), ("person:alice", {}), ("memories/chat/7d", {}),
                                           ("2026-11", {"type": "project"}), ("projects", {"path": "projects/new"})])
def test_phrase_replies_equal_the_text_check_alone(monkeypatch, scope, options):
    """With the filters (adjacent pairs, and the terms a hit must hold: search._phrase_terms) a
    hit that cannot hold the phrase is asked of the scope from the index alone (search._checker),
    without them from its entry: scope_empty is the same."""
    with_filter = [search(site(), q, scope=scope, limit=50, **options) for q in PHRASES]
    monkeypatch.setattr(IndexReader, "may_hold", lambda self, docs, phrases: np.ones(len(docs), dtype=bool))
    monkeypatch.setattr(search_mod, "_phrase_terms", lambda words, phrases: frozenset())
    assert [search(site(), q, scope=scope, limit=50, **options) for q in PHRASES] == with_filter
    assert any(not r["items"] for r in with_filter)


def test_a_scope_that_drops_a_hit_is_told_when_no_hit_holds_the_phrase():
    reply = search(site(), '"want visitors"', scope="projects")
    assert reply["items"] == [] and reply["scope_empty"] is True   # records hold both words, out of scope
    assert search(site(), '"want visitors"')["scope_empty"] is False


def test_a_phrase_search_reads_fewer_texts(monkeypatch):
    """'"want visitors"': its words are in several items, in that order in none: the texts of
    those items are read only without the filter."""
    def texts(run):
        return {p for p in opened_files(run) if "/_bf/search/" in p and ("/notes/" in p or "/records/" in p)}
    query = '"want visitors"'
    with_filter = texts(lambda: search(site(), query))
    monkeypatch.setattr(IndexReader, "may_hold", lambda self, docs, phrases: np.ones(len(docs), dtype=bool))
    without = texts(lambda: search(site(), query))
    assert search(site(), query)["items"] == [] and search(site(), "want visitors")["total"] > 1
    assert with_filter < without, (with_filter, without)
    assert site_dir()   # the shared build


def test_a_hit_without_a_phrase_term_is_spared_its_text(monkeypatch):
    """search._phrase_terms: with the pair filter off, a hit holding one of the phrase's words but
    not the other has its text read only without the terms filter; the reply is the same."""
    def texts(run):
        return {p for p in opened_files(run) if "/_bf/search/" in p and ("/notes/" in p or "/records/" in p)}
    query = '"pricing page"'
    monkeypatch.setattr(IndexReader, "may_hold", lambda self, docs, phrases: np.ones(len(docs), dtype=bool))
    reply = search(site(), query)
    with_filter = texts(lambda: search(site(), query))
    monkeypatch.setattr(search_mod, "_phrase_terms", lambda words, phrases: frozenset())
    assert search(site(), query) == reply and reply["items"]
    assert with_filter < texts(lambda: search(site(), query))
