"""Exact top-k that reads the l/ chunks of the hits that may rank first (FORMAT.md#block-bounds).
JS twin: site/engine/bm25/blocks.js.

A query's hits, each one's tier and an upper bound of its score come from the postings alone:
the bound weighs each posting's own tf at its chunk's least length (meta.json lengthFloors),
summed as a score is, so it is at least the score. Exact scores are weighed for the hits of the
chunks read so far, by the reader's own ranking (the same doubles); the caller (query/topk.py)
walks them, and reads the chunks of every hit whose tier and bound could still put it at or
before the last item it took (a bound equal to its score: a lower id may precede it), until
there is none: then the walk over every hit takes the same items.
"""
from __future__ import annotations

from .postings import ARRAY_FROM, Posting, _weigh_array, union
from .scoring import idf

BOUND_FROM = 2000   # a query with more (document, field) postings is ranked by bounds


def blocked(reader, pairs) -> "Blocked | None":
    """A Blocked ranking of the query `pairs` ((exact, folded) terms) over `reader`, or None when
    its postings are few (weighing them all costs less than bounding them)."""
    groups, bonus, names, present, missing = reader._gathered(pairs, lambda t: reader.raw(t) or None)
    if not present or len(present) >= 60 or sum(len(ids) for _, _, fs in present for _, ids, _ in fs) <= BOUND_FROM:
        return None
    extra = [(c, raw) for e, c in bonus.items() if (raw := reader.raw(e))]
    # made for each search, as in the browser: the files it read stay read, but a query asked
    # again is weighed again (no ranking kept between searches)
    return Blocked(reader, len(groups), not missing, names, present, extra)


class Blocked:
    """One query's hits over one index: ``every`` (doc ids ascending), their ``tiers`` and
    score bounds ``bounds``; ``hits()`` ranks those of the chunks read."""

    def __init__(self, reader, n_groups: int, whole: bool, names: frozenset, present, extra):
        import numpy as np
        self.np, self.reader, self.n_groups, self.whole, self.names = np, reader, n_groups, whole, names
        self.chunk, size = reader.meta["lengthChunk"], reader.meta["ids"]
        self.floors = np.array(reader.meta["lengthFloors"], dtype=np.float64).reshape(-1, len(reader.params))
        self.present = [(c, f, _arrays(np, fields)) for c, f, fields in present]
        self.extra = [(c, _arrays(np, fields)) for c, fields in extra]
        bounds, nameds, owns = np.zeros(size), np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
        for c, _, fields in self.present:
            ids, ws, named, own = self._bound(fields)
            bounds[ids] += c * ws
            nameds[ids[named]] += 1
            owns[ids[own]] += 1
        for c, fields in self.extra:
            ids, ws = self._bound(fields)[:2]
            bounds[ids] += c * ws
        every = union(np, size, (ids for _, _, fields in self.present for _, ids, _ in fields))
        if names:
            every = np.union1d(every, np.array(sorted(names), dtype=np.int64))
        need = n_groups if whole else -1
        named_ids = np.isin(every, np.array(sorted(names), dtype=np.int64))
        self.every, self.bounds = every, bounds[every]
        self.tiers = np.where(named_ids, 0, np.where(nameds[every] == need, 1, np.where(owns[every] == need, 2, 3)))
        self.read = np.zeros(-(-size // self.chunk), dtype=bool)
        self._hits = None   # (read, hits()) of the last ranking

    def _bound(self, fields) -> tuple:
        """(doc ids, each one's bound of the term's weight, whether it holds the term in a NAMED
        field, in its own text): Posting's weighing with each chunk's floor for the length."""
        np, reader = self.np, self.reader
        w_idf = idf(reader.n, sum(ids.size for _, ids, _ in fields))
        every = fields[0][1] if len(fields) == 1 else union(np, reader.meta["ids"], (ids for _, ids, _ in fields))
        ws, named = np.zeros(every.size), np.zeros(every.size, dtype=bool)
        own = np.zeros(every.size, dtype=bool)
        for fi, ids, tfs in fields:
            k1, b, boost, a, scale = reader.params[fi]
            lens = self.floors[ids // self.chunk, fi] if b != 0 else None
            at = np.searchsorted(every, ids)
            ws[at] = ws[at] + _weigh_array(w_idf, tfs, lens, k1, b, boost, a, scale)
            named[at] |= fi in reader.named_fields
            own[at] |= fi not in reader.context_fields
        return every, ws, named, own

    def ahead(self, last, keep=None, want: int = 0):
        """The chunks not read that hold a hit (of those `keep` marks, a bool array over doc ids,
        when given) which may rank before `last` = (tier, score, doc id): a lower tier, or the
        same with a higher bound, or an equal one and a lower id; with `last` None, those of the
        first `want` such hits by (tier, bound descending, id)."""
        np, every = self.np, self.every
        chunks = every // self.chunk
        open_ = ~self.read[chunks]
        if keep is not None:
            open_ &= keep[every]
        if last is None:
            at = np.flatnonzero(open_)
            pick = at[np.lexsort((-self.bounds[at], self.tiers[at]))[:want]]
        else:
            tier, score, doc = last
            bounds, tiers = self.bounds, self.tiers
            ahead = (bounds > score) | ((bounds == score) & (every < doc))
            pick = np.flatnonzero(open_ & ((tiers < tier) | ((tiers == tier) & ahead)))
        return np.unique(chunks[pick])

    def take(self, chunks) -> None:
        """Mark `chunks` read: hits() weighs their hits too."""
        self.read[chunks] = True

    def hits(self):
        """The reader's Hits (search_ids' order and values) of the hits in the chunks read."""
        if self._hits is not None and self._hits[0] == self.read.tobytes():
            return self._hits[1]
        present = [(c, f, self._part(fields)) for c, f, fields in self.present]
        extra = [(c, self._part(fields)) for c, fields in self.extra]
        names = frozenset(d for d in self.names if self.read[d // self.chunk])
        hits = self.reader._search_arrays(present, extra, names, False, self.whole, self.n_groups, None, None)
        self._hits = (self.read.tobytes(), hits)
        return hits

    def _part(self, fields) -> Posting:
        """The term's Posting over the chunks read, weighed with its whole df (idf as for every hit)."""
        df, out = sum(ids.size for _, ids, _ in fields), []
        for fi, ids, tfs in fields:
            held = self.read[ids // self.chunk]
            out.append((fi, ids[held], tfs[held]) if df > ARRAY_FROM else (fi, ids[held].tolist(), tfs[held].tolist()))
        return Posting(out, self.reader, df)


def _arrays(np, fields) -> list[tuple]:
    """[(field, ids, tfs)] as numpy arrays (int64 ids)."""
    return [(fi, np.asarray(ids, dtype=np.int64), np.asarray(tfs)) for fi, ids, tfs in fields]
