"""Ranking without an item per hit, for searches without phrases (docs/replies.md#matching-and-ranking): same items, order,
total and `scope_empty` as search._candidates + search._best_per_note. JS twin:
site/engine/topk.js rankedTop, so the browser too reads the metadata of what it ranks, not of
every hit (a common word's search at 10k notes read every note's metadata chunk); parity tests
compare both runtimes, and the two paths (tests/query/test_search_topk.py).

Why it is the same:
- Without phrases every filter (--type, --path, the scope) reads only what a section shares
  with its note (note ref, meta), so it holds for all hits of a note or none; it is checked
  once per note (a record stands for itself), from the index (scopes.admits_doc): no hit's
  metadata is read to filter it.
- Hits come in (tier, higher score, doc id) order, as search_ids sorts them. The best
  item of a note is its first hit in that order: notes and sections are numbered in ref order
  (bm25/layout.arrange: group "") and the note's ref is a prefix of its sections' refs, so its
  id is smaller, which is `_within`'s "note before section, then ref".
- Items are ordered non-deprecated first, then by that order (brain and id break ties), so
  past `limit` non-deprecated items a brain's walk only counts notes for `total`.
- When every kept hit passes and no date weighs them, the walk needs only the hits before its
  last item: the browser ranks a query of many postings by bounds (bm25/blocks.js), which
  weighs the hits of the l/ chunks that may hold one (FORMAT.md#block-bounds); `total` and
  `narrowed` come from every hit's id. Python does so only when _BOUNDS is on (the tests and
  bench/view.as_browser); by default it weighs every hit, which costs it less.
"""
from __future__ import annotations

import sys

from ..bm25.blocks import blocked
from .scopes import NOTE_KINDS, RECORD_KINDS, Scope
from .store import BrainStore


# Python weighs every hit: its files are on disk, and bounding a frequent word's hits cost more
# than the weighing it saved (docs/decisions.md#block-bounds-rank-in-the-browser-python-weighs-every-hit).
# The browser bounds (topk.js): there an l/ file not fetched is bytes not downloaded.
# tests/bm25/test_blocks.py turns it on here, to prove both walks take the same items.
_BOUNDS = False


def own_candidates(scope: Scope, type_, path) -> bool:
    """Whether every doc of the kept index groups (keep_groups) passes the filters: then
    ranked_top checks no item, and the vector arm may add its own candidates (vector.py)."""
    return (scope.kind in ("none", "memories", "source") and scope.period is None and scope.brain is None
            and type_ is None and path is None)


def keep_groups(scope: Scope, store: BrainStore, type_, path) -> set[str] | None:
    """The index groups (records: their source; notes and sections: "") whose hits can survive
    the scope, or None for all. A dropped hit is one the scope would have refused, so it marks
    the reply `narrowed`; hits of another source are dropped only when no --type or --path
    filter would have refused them first (those refusals do not narrow)."""
    if scope.kind in NOTE_KINDS:
        return {""}
    if scope.kind in ("source", "undated") and type_ is None and path is None:
        return {scope.value}
    if scope.kind in RECORD_KINDS:
        return set(store.meta.get("records", {}))
    return None


def ranked_top(stores: dict[str, BrainStore], words: list[str], scope: Scope, type_, path, when: dict,
               limit: int, check, order) -> tuple[list[tuple], int, bool]:
    """(the first `limit` ranked (entry, score, count), how many in all, whether the scope
    dropped a hit). `when`: {brain: the span of the date the query names} (search.spans).
    `check(store, doc, group, owner)` is None when the item of doc id `doc` (in index group
    `group`, ranking as doc `owner`) passes the filters, else whether its refusal narrows;
    `order` is search._order."""
    top, total, narrowed = [], 0, False
    # Every hit the groups keep passes: no filter to check, and the walk stops at `limit`.
    trivial = own_candidates(scope, type_, path)
    for name, store in sorted(stores.items()):
        keep = keep_groups(scope, store, type_, path)
        ranking = blocked(store.reader, words) if _BOUNDS and trivial and when.get(name) is None else None
        if ranking is not None:
            part, count, cut = _pruned(store, ranking, keep, limit)
        else:
            part, count, cut = _walked(store, words, scope, type_, path, when.get(name), keep, limit, check, trivial)
        top, total, narrowed = top + part, total + count, narrowed or cut
    return sorted(top, key=order)[:limit], total, narrowed


def _walked(store: BrainStore, words, scope: Scope, type_, path, when, keep, limit: int, check, trivial: bool) -> tuple:
    """ranked_top of one brain over every hit: (its items, its total, whether the scope dropped a hit)."""
    total, narrowed = 0, False
    hits = store.reader.search_ids(words, False, when=when)
    docs, idx, kept = hits.docs, range(len(hits)), None
    if keep is not None:
        if trivial and hits.ids is not None:   # the kept hits counted over arrays, walked as far as needed
            mask, n = store.in_groups(keep), len(idx)
            kept = hits.ids[sys.modules["numpy"].frombuffer(mask, dtype=bool)[hits.ids]]
            idx, narrowed = (i for i in range(n) if mask[docs[i]]), kept.size < n
        else:
            idx, narrowed = store.kept(hits, keep)
    # Owners: a section ranks as its note; a record as itself (record scopes skip the refs).
    owners = store.owners() if keep is None or "" in keep else None
    if trivial and kept is not None:
        total += owners.count(kept) if owners else int(kept.size)
    elif trivial:   # (idx is a range only while it is every hit: then docs are the hits)
        held = map(docs.__getitem__, idx) if not isinstance(idx, range) else docs if hits.ids is None else hits.ids
        total += owners.count(held) if owners else len(idx)
    if not trivial:
        filters = (scope.kind, scope.value, scope.period, scope.brain, type_, path)
        return _checked(store, hits, idx, owners, store.verdicts(filters), check, limit, narrowed)
    return _items(store, hits, _firsts(idx, docs, owners), limit), total, narrowed


def _firsts(idx, docs, owners):
    """The positions of `idx` whose hit is its owner's first, lazily: a walk stops early."""
    seen = set()
    for i in idx:
        doc = docs[i]
        owner = owners[doc] if owners else doc
        if owner not in seen:
            seen.add(owner)
            yield i


def _items(store: BrainStore, hits, positions, limit: int) -> list[tuple]:
    """(entry, score, count) of the hits at `positions`, in order, until `limit` of them are
    not deprecated."""
    top, fresh, groups = [], 0, store.groups()
    for i in positions:
        if fresh == limit:
            break
        doc, score, matched, tier = hits[i]
        entry = store.candidate(doc, groups[doc])
        top.append((entry, score, len(matched), tier))
        fresh += 0 if entry.deprecated else 1
    return top


def _checked(store: BrainStore, hits, idx, owners, verdicts, check, limit: int, narrowed: bool) -> tuple:
    """_walked with filters to check, over arrays: the first hit of each owner in hit order
    decides it; each doc's verdict is asked once (`verdicts`: BrainStore.verdicts); every owner
    that passes counts, the first ones up to `limit` not deprecated are the items."""
    import numpy as np
    at = np.arange(len(hits)) if isinstance(idx, range) else np.asarray(idx, dtype=np.int64)
    docs = hits.ordered()[at]
    own = owners.of(docs) if owners else docs
    first = np.sort(np.unique(own, return_index=True)[1])
    at, docs, own = at[first], docs[first], own[first]
    ask = np.flatnonzero(verdicts[docs] < 0)
    groups = store.groups()
    for doc, owner in zip(docs[ask].tolist(), own[ask].tolist()):
        why = check(store, doc, groups[doc], owner)
        verdicts[doc] = 0 if why is None else 1 if why else 2
    got = verdicts[docs]
    passing = at[got == 0].tolist()
    return _items(store, hits, passing, limit), len(passing), narrowed or bool((got == 1).any())


def _pruned(store: BrainStore, ranking, keep, limit: int) -> tuple:
    """ranked_top of one brain, trivial, over a bm25/blocks.Blocked ranking: the total and
    whether the scope dropped a hit from every hit's id; the items from the hits of the chunks
    read, reading more until no unread hit may rank at or before the last item taken."""
    np = ranking.np
    kept = None if keep is None else np.frombuffer(store.in_groups(keep), dtype=np.uint8).astype(bool)
    every = ranking.every
    held = every if kept is None else every[kept[every]]
    owners = store.owners() if keep is None or "" in keep else None
    total = owners.count(held) if owners else int(held.size)
    ranking.take(ranking.ahead(None, kept, limit))
    while True:
        top, last = _taken(store, ranking.hits(), kept, owners, limit)
        more = ranking.ahead(last, kept, limit)
        if not more.size:
            return top, total, bool(held.size < every.size)
        ranking.take(more)


def _taken(store: BrainStore, hits, kept, owners, limit: int) -> tuple[list[tuple], tuple | None]:
    """The walk's items over `hits` (those `kept` marks, one per owner), and the (tier, score, doc
    id) of the item that made `limit` not deprecated (then it stops), else None."""
    top, seen, fresh, groups = [], set(), 0, store.groups()
    for i, doc in enumerate(hits.docs):
        if kept is not None and not kept[doc]:
            continue
        owner = owners[doc] if owners else doc
        if owner in seen:
            continue
        seen.add(owner)
        entry = store.candidate(doc, groups[doc])
        _, score, matched, tier = hits[i]
        top.append((entry, score, len(matched), tier))
        fresh += 0 if entry.deprecated else 1
        if fresh == limit:
            return top, (tier, score, doc)
    return top, None
