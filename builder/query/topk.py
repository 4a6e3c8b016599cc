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
"""
from __future__ import annotations

from itertools import compress

from .scopes import NOTE_KINDS, RECORD_KINDS, Scope
from .store import BrainStore


_UNCHECKED = object()


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


def _mask(store: BrainStore, keep: set[str]) -> bytes:
    """1 at the doc ids of the kept groups, else 0."""
    mask = bytearray(store.reader.meta["ids"])
    for name, first, count in store.reader.meta["groups"]:
        if name in keep:
            mask[first:first + count] = b"\1" * count
    return bytes(mask)


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
        reader = store.reader
        hits = reader.search_ids(words, False, when=when.get(name))
        docs, idx = hits.docs, range(len(hits))
        keep = keep_groups(scope, store, type_, path)
        if keep is not None:
            mask, n = _mask(store, keep), len(idx)
            flags = map(mask.__getitem__, docs) if isinstance(idx, range) else (mask[docs[i]] for i in idx)
            idx = list(compress(idx, flags))
            narrowed = narrowed or len(idx) < n
        # Owners: a section ranks as its note; a record as itself (record scopes skip the refs).
        owners = store.owners() if keep is None or "" in keep else None
        if trivial:   # (idx is a range only while it is every hit: then docs are the hits)
            held = map(docs.__getitem__, idx) if not isinstance(idx, range) else docs if hits.ids is None else hits.ids
            total += owners.count(held) if owners else len(idx)
        groups = store.groups()
        verdicts = None if trivial else store.checks((scope.kind, scope.value, scope.period, scope.brain, type_, path))
        seen, fresh = {}, 0
        for i in idx:
            doc = docs[i]
            owner = owners[doc] if owners else doc
            if owner in seen:
                continue
            if trivial:
                why = None
            else:
                why = verdicts.get(doc, _UNCHECKED)
                if why is _UNCHECKED:
                    why = verdicts[doc] = check(store, doc, groups[doc], owner)
            seen[owner] = why
            if why is not None:
                narrowed = narrowed or why
                continue
            total += 0 if trivial else 1
            if fresh < limit:
                entry = store.candidate(doc, groups[doc])
                _, score, matched, tier = hits[i]
                top.append((entry, score, len(matched), tier))
                if not entry.deprecated:
                    fresh += 1
            elif trivial:
                break
    return sorted(top, key=order)[:limit], total, narrowed
