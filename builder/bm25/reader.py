"""Python reader of the sharded index (twin of site/engine/bm25/; format in FORMAT.md).

A query is a list of (exact, folded) term pairs (pipeline.query_terms). Its *groups* are the
distinct folded terms in first-seen order, each with c = how many positions give it; its
*bonus* terms the distinct exact terms that differ from their folded twin, with their counts.
A document matches a group when it holds the folded term; all groups are required, or any.
A term held only in a CONTEXT field (a record's neighbours) adds to the score and counts as held
in the any-word pass, but does not satisfy the all-words rule: the document must hold every
term in its own text (scoring.CONTEXT says why).

    score = sum over groups (query order) of c * w(folded)  +  sum over bonus terms of c * w(exact)
    w(t, doc) = sum over fields (field order) holding t of
                idf * ((k1 + 1) * tf) / (k1 * (1 - b + b * (len / avg)) + tf) * boost
    idf = scoring.idf(N, df), df = postings of t over all fields, avg = lengths[f] / N

evaluated in exactly that order in both runtimes (scoring.py says why that gives equal doubles).
Each hit also has a *tier*: 0 when the query's name key (pipeline.name_key) names the document
(n/K.json), 1 when every group occurs in the document's title or aliases, 2 when every group
occurs in the document's own text (outside CONTEXT fields), else 3 (the any-word hits).
`when` (start, end) in seconds: a hit placed in that span (p/: a record's placed instant) has
its score multiplied by WHEN_BOOST, after the sums above (a date the query names).
Hits are ordered by tier, score descending, doc id (layout.arrange: notes and sections, then
each source's records; ref order within each).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate

from ..kernel import packs
from ..kernel.canon import parsed
from .adjacent import phrase_buckets
from .pipeline import analyze_pairs
from . import postings as _postings
from .postings import Hits, Posting, intersect, one_term
from .scoring import CONTEXT, FORMAT, WHEN_BOOST, fnv1a


class FormatError(ValueError):
    """The folder holds no index of this format (an older site, or none)."""


def _as_pairs(terms) -> list[tuple[str, str]]:
    """Query (exact, folded) pairs from pairs, or from words (each analysed)."""
    out = []
    for t in terms:
        if isinstance(t, str):
            out += analyze_pairs(t)
        else:
            out.append(tuple(t))
    return out


class IndexReader:
    """Lazy reader: loads meta.json, then shards/refs as queries need them."""

    def __init__(self, directory):
        self.dir = str(directory)
        try:
            self.meta = self._load("meta.json")
        except (OSError, ValueError):
            raise FormatError(f"no readable index in {self.dir}") from None
        if not isinstance(self.meta, dict) or self.meta.get("format") != FORMAT:
            found = self.meta.get("format") if isinstance(self.meta, dict) else None
            raise FormatError(f"index format {found!r}, need {FORMAT!r}")
        meta = self.meta
        self.n = meta["docs"]
        fields = meta["fields"]
        self.avg = [meta["lengths"][f] / self.n if self.n else 0.0 for f in fields]
        self.params = [(meta["params"][f]["k1"], meta["params"][f]["b"], meta["params"][f]["boost"], a,
                        meta["params"][f].get("scale", 1)) for f, a in zip(fields, self.avg)]
        self.named_fields = {fields.index(f) for f in meta["named"]}
        self.context_fields = {fields.index(f) for f in CONTEXT if f in fields}
        self._shards: dict[tuple, dict] = {}
        self._terms: dict[str, Posting | None] = {}
        self._raws: dict[tuple, bytes] = {}   # (kind, shard) -> its bytes
        self._raw: dict[str, list] = {}
        self._names: dict[str, frozenset] = {}
        self._facets: dict[str, frozenset] = {}
        self._pairs: dict[tuple, list] = {}   # phrases -> the doc ids of each of their buckets (a/)
        self._instants: dict[int, list] = {}   # p/K.json's instants, summed
        self._chunks: dict[tuple, list] = {}   # (kind, n) -> r/N.json, c/N.json…
        self.resident = None   # the lengths of every doc, once resident.hold read them
        self._group_starts = [first for _, first, _ in meta["groups"]]
        self._group_names = [name for name, _, _ in meta["groups"]]
        self._spans = {name: (first, first + count) for name, first, count in meta["groups"]}

    def _load(self, rel):
        """meta.json, or the pack file (builder/kernel/packs.py) of any other index file."""
        return parsed(packs.read(self.dir, rel, rel != "meta.json"))

    def _chunk(self, kind: str, n: int) -> list:
        """The chunk file `kind`/N.json."""
        chunk = self._chunks.get((kind, n))
        if chunk is None:
            chunk = self._chunks[(kind, n)] = self._load(f"{kind}/{n}.json")
        return chunk

    def _per_doc(self, kind: str, size: int, doc: int):
        """Doc `doc`'s value in the chunk files `kind`/N.json of `size` docs each."""
        return self._chunk(kind, doc // size)[doc % size]

    def lengths(self, field: int, ids: list[int]) -> list[int]:
        """The lengths of field number `field` of doc ids `ids` (ascending; l/N.json)."""
        size, out, i = self.meta["lengthChunk"], [], 0
        while i < len(ids):   # a chunk's run of ids at a time
            base = ids[i] // size * size
            end = bisect_left(ids, base + size, i)
            column = self._chunk("l", base // size)[field]
            out += [column[d - base] for d in ids[i:end]]
            i = end
        return out

    def length_array(self, field: int, ids):
        """lengths() of the numpy array `ids` (ascending), as a float64 array."""
        if self.resident is not None:   # every length in memory, an array per field (resident.py)
            return self.resident[field][ids]
        import numpy as np
        size, out = self.meta["lengthChunk"], np.empty(ids.size)
        chunks = ids // size
        cuts = [0, *(np.flatnonzero(np.diff(chunks)) + 1).tolist(), ids.size]
        for start, end in zip(cuts, cuts[1:]):
            k = int(chunks[start])
            column = self._chunks.get(("l", k, field))
            if column is None:
                column = self._chunks["l", k, field] = np.array(self._chunk("l", k)[field], dtype=np.float64)
            out[start:end] = column[ids[start:end] - k * size]
        return out

    def ref(self, doc: int) -> str:
        """The ref of doc id `doc`; loads only its r/N.json chunk."""
        return self._per_doc("r", self.meta["refChunk"], doc)

    def doc(self, ref: str) -> int | None:
        """The doc id of `ref`, or None: a note's or section's is in group "", a record's in its
        source's (the text before its first colon), each in ref (code point) order, so a
        bisection of those (loading only the r/N.json chunks it probes)."""
        for group in dict.fromkeys(("", ref.partition(":")[0])):
            lo, end = self._first(group, lambda r: r < ref), self._spans.get(group, (0, 0))[1]
            if lo < end and self.ref(lo) == ref:
                return lo
        return None

    def _first(self, group: str, before) -> int:
        """The first doc id of `group`'s span whose ref is not `before` (true of a head of the
        span: refs ascend), by bisection."""
        lo, hi = self._spans.get(group, (0, 0))
        while lo < hi:
            mid = (lo + hi) // 2
            if before(self.ref(mid)):
                lo = mid + 1
            else:
                hi = mid
        return lo

    def prefixed(self, group: str, prefix: str) -> range:
        """The doc ids of `group` whose refs start with `prefix`: one span, refs ascending."""
        return range(self._first(group, lambda r: r < prefix),
                     self._first(group, lambda r: r < prefix or r.startswith(prefix)))

    def facet(self, key: str) -> frozenset:
        """The doc ids holding facet `key` (FORMAT.md Facets; meta.json holds `deprecated`)."""
        if key not in self._facets and key == "deprecated":
            self._facets[key] = frozenset(self.meta["deprecated"])
        if key not in self._facets:
            gaps = self._table("f", key, self.meta["facets"]).get(key, [])
            self._facets[key] = frozenset(accumulate(gaps))
        return self._facets[key]

    def may_hold(self, docs, phrases: list[list[str]]):
        """Per doc id of `docs` (a sequence), whether it (a section: its note) holds a pair of each
        bucket of each phrase's adjacent terms (FORMAT.md a/): if not, it holds no phrase; if so,
        its text tells. A numpy bool array: a phrase asks it of every hit holding its words."""
        import numpy as np
        key = tuple(map(tuple, phrases))
        held = self._pairs.get(key)
        if held is None:   # every bucket's ids, read whether or not an earlier one refuses (as the browser does)
            held = self._pairs[key] = []
            for b in sorted({b for phrase in phrases for b in phrase_buckets(phrase, self.meta["pairBuckets"])}):
                gaps = self._shard("a", b & (self.meta["adjacent"] - 1)).get(str(b), [])
                held.append(np.cumsum(np.array(gaps, dtype=np.int64)))
        ids = np.asarray(docs, dtype=np.int64)
        owners, size = ids.copy(), self.meta["convChunk"]
        notes = np.flatnonzero(ids < self.group_end(""))   # group "" holds the sections
        chunks = ids[notes] // size
        for k in np.unique(chunks).tolist():
            at = notes[chunks == k]
            owners[at] -= np.array(self.owner_chunk(k), dtype=np.int64)[ids[at] - k * size]
        mask = np.ones(ids.size, dtype=bool)
        for ids_ in held:
            mask &= np.isin(owners, ids_)
        return mask

    def placed(self, doc: int) -> int | None:
        """Doc `doc`'s placed instant in seconds since 1970 UTC, or None (FORMAT.md p/: steps
        from the chunk's last instant before it, summed once per chunk)."""
        k, i = divmod(doc, self.meta["convChunk"])
        if k not in self._instants:
            last, out = 0, []
            for step in self._chunk("p", k):
                out.append(None if step is None else last + step)
                last = last if step is None else out[-1]
            self._instants[k] = out
        return self._instants[k][i]

    def owner(self, doc: int) -> int:
        """The doc id doc `doc` ranks as: a section's note, else itself (FORMAT.md o/)."""
        return doc - self._per_doc("o", self.meta["convChunk"], doc)

    def group_end(self, group: str) -> int:
        """One past the last doc id of group `group` (0 when it has none)."""
        return self._spans.get(group, (0, 0))[1]

    def owner_chunk(self, k: int) -> list[int]:
        """o/k.json: each doc id's offset from its owner, for the ids of chunk k (FORMAT.md o/)."""
        return self._chunk("o", k)

    def conversation(self, doc: int) -> int:
        """The conversation number of doc id `doc` (0: a note or section; FORMAT.md c/)."""
        return self._per_doc("c", self.meta["convChunk"], doc)

    def group(self, doc: int) -> str:
        """The group of doc id `doc` (meta.json `groups` spans)."""
        return self._group_names[bisect_right(self._group_starts, doc) - 1]

    def position(self, doc: int) -> int:
        """Doc `doc`'s place among the docs of its group (a record's among its source's)."""
        return doc - self._group_starts[bisect_right(self._group_starts, doc) - 1]

    def _table(self, kind: str, key: str, count: int) -> dict:
        return self._shard(kind, fnv1a(key) & (count - 1))

    def _bytes(self, kind: str, shard: int) -> bytes | None:
        """A shard's bytes, kept: a query cuts its terms' postings out (packs.cut), unparsed."""
        if (kind, shard) not in self._raws:
            self._raws[kind, shard] = packs.read(self.dir, f"{kind}/{shard}.json", True)
        return self._raws[kind, shard]

    def _shard(self, kind: str, shard: int) -> dict:
        table = self._shards.get((kind, shard))
        if table is None:
            table = self._shards[(kind, shard)] = self._load(f"{kind}/{shard}.json")
        return table

    def postings(self, term: str) -> Posting | None:
        if term not in self._terms:
            fields = self.raw(term)
            self._terms[term] = Posting(fields, self) if fields else None
        return self._terms[term]

    def raw(self, term: str) -> list:
        """A term's posting as [(field, ids, tfs)] by field index (empty when absent), unweighed."""
        if term not in self._raw:
            entry = packs.cut(self._bytes("t", fnv1a(term) & (self.meta["shards"] - 1)), term, lambda v: True)
            if isinstance(entry, int):   # a big posting: binary (FORMAT.md#big-postings), weighed over arrays
                _postings.load_numpy()
                self._raw[term] = _postings.unpack_big(packs.read(self.dir, f"b/{entry}.bin", True))
            else:
                self._raw[term] = [(fi, list(accumulate(gaps)), tfs) for fi, gaps, tfs in entry or ()]
        return self._raw[term]

    def named(self, key: str) -> frozenset:
        """Doc ids whose title, an alias or file stem has name key `key`."""
        if key not in self._names:
            ids = self._table("n", key, self.meta["names"]).get(key, []) if key else []
            self._names[key] = frozenset(ids)
        return self._names[key]

    def search(self, terms, required: bool, limit: int | None = None, when=None):
        """[(ref, score, matched, tier)]: search_ids with refs."""
        return [(self.ref(d), score, m, tier) for d, score, m, tier in self.search_ids(terms, required, limit, when)]

    def search_ids(self, terms, required: bool, limit: int | None = None, when=None) -> Hits:
        """Hits of the query *terms* ((exact, folded) pairs, or words): ``(doc, score, matched,
        tier)`` with ``matched`` the frozenset of folded terms the doc holds."""
        groups, bonus, names, present, missing = self._gathered(_as_pairs(terms))
        if (required and missing) or not present:
            docs = sorted(names)[:limit] if limit is not None else sorted(names)
            return Hits.of([(d, 0.0, frozenset(), 0) for d in docs])
        extra = [(c, p) for e, c in bonus.items() if (p := self.postings(e)) is not None]
        whole = len(present) == len(groups)   # every group is in the index: tier 1 is possible
        if len(present) == 1 and not extra and when is None:
            return one_term(present[0], whole, names, limit, required)
        if len(present) < 60 and sum(len(p.ids) for _, _, p in present) > _postings.ARRAY_FROM:
            return self._search_arrays(present, extra, names, required, whole, len(groups), when, limit)
        if required:
            ids = intersect([p for _, _, p in present])
        else:
            ids = sorted(set().union(*(p.ids for _, _, p in present)))
        if names:
            have = set(ids)
            added = [d for d in names if d not in have]
            if added:
                ids = sorted(ids + added)
                required = False   # matched sets per document from here on
        sums = [0.0] * len(ids)
        masks = [0] * len(ids)
        nameds = [0] * len(ids)
        owns = [len(present)] * len(ids)   # groups held in the doc's own text
        for bit, (c, _, p) in enumerate(present):
            m, named, own = p.map(), p.named, p.own
            sums = [s + c * m[d] if d in m else s for s, d in zip(sums, ids)]
            if not required:
                masks = [k | (1 << bit) if d in m else k for k, d in zip(masks, ids)]
                owns = [k - 1 if d not in m or (own is not None and d not in own) else k for k, d in zip(owns, ids)]
            nameds = [k + 1 if d in named else k for k, d in zip(nameds, ids)]
        for c, p in extra:
            m = p.map()
            sums = [s + c * m[d] if d in m else s for s, d in zip(sums, ids)]
        if when is not None:
            sums = [s * WHEN_BOOST if self._within(d, when) else s for s, d in zip(sums, ids)]
        need = len(groups) if whole else -1
        tiers = [0 if d in names else 1 if k == need else 2 if o == need else 3
                 for d, k, o in zip(ids, nameds, owns)]
        # (tier, score descending, id): ids ascend and both sorts are stable
        order = sorted(range(len(ids)), key=sums.__getitem__, reverse=True)
        order.sort(key=tiers.__getitem__)
        if limit is not None:
            order = order[:limit]
        if required:
            s = frozenset(f for _, f, _ in present)
            return Hits.of([(ids[i], sums[i], s, tiers[i]) for i in order])
        sets = {k: frozenset(f for b, (_, f, _) in enumerate(present) if k >> b & 1) for k in set(masks)}
        return Hits.of([(ids[i], sums[i], sets[masks[i]], tiers[i]) for i in order])

    def _gathered(self, pairs, get=None) -> tuple:
        """search_ids' inputs: term counts (folded; exact forms apart), named docs, postings found
        (`get(term)`, None when absent: postings() unless given), any missing."""
        groups: dict[str, int] = {}
        bonus: dict[str, int] = {}
        for e, f in pairs:
            groups[f] = groups.get(f, 0) + 1
            if e != f:
                bonus[e] = bonus.get(e, 0) + 1
        # Named documents are hits of tier 0 even when the name is only their file stem, whose
        # words no indexed text may hold (then with score 0.0 and no matched term).
        names = self.named(" ".join(f for _, f in pairs))
        present, missing = [], False
        for f, c in groups.items():
            p = (get or self.postings)(f)
            if p is None:
                missing = True
            else:
                present.append((c, f, p))
        return groups, bonus, names, present, missing

    def _search_arrays(self, present, extra, names, required, whole, n_groups, when, limit) -> Hits:
        """search_ids' multi-term ranking over numpy arrays, for long postings: the same sums
        (each `s + c * w` an elementwise double operation, in the same order), tiers and order.
        Each posting adds into arrays over the whole id space (a scatter, no search), read
        back at the hits' ids."""
        import numpy as np
        if required:
            ids = np.array(intersect([p for _, _, p in present]), dtype=np.int64)
        else:
            ids = _postings.union(np, self.meta["ids"], (p.arrays()[0] for _, _, p in present))
        if names:
            more = np.setdiff1d(np.array(sorted(names), dtype=np.int64), ids)
            if more.size:
                ids, required = np.union1d(ids, more), False
        sums, masks, nameds, owns = self._dense_sums(present, extra)
        sums, masks, nameds, owns = sums[ids], masks[ids], nameds[ids], owns[ids]
        if when is not None:
            sums = np.where(np.array([self._within(d, when) for d in ids.tolist()], dtype=bool), sums * WHEN_BOOST, sums)
        need = n_groups if whole else -1
        named_ids = np.isin(ids, np.fromiter(names, dtype=np.int64, count=len(names)))
        tiers = np.where(named_ids, 0, np.where(nameds == need, 1, np.where(owns == need, 2, 3))).astype(np.int8)
        (order,), (docs,) = _postings.orders(np, ids, sums, tiers)   # ids ascend: (tier, score descending, id)
        if limit is not None:
            order, docs = order[:limit], docs[:limit]
        return _array_hits(docs, order, sums, tiers, masks, present, required, ids if limit is None else None)

    def _dense_sums(self, present, extra) -> tuple:
        """Per doc id (arrays over the id space): the score sum of the groups, then the bonus
        terms, each `s + c * w` in that order; the groups held (bit i: group i); how many are
        held in a NAMED field; how many in the doc's own text."""
        import numpy as np
        size = self.meta["ids"]
        sums, masks = np.zeros(size), np.zeros(size, dtype=np.int64)
        nameds, owns = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
        for bit, (c, _, p) in enumerate(present):
            p_ids, p_ws, p_named, p_own = p.arrays()
            sums[p_ids] += c * p_ws
            masks[p_ids] |= 1 << bit
            nameds[p_ids[p_named]] += 1
            owns[p_ids[p_own]] += 1
        for c, p in extra:
            p_ids, p_ws = p.arrays()[:2]
            sums[p_ids] += c * p_ws
        return sums, masks, nameds, owns

    def _within(self, doc: int, when: tuple[int, int]) -> bool:
        placed = self.placed(doc)
        return placed is not None and when[0] <= placed < when[1]


def _array_hits(docs, order, scores, tiers, masks, present, required: bool, ids) -> Hits:
    """_search_arrays' Hits from its arrays and their order (heads.orders): a search reads the
    first hits, each made from the arrays as it is read."""
    every, sets = frozenset(f for _, f, _ in present), {}

    def at_(k):
        i = order[k]
        score, tier, mask = scores.item(i), tiers.item(i), masks.item(i)
        if required:
            return docs[k], score, every, tier
        if mask not in sets:
            sets[mask] = frozenset(f for b, (_, f, _) in enumerate(present) if mask >> b & 1)
        return docs[k], score, sets[mask], tier
    return Hits(docs, at_, ids)
