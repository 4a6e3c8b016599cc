"""Python reader of the sharded index (twin of site/engine/lunrindex.js).

A document's score is ``S / 1000 / q`` with ``S = sum_t c_t * K[t, doc]``
(integers, so exact) and ``q = sqrt(sum_t c_t**2)``, ``c_t`` being how often
the query names term t: the same float operations in both runtimes.
"""
from __future__ import annotations

import json
import math
import os
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate, compress

from .index import FORMAT, fnv1a
from .pipeline import analyze_query_word

try:  # orjson parses the shards ~2x faster; json gives the same values
    from orjson import loads as _loads
except ImportError:  # pragma: no cover
    _loads = json.loads


class _Posting:
    __slots__ = ("ids", "ks", "_map", "_order", "_ranked")

    def __init__(self, gaps, ks):
        self.ids = list(accumulate(gaps))
        self.ks = ks
        self._map = None
        self._order = None
        self._ranked = None

    def ranked(self):
        """Doc ids in order() order."""
        if self._ranked is None:
            self._ranked = list(map(self.ids.__getitem__, self.order()))
        return self._ranked

    def map(self):
        if self._map is None:
            self._map = dict(zip(self.ids, self.ks))
        return self._map

    def order(self):
        """Positions by weight descending, ties by id (stable sort)."""
        if self._order is None:
            self._order = sorted(range(len(self.ks)), key=self.ks.__getitem__, reverse=True)
        return self._order


class Hits(Sequence):
    """search_ids' result: ``hits[i]`` is ``(doc, score, matched)``, ``docs`` the doc ids in
    that order. One-term hits (the long lists of common words) make their tuples on demand."""

    def __init__(self, docs, at):
        self.docs, self._at = docs, at

    @classmethod
    def of(cls, rows):
        return cls([r[0] for r in rows], rows.__getitem__)

    def __len__(self):
        return len(self.docs)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._at(k) for k in range(len(self.docs))[i]]
        return self._at(i)


class IndexReader:
    """Lazy reader: loads meta.json, then shards/refs as queries need them.

    ``search`` returns ``(ref, score, matched)`` sorted by score descending,
    ties by ref ascending (doc ids follow ref order, so both runtimes break
    ties the same way). ``matched`` is the frozenset of the given words whose
    term occurs in the document. Query words are lower-cased and stemmed (the
    lunr.js search pipeline); words that stem to "" are ignored. Stop words
    are never indexed, so a required stop word matches nothing: pass words
    from ``query_words``.
    """

    def __init__(self, directory):
        self.dir = str(directory)
        self.meta = self._load("meta.json")
        if self.meta.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} index: {self.dir}")
        self._shards: dict[int, dict] = {}
        self._terms: dict[str, _Posting | None] = {}
        self._refs: dict[int, list[str]] = {}
        self._group_starts, self._group_names, start = [], [], 0
        for name, count in self.meta["groups"]:
            self._group_starts.append(start)
            self._group_names.append(name)
            start += count

    def _load(self, rel):
        with open(os.path.join(self.dir, rel), "rb") as f:
            return _loads(f.read())

    def ref(self, doc: int) -> str:
        """The ref of doc id `doc`; loads only its r/N.json chunk."""
        size = self.meta["refChunk"]
        chunk = self._refs.get(doc // size)
        if chunk is None:
            chunk = self._refs[doc // size] = self._load(f"r/{doc // size}.json")
        return chunk[doc % size]

    def group(self, doc: int) -> str:
        """The group of doc id `doc` (meta.json `groups` runs)."""
        return self._group_names[bisect_right(self._group_starts, doc) - 1]

    def postings(self, term: str) -> _Posting | None:
        if term in self._terms:
            return self._terms[term]
        shard = fnv1a(term) & (self.meta["shards"] - 1)
        table = self._shards.get(shard)
        if table is None:
            table = self._shards[shard] = self._load(f"t/{shard}.json")
        entry = table.get(term)
        if isinstance(entry, int):
            entry = self._load(f"b/{entry}.json")
        p = self._terms[term] = None if entry is None else _Posting(*entry)
        return p

    def search(self, terms: list[str], required: bool, limit: int | None = None):
        return [(self.ref(d), score, s) for d, score, s in self.search_ids(terms, required, limit)]

    def search_ids(self, terms: list[str], required: bool, limit: int | None = None):
        """Like ``search`` with doc ids for refs (no ref file is read), as Hits."""
        groups: dict[str, list] = {}  # term -> [count, words], first-seen order
        for word in terms:
            t = analyze_query_word(word)
            if t:
                g = groups.setdefault(t, [0, []])
                g[0] += 1
                g[1].append(word)
        present = []
        for t, (c, words) in groups.items():
            p = self.postings(t)
            if p is None:
                if required:
                    return Hits.of([])
                continue
            present.append((c, words, p))
        if not present:
            return Hits.of([])
        q = math.sqrt(sum(c * c for c, _, _ in present))
        if len(present) == 1:
            c, words, p = present[0]
            order, ks, s = p.order(), p.ks, frozenset(words)
            docs = p.ranked()[:limit] if limit is not None else p.ranked()
            return Hits(docs, lambda i: (docs[i], c * ks[order[i]] / 1000 / q, s))
        if required:
            ids, sums = _intersect(present)
            masks = None
        else:
            ids, sums, masks = _union(present)
        scores = [s / 1000 / q for s in sums]
        order = sorted(range(len(ids)), key=scores.__getitem__, reverse=True)
        if limit is not None:
            order = order[:limit]
        if masks is None:
            s = frozenset(w for e in present for w in e[1])
            return Hits.of([(ids[i], scores[i], s) for i in order])
        sets = {m: frozenset(w for b, e in enumerate(present) if m >> b & 1 for w in e[1])
                for m in set(masks)}
        return Hits.of([(ids[i], scores[i], sets[masks[i]]) for i in order])


def _intersect(present):
    """Docs holding every term, ids ascending, with their integer sums."""
    present = sorted(present, key=lambda e: len(e[2].ids))
    c, _, p = present[0]
    ids, sums = p.ids, [c * k for k in p.ks]
    for c, _, p in present[1:]:
        if not ids:
            break
        if len(ids) * 16 < len(p.ids):  # few candidates: bisect the long list
            pids, pks, n = p.ids, p.ks, len(p.ids)
            pos = [bisect_left(pids, d) for d in ids]
            keep = [j < n and pids[j] == d for j, d in zip(pos, ids)]
            sums = [s + c * pks[j] for s, j in compress(zip(sums, pos), keep)]
            ids = list(compress(ids, keep))
        else:
            m = p.map()
            keep = [d in m for d in ids]
            ids = list(compress(ids, keep))
            sums = [s + c * m[d] for s, d in zip(compress(sums, keep), ids)]
    return ids, sums


def _union(present):
    """Docs holding any term, ids ascending, sums and bit masks of terms.
    Each posting adds ``c*k << T | bit`` so one dict carries both."""
    t = len(present)
    acc: dict[int, int] = {}
    get = acc.get
    for bit, (c, _, p) in enumerate(present):
        b = 1 << bit
        vals = [(c * k << t) + b for k in p.ks]
        if bit == 0:
            acc = dict(zip(p.ids, vals))
            get = acc.get
            continue
        for d, v in zip(p.ids, vals):
            acc[d] = get(d, 0) + v
    ids = sorted(acc)
    packed = list(map(acc.__getitem__, ids))
    low = (1 << t) - 1
    return ids, [v >> t for v in packed], [v & low for v in packed]
