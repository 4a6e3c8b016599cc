"""bf search and bf types over the built site's lunr index and document store (docs/replies.md#bf-search).
JS twin: site/engine/search.js — port it line by line; every order below is spelled out.
Without phrases, Python ranks through query/topk.py (same results, one check per note
rather than one item per hit); _candidates is the reference both runtimes share.

1. The query is prose. Its words are analysed like documents (bm25.query_terms: Unicode
   words, CJK/Thai/… bigrams, stemmed English, a diacritic-folded twin per term); nothing in it
   is lunr syntax. A double-quoted span is a phrase: its terms must also occur in that order
   in the item's stored text (excerpt.has_phrase).
2. Hits: the index's documents holding at least one (folded) term (BM25, bm25/reader.py;
   a record's neighbour field adds to its score). Those holding every term in their own text
   come first (tier 2 below), then the others by score alone: the every-word results, then
   the page filled with any-word ones (docs/replies.md, "Matching and ranking", says why).
   A date the query names (query/when.py) weighs the hits placed in it more; a person it
   names (query/who.py), the first POOL items naming that person.
3. Tiers (the index gives each hit one): 0 when the whole query is a note's title, alias or
   file stem (after analysis; such a note is a hit even when no indexed text holds a file
   stem's words), 1 when every term is in the item's title or aliases, 2 when every term is
   in its own text, else 3. A section's heading is not its title (views/documents indexes it
   as a heading).
4. One item per note: among a note and its sections, the best by (tier, higher score, the
   note before a section, ref); a section therefore replaces its note only when it outranks it.
5. Order of items: not deprecated before deprecated, tier, higher score, brain name, ref.
   Strings compare by code points (JS: not by UTF-16 units; use a code-point compare).
6. Then the first items are spread across conversations (query/spread.py).
"""
from __future__ import annotations

import re
from copy import copy

from ..kernel import refs
from ..kernel.errors import IndexMissing, InvalidInput
from ..kernel.formats import ITEM_FIELDS, RECORD_FIELDS
from ..kernel.periods import parse_period
from ..bm25 import FormatError, analyze, query_terms
from ..kernel.text import join_pieces   # the same join the build used
from ..kernel.times import from_rfc3339, seconds
from .coverage import coverage_fields
from .excerpt import excerpt, has_phrase
from .read import finish, selected
from .scopes import admits, admits_doc, parse_scope, window
from . import topk, vector
from .site import Site
from .spread import POOL, spread
from .store import BrainStore, Entry, open_store
from .when import period_of
from .who import BOOST, people

MAX_QUERY = 4096
MAX_LIMIT = 50
QUOTED = re.compile(r'"([^"]*)"')


def check_query(text) -> str:
    if not isinstance(text, str):
        raise InvalidInput("query", "must be a string")
    if len(text) > MAX_QUERY:
        raise InvalidInput("query", f"longer than {MAX_QUERY} characters ({len(text)})")
    return text


def check_limit(limit) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_LIMIT}, got {limit!r}")
    return limit


def _check_text(name: str, value) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InvalidInput(name, "must be a string")
    return value


def parse_query(text: str) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """(words, phrases): the query's (exact, folded) term pairs, and each quoted span's exact
    terms in order."""
    phrases = []
    for span in QUOTED.findall(text):
        terms = analyze(span)
        if terms:
            phrases.append(terms)
    return query_terms(text), phrases


def open_stores(site: Site, brains: list[str] | None) -> tuple[dict[str, BrainStore], list[str]]:
    chosen, _ = selected(site, "", brains)
    stores, missing = {}, []
    for name in chosen:
        store = open_store(site, name)
        if site.available(name) and store.ok():
            stores[name] = store
        else:
            missing.append(name)
    return stores, missing


def _entry(store: BrainStore, doc: int, group: str, scope) -> Entry | None:
    return store.hit(doc, group) if (scope.records if group else scope.notes) else None


def _text(store: BrainStore, entry: Entry) -> str:
    data = store.text(entry)
    if entry.kind == "record":
        return data
    pieces = data.get("pieces", [])
    if entry.kind == "section":
        return join_pieces(pieces[entry.section[2]:entry.section[3]])
    return join_pieces(pieces)


def _candidates(stores, words, phrases, scope, type_, path, when, as_of) -> tuple[list[tuple], bool]:
    """[(entry, score, count, tier)] that survive every filter, and whether the scope dropped any hit.
    Hits of index groups the scope cannot keep are dropped first. With a phrase, the others are
    then asked of the index alone, in hit order: whether their adjacent pairs may hold the phrase
    (reader.may_hold, over them all at once), and whether --type, --path and the scope keep them
    (_refused); only a hit that passes both has its entry made and its text read. A hit that
    cannot hold the phrase is asked of the scope only until the scope has dropped a hit (whether
    it did is a matter of every hit holding the words, phrase or not)."""
    kept, narrowed = [], False
    filtered = scope.kind != "none" or type_ is not None or path is not None
    check = _checker(stores, scope, type_, path, as_of) if phrases and filtered else None
    need = _phrase_terms(words, phrases)
    for name, store in sorted(stores.items()):
        bounds = window(scope, (store.site.brain(name) or {}).get("timezone", "UTC"), as_of)
        reader, keep = store.reader, topk.keep_groups(scope, store, type_, path)
        hits = reader.search_ids(words, False, when=when.get(name))
        at, dropped = store.kept(hits, keep)
        narrowed = narrowed or dropped
        if phrases:
            at, narrowed = _may_hold(store, hits, at, phrases, check, scope, narrowed)
        for i in at:
            doc, score, matched, tier = hits[i]
            group = reader.group(doc)
            entry = _entry(store, doc, group, scope)
            if entry is None:
                narrowed = narrowed or scope.kind != "none"
                continue
            if type_ is not None and (group or entry.meta.get("type") != type_):
                continue   # records have no type
            if path is not None and not _path(entry).startswith(path):
                continue
            if scope.kind != "none" and not admits(scope, entry, bounds):   # "none" admits all
                narrowed = True
                continue
            if phrases and not (need <= matched and all(has_phrase(_text(store, entry), p, store.site.words) for p in phrases)):
                continue
            kept.append((entry, score, len(matched), tier))
    return kept, narrowed


def _phrase_terms(words, phrases) -> frozenset:
    """The query's terms a hit must hold (search_ids' `matched`) to hold its phrases: each
    exact phrase term that folds to itself. The index holds each exact term of a document's
    body, which is its stored text (views/documents), in that term's posting, so a hit
    without one is spared its text."""
    exact = {t for p in phrases for t in p}
    return frozenset(f for e, f in words if e == f and e in exact)


def _may_hold(store: BrainStore, hits, at, phrases, check, scope, narrowed: bool) -> tuple[list[int], bool]:
    """(the positions of `at` whose hits may hold the phrases (reader.may_hold) and pass `check`
    (_refused), in order; whether the scope dropped a hit, `narrowed` before)."""
    if not len(at):
        return [], narrowed
    import numpy as np
    at = np.asarray(at)
    may = store.reader.may_hold(hits.ordered()[at], phrases)
    if check is None:
        return at[may].tolist(), narrowed
    at = at.tolist()
    passed, reader = [], store.reader
    for i, m in zip(at, may.tolist()):
        if not m and narrowed:
            continue
        doc = hits.docs[i]
        verdict = _refused(check, store, doc, reader.group(doc), scope)
        narrowed = narrowed or bool(verdict)
        if m and verdict is None:
            passed.append(i)
    return passed, narrowed


def _checker(stores, scope, type_, path, as_of):
    """check(store, doc, group, owner): None when the item of doc id `doc` (`owner`: its note's
    for a section) passes --type, --path and the scope, else whether its refusal narrows (as in
    _candidates), from the index alone (facets, placed instants, ref spans)."""
    bounds = {name: window(scope, (store.site.brain(name) or {}).get("timezone", "UTC"), as_of, seconds)
              for name, store in stores.items()}

    def check(store: BrainStore, doc: int, group: str, owner: int) -> bool | None:
        if type_ is not None and (group or owner not in store.reader.facet(f"type:{type_}")):
            return False
        if path is not None and not any(owner in ids for ids in _path_spans(store, group, path)):
            return False
        return None if scope.kind == "none" or admits_doc(scope, store, doc, group, owner, bounds[store.brain]) else True
    return check


def _refused(check, store: BrainStore, doc: int, group: str, scope) -> bool | None:
    """None when the item of doc id `doc` passes --type, --path and the scope (`check`: _checker's),
    else whether its refusal narrows: as _candidates' filters on its entry say."""
    if not (scope.records if group else scope.notes):
        return scope.kind != "none"
    return check(store, doc, group, store.reader.owner(doc))


def _path(entry: Entry) -> str:
    if entry.kind == "record":   # a record's ref is SOURCE:ID
        return f"memories/{entry.source}/{entry.ref.partition(':')[2]}.json"
    return entry.note


def _path_spans(store: BrainStore, group: str, path: str) -> list[range]:
    """The doc ids of index group `group` whose _path starts with `path`: a note's path is its
    ref; a record's, memories/SOURCE/ID.json, starts with it when its ID does with what follows
    memories/SOURCE/ in `path`, or its ID is a head of that before a head of `.json`."""
    if not group:
        return [store.span("", path)]
    folder = f"memories/{group}/"
    if folder.startswith(path):
        return [store.span(group, "")]
    if not path.startswith(folder):
        return []
    rest = path[len(folder):]
    heads = [store.span(group, f"{group}:{rest[:k]}", exact=True) for k in range(len(rest)) if ".json".startswith(rest[k:])]
    return [store.span(group, f"{group}:{rest}")] + heads


def _best_per_note(kept: list[tuple]) -> list[tuple]:
    """Doc ids stand for refs here: within a brain they are in ref (code point) order. (The
    browser ranks records before fetching their refs.)"""
    best: dict[tuple, tuple] = {}
    for cand in kept:
        entry = cand[0]
        key = (entry.brain, entry.note if entry.note is not None else entry.doc)
        cur = best.get(key)
        if cur is None or _within(cand) < _within(cur):
            best[key] = cand
    return sorted(best.values(), key=_order)


def _within(cand: tuple) -> tuple:
    entry, score, _, tier = cand
    return (tier, -score, 0 if entry.kind == "note" else 1, entry.doc)


def _order(cand: tuple) -> tuple:
    entry, score, _, tier = cand
    return (1 if entry.deprecated else 0, tier, -score, entry.brain, entry.doc)


def spans(stores: dict[str, BrainStore], period: str | None, as_of) -> dict[str, tuple[int, int]]:
    """{brain: (start, end) in seconds} of the period a query names, in each brain's timezone."""
    out = {}
    for name, store in stores.items() if period else ():
        try:
            parsed = parse_period(period, (store.site.brain(name) or {}).get("timezone", "UTC"), as_of)
        except (InvalidInput, OverflowError, ValueError):
            return {}
        if parsed is not None:
            out[name] = (seconds(parsed[1]), seconds(parsed[2]))
    return out


def copied(meta: dict, fields: tuple) -> dict:
    """Each of `fields` (kernel/formats.ITEM_FIELDS, RECORD_FIELDS) from a store entry, else the
    value it stands for, a fresh one (an item is the caller's to change)."""
    return {name: meta[name] if name in meta else copy(default) for name, default, _ in fields}


def item_of(store: BrainStore, cand: tuple, terms: set[str]) -> dict:
    entry, score, lexical_score, similarity = cand
    meta = entry.meta
    item = {"kind": entry.kind, "brain": entry.brain, "ref": entry.ref, "uri": refs.uri(entry.brain, entry.ref),
            "score": score, "lexical_score": lexical_score, "similarity": similarity, "path": _path(entry),
            **copied(meta, ITEM_FIELDS)}
    if entry.kind == "record":
        item.update(copied(meta, RECORD_FIELDS), source=entry.source)
    else:
        item.update(title=entry.section[1] if entry.kind == "section" else meta.get("title", ""))
    item["excerpt"] = store.excerpt(entry, terms, lambda: _excerpt(store, entry, terms))
    return item


def _excerpt(store: BrainStore, entry: Entry, terms: set[str]) -> str:
    text = _text(store, entry)
    fallback = (store.text(entry).get("summary") or text) if entry.kind == "note" else text
    return excerpt(text, terms, fallback, memo=store.site.words)


def _spread(stores, scored: list[tuple], block) -> list[tuple]:
    """`scored` (entry, score, …) in reply order, spread across conversations (spread.py);
    `block(cand)`: the part of the reply's order before the score."""
    def conversation(cand: tuple) -> tuple:
        entry = cand[0]
        if entry.kind == "record":
            # numbered per source (views/conversations.py)
            return (entry.brain, "record", entry.source, stores[entry.brain].reader.conversation(entry.doc))
        return (entry.brain, "note", entry.owner)   # its note's doc id: no ref needed
    return spread(scored, conversation, block)


def _named(stores, keys: list[str], top: list[tuple]) -> list[tuple]:
    """`top` (the ranked pool) with the score of each item naming one of the identities `keys`
    (who.py) times BOOST, ranked again; a section by its note's identities."""
    if not keys:
        return top
    held = {name: set().union(*(store.reader.facet(f"entity:{k}") for k in keys)) for name, store in stores.items()}
    weighed = [(c[0], c[1] * BOOST, *c[2:]) if c[0].owner in held[c[0].brain] else c for c in top]
    return sorted(weighed, key=_order)


def _top(stores, words, phrases, scope, type_, path, when, as_of, limit) -> tuple[list[tuple], int, bool]:
    """(the first `limit` ranked candidates, how many in all, whether the scope dropped a hit)."""
    if not phrases:
        check = _checker(stores, scope, type_, path, as_of)
        return topk.ranked_top(stores, words, scope, type_, path, when, limit, check, _order)
    kept, narrowed = _candidates(stores, words, phrases, scope, type_, path, when, as_of)
    ranked = _best_per_note(kept)
    return ranked[:limit], len(ranked), narrowed


def search(site: Site, query, *, scope=None, type=None, path=None, limit=10, brains=None, mode=None) -> dict:
    text = check_query(query)
    limit = check_limit(limit)
    type_, path = _check_text("type", type), _check_text("path", path)
    stores, missing = open_stores(site, brains)
    sc = parse_scope(scope, stores)
    as_of = from_rfc3339(site.as_of)
    words, phrases = parse_query(text)
    mode, has_vectors = vector.check_mode(mode, site, stores)
    depth = limit if mode == "lexical" else max(limit, vector.DEPTH)
    top, total, narrowed = [], 0, False
    try:
        if words and not (mode == "semantic" and topk.own_candidates(sc, type_, path)):
            when = spans(stores, period_of(text), as_of)
            top, total, narrowed = _top(stores, words, phrases, sc, type_, path, when, as_of, POOL)
            top = _spread(stores, _named(stores, people(text), top), lambda c: _order(c)[:2])[:depth]
    except FormatError as exc:   # a site built by an older bf: its index is another format
        raise IndexMissing(str(site.path), f"search index: {exc}") from None
    if mode == "lexical":
        scored = [(c[0], c[1], c[1], None) for c in top]
    else:   # fuse after the lexical ranking: it gives its ordered candidates, the vector arm re-ranks
        admit = (lambda e: all(has_phrase(_text(stores[e.brain], e), p, site.words) for p in phrases)) if phrases else None
        scored, total = vector.fused(mode, site, stores, text, top, total, len({f for _, f in words}),
                                     limit, sc, type_, path, lambda ranked, block: _spread(stores, ranked, block), admit)
    terms = {t for pair in words for t in pair}
    items = [item_of(stores[c[0].brain], c, terms) for c in scored[:limit]]
    reply = {"query": text, "scope": sc.text, "as_of": site.as_of, "brains": sorted(stores), "items": items,
             "total": total, "scope_empty": sc.kind != "none" and not items and narrowed,
             "arms": {"hybrid": ["lexical", "vector"], "lexical": ["lexical"], "semantic": ["vector"]}[mode],
             "degraded": not has_vectors}
    reply.update(coverage_fields(sc, stores, items))
    return finish(site, sorted(stores), reply, missing)


def types(site: Site, *, brains=None) -> dict:
    """The `type` values in use with their note counts, most used first, then by name."""
    stores, missing = open_stores(site, brains)
    counts: dict[str, int] = {}
    for store in stores.values():
        for name, n in store.meta.get("types", {}).items():
            counts[name] = counts.get(name, 0) + n
    listed = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    reply = {"as_of": site.as_of, "brains": sorted(stores), "types": [{"type": t, "count": n} for t, n in listed]}
    return finish(site, sorted(stores), reply, missing)
