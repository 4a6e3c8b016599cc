"""Scoped searches filter hits from the index (bm25 FORMAT.md f/ and p/): the facets and placed
instants hold what the store's metadata says, scopes.admits_doc and search._path_spans answer
as scopes.admits and search._path do on every document (the example brain and generated ones,
random scopes), and a scoped search reads the metadata of the items it returns only."""
from __future__ import annotations

import random
from datetime import datetime

import pytest

from bench.gen import generate
from builder.build import build
from builder.kernel.errors import InvalidInput
from builder.kernel.times import from_rfc3339, seconds
from builder.query import search as mod
from builder.query import store as store_mod
from builder.query.scopes import admits, admits_doc, parse_scope, window
from builder.query.site import open_site
from search_fixtures import NOW, site


def _docs(store):
    """(doc id, group, owner, entry) of every document of the brain's index."""
    reader, owners = store.reader, store.owners()
    for group, first, count in reader.meta["groups"]:
        for doc in range(first, first + count):
            yield doc, group, owners[doc] if not group else doc, store.hit(doc, group)


def _facets(entry) -> set[str]:
    meta = entry.meta
    keys = {f"entity:{e}" for e in meta.get("entities", [])}
    for tag in meta.get("tags", []):
        keys |= {f"tag:{tag[:i]}" for i, c in enumerate(tag) if c == "/"} | {f"tag:{tag}"}
    if meta.get("type") is not None:
        keys.add(f"type:{meta['type']}")
    if meta.get("deprecated"):
        keys.add("deprecated")
    if entry.kind == "record" and meta.get("time") is None:
        keys.add("undated")
    return keys


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Sites of two generated brains (random tags, people, sources, times)."""
    out = []
    for seed in (3, 11):
        root = tmp_path_factory.mktemp(f"gen{seed}")
        generate(root / "brain", 40, records_per_note=4, seed=seed)
        build([root / "brain"], root / "site", now=NOW, pagefind=False, embeddings=False)
        out.append(root / "site")
    return out


def _sites(generated):
    return [site()] + [open_site(p) for p in generated]


def test_facets_and_placed_hold_the_metadata(generated):
    for s in _sites(generated):
        stores, _ = mod.open_stores(s, None)
        for store in stores.values():
            reader, seen = store.reader, set()
            for doc, group, owner, entry in _docs(store):
                placed = entry.meta.get("placed")
                assert reader.placed(doc) == (placed and seconds(from_rfc3339(placed))), entry.ref
                if owner != doc:
                    continue   # a section filters as its note
                want = _facets(entry)
                seen |= want
                for key in want:
                    assert doc in reader.facet(key), (entry.ref, key)
            for key in seen:   # and no document holds a facet its metadata does not say
                for doc in reader.facet(key):
                    assert key in _facets(store.hit(doc, reader.group(doc))), (doc, key)


def _scopes(store, rng) -> list[str]:
    notes, tags, people, sources = [], set(), set(), store.sources()
    for doc, group, owner, entry in _docs(store):
        if not group and owner == doc:
            notes.append(entry.ref)
            for tag in entry.meta.get("tags", []):
                tags |= {tag, tag.partition("/")[0]}
        people |= set(entry.meta.get("entities", []))
    folders = sorted({n.rpartition("/")[0] for n in notes if "/" in n} | {"nowhere"})
    periods = ["30d", "7d", "2026-11", "2026", "2025-W48"]
    picks = [None, "memories", *(f"memories/{s}" for s in sources), *(f"memories/{s}/undated" for s in sources)]
    picks += rng.sample(folders, min(4, len(folders))) + rng.sample(notes, 3) + ["missing.md"]
    picks += [f"tags/{t}" for t in rng.sample(sorted(tags), min(4, len(tags)))] + ["tags/no-such-tag"]
    picks += rng.sample(sorted(people), min(3, len(people))) + ["person:nobody"] + periods + ["1000", "0999-01"]
    picks += [f"{rng.choice(folders)}/{rng.choice(periods)}", f"{rng.choice(sorted(people))}/30d" if people else "30d",
              f"memories/{rng.choice(sources)}/30d", f"bf://{store.brain}/{rng.choice(notes)}", f"bf://other/{notes[0]}"]
    return picks


def _paths(store, rng) -> list[str]:
    refs = [entry.ref for _, _, _, entry in _docs(store)]
    records = [r for r in refs if ":" in r]
    out = ["", "memories/", "m", "memories/x", rng.choice(refs)[:5]]
    for ref in rng.sample(records, min(3, len(records))):
        source, _, rid = ref.partition(":")
        base = f"memories/{source}/{rid}"
        out += [f"memories/{source}", f"memories/{source}/", base[:-2], base, base + ".j", base + ".json", base + ".jsonx"]
    return out


def test_index_filters_answer_as_the_metadata(generated):
    rng = random.Random(5)
    for s in _sites(generated):
        stores, _ = mod.open_stores(s, None)
        as_of = datetime.fromisoformat(s.as_of.replace("Z", "+00:00"))
        for store in stores.values():
            docs = list(_docs(store))
            for text in _scopes(store, rng):
                try:
                    scope = parse_scope(text, {**stores, "other": store})
                except InvalidInput:
                    continue
                zone = (s.brain(store.brain) or {}).get("timezone", "UTC")
                bounds, instants = window(scope, zone, as_of), window(scope, zone, as_of, seconds)
                for doc, group, owner, entry in docs:
                    assert admits_doc(scope, store, doc, group, owner, instants) == admits(scope, entry, bounds), (text, entry.ref)
            for path in _paths(store, rng):
                for doc, group, owner, entry in docs:
                    held = any(owner in ids for ids in mod._path_spans(store, group, path))
                    assert held == mod._path(entry).startswith(path), (path, entry.ref)


def _chunk(store, entry) -> str:
    """The meta chunk file holding the item's metadata."""
    if entry.kind == "record":
        folder, heads = f"records/{entry.source}", store.meta["record_chunks"][entry.source]
    else:
        folder, heads = "notes", store.meta["note_chunks"]
    return f"{folder}/m/{sum(h <= (entry.ref if entry.kind == 'record' else entry.note) for h in heads) - 1}.json"


@pytest.mark.parametrize("scope", ["30d", "person:alice", "tags/website", "projects", "memories/chat/30d",
                                   "concepts/30d", "projects/new-website.md"])
def test_scoped_search_reads_the_metadata_of_its_items_only(scope):
    s = site()   # a fresh Site, so fresh stores: nothing read yet
    store = store_mod.open_store(s, "brain")
    parse_scope(scope, {"brain": store})   # reads where a folder would be (a path ending in a period)
    parsed = set(store._files)
    reply = mod.search(s, "website launch plan", scope=scope, mode="lexical", limit=3)
    assert reply["items"]
    read = {rel for rel in store._files if "/m/" in rel} - parsed
    shown = {_chunk(store, store.hit(store.reader.doc(item["ref"]), store.reader.group(store.reader.doc(item["ref"]))))
             for item in reply["items"]}
    assert read <= shown, (scope, read - shown)


@pytest.mark.parametrize("scope", [None, "30d", "person:alice", "tags/website", "memories"])
def test_ranking_reads_no_ref_nor_metadata(scope):
    """The pool a hybrid search fuses (spread.POOL candidates) is ranked and spread from the
    index alone: owners, deprecated ids, conversations; refs and metadata wait for the items."""
    s = site()   # a fresh Site, so fresh stores: nothing read yet
    stores, _ = mod.open_stores(s, None)
    sc = parse_scope(scope, stores)
    parsed = set(stores["brain"]._files)
    as_of = datetime.fromisoformat(s.as_of.replace("Z", "+00:00"))
    top, _, _ = mod._top(stores, mod.parse_query("website launch plan")[0], [], sc, None, None, {}, as_of, 50)
    top = mod._spread(stores, top, lambda c: mod._order(c)[:2])
    assert len(top) > 3
    assert not [rel for rel in stores["brain"]._files if "/m/" in rel and rel not in parsed]
    assert not [key for key in stores["brain"].reader._chunks if key[0] == "r"]
