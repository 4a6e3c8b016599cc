"""bf similar REF (docs/replies.md#bf-similar): the notes and records nearest a note, section or record by the
vector arm (query/vector.py). JS twin: site/engine/similar.js — same steps and orders.

1. REF is read like `bf read`'s (a ref or bf:// address; with several brains the first
   selected brain holding it). Its document vector (the build's, _bf/search/BRAIN/vectors/)
   is the query: similarity to another item is dot / (sqrt(qq) * sqrt(dd)) over exact
   integers, as in search. An item without a vector (no word the table knows) has no
   neighbours: no items.
2. Candidates: the notes and records of every selected brain that have a vector, in the
   scope's index groups, never sections (one item per note), never REF itself — nor, for a
   section, the note that holds it; with no scope (or one that refuses nothing in its groups),
   those of the PROBE buckets nearest REF's vector, as search's own candidates. A scope that
   could refuse an item of those groups (a folder, tag, period, identity) is checked item by
   item over every bucket of the groups, in vector order, as search checks.
3. Order: similarity descending, then brain, then doc id (vector order); `score` and
   `similarity` are the similarity, `lexical_score` null, `arms` ["vector"]. `total` counts
   the candidates.
The reply is a search reply (schemas/search-reply.schema.json) whose `query` is REF, plus
`similar_to` naming the item.
"""
from __future__ import annotations

from ..kernel import refs
from ..kernel.errors import EmbeddingsMissing, InvalidInput, NotFound
from ..kernel.times import from_rfc3339
from .coverage import coverage_fields
from .read import check_ref, finish, selected
from .scopes import admits, parse_scope, window
from .search import check_limit, item_of, open_stores
from .site import Site
from . import topk, vector
from .vectorstore import brain_vectors, table


def _candidate(store, vectors, groups: set[str] | None, doc: int) -> bool:
    return (groups is None or store.reader.group(doc) in groups) and vectors.addable(doc)


def _target(stores: dict, chosen: list[str], ref: str):
    """(store, doc, the doc ids never listed) of the first chosen brain whose index holds `ref`."""
    for name in chosen:
        store = stores.get(name)
        doc = store.reader.doc(ref) if store is not None else None
        if doc is not None:
            note = ref.partition("#")[0] if "#" in ref and not store.reader.group(doc) else None
            skip = {doc} | ({store.reader.doc(note)} if note else set())
            return store, doc, skip
    return None, None, set()


EMPTY_SIMILAR = "empty: name a note, section or record (bf search finds one)"


def similar(site: Site, ref_text, *, limit=10, scope=None, brains=None) -> dict:
    ref_text = check_ref(ref_text)
    if not ref_text:   # bf read's empty ref is home, which has no neighbours by meaning
        raise InvalidInput("ref", EMPTY_SIMILAR)
    limit = check_limit(limit)
    chosen, ref = selected(site, ref_text, brains)
    stores, missing = open_stores(site, brains)
    sc = parse_scope(scope, stores)
    if not (stores and table(site).ok() and all(brain_vectors(site, s).ok() for s in stores.values())):
        raise EmbeddingsMissing(str(site.path), "semantic", asked="bf similar")
    store, doc, skip = _target(stores, chosen, ref)
    if store is None:
        raise NotFound(ref_text)
    q, qq = brain_vectors(site, store).row(doc)
    as_of = from_rfc3339(site.as_of)
    trivial = topk.own_candidates(sc, None, None)
    found, total = [], 0
    for name, other in sorted(stores.items()):
        groups = topk.keep_groups(sc, other, None, None)
        vectors = brain_vectors(site, other)
        count = vectors.count(groups)
        # a trivial scope refuses nothing: the first limit + 2 (REF and its note) suffice
        near = (vectors.nearest(q, qq, groups, limit + 2, vector.PROBE) if trivial
                else vectors.nearest(q, qq, groups, count)) if qq else []
        bounds = window(sc, (site.brain(name) or {}).get("timezone", "UTC"), as_of)
        mine = skip if other is store else set()
        kept = 0
        for sim, d in near:
            if d in mine:
                continue
            entry = other.hit(d, other.reader.group(d))
            if entry is None or not (trivial or admits(sc, entry, bounds)):
                continue
            kept += 1
            if kept <= limit:
                found.append((sim, name, d, entry))
        total += count - sum(_candidate(other, vectors, groups, d) for d in mine) if trivial else kept
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    items = [item_of(stores[name], (entry, sim, None, sim), set()) for sim, name, _, entry in found[:limit]]
    target = store.hit(doc, store.reader.group(doc))
    reply = {"query": ref_text, "similar_to": {"kind": target.kind, "brain": store.brain, "ref": target.ref,
                                               "uri": refs.uri(store.brain, target.ref)},
             "scope": sc.text, "as_of": site.as_of, "brains": sorted(stores), "items": items, "total": total,
             "scope_empty": sc.kind != "none" and not items and bool(qq), "arms": ["vector"], "degraded": False}
    reply.update(coverage_fields(sc, stores, items))
    return finish(site, sorted(stores), reply, missing)
