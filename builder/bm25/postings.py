"""A term's posting list and a query's hits, as the index reader (reader.py) weighs and returns
them; format in FORMAT.md. Twin: the makePosting and hit arrays of site/engine/bm25/reader.js."""
from __future__ import annotations

import struct
import sys
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate
from types import MappingProxyType

from .heads import Listed, orders
from .scoring import CONTEXT, idf


def gaps(ids: list[int]) -> list[int]:
    """Ascending ids as the index stores them: the first, then each one's distance from the one
    before (FORMAT.md); accumulate() reads them back."""
    return [ids[0]] + [b - a for a, b in zip(ids, ids[1:])]


_CODES = MappingProxyType({1: "B", 2: "H", 4: "I"})   # array typecodes of 1-, 2- and 4-byte unsigned integers


def _width(top: int) -> int:
    return 1 if top < 1 << 8 else 2 if top < 1 << 16 else 4


def _le(values, width: int) -> bytes:
    """`values` as little-endian unsigned integers of `width` bytes, zero-padded to 4 bytes."""
    data = array(_CODES[width], values)
    if sys.byteorder == "big":   # pragma: no cover
        data.byteswap()
    raw = data.tobytes()
    return raw + bytes(-len(raw) % 4)


def pack_big(entry) -> bytes:
    """b/K.bin (FORMAT.md#big-postings): a posting `[[field, gaps, tfs], ...]` as little-endian
    integers, read without parsing (numpy.frombuffer; typed arrays in the browser)."""
    head, body = [len(entry)], []
    for fi, gaps_, tfs in entry:
        steps = [0, *gaps_[1:]]   # the first id goes in the header: one far id widens no step
        wide, wtf = _width(max(steps)), _width(max(tfs))
        head += [fi, len(tfs), gaps_[0], wide | wtf << 8]
        body += [_le(steps, wide), _le(tfs, wtf)]
    return struct.pack(f"<{len(head)}I", *head) + b"".join(body)


def load_numpy() -> None:
    """Import numpy when it can be: a big posting is weighed and ordered over arrays (the same
    doubles, in a fraction of the time of lists), which repays the import at once."""
    try:
        import numpy  # noqa: F401
    except ImportError:   # pragma: no cover
        pass


def unpack_big(data: bytes) -> list[tuple]:
    """pack_big's posting as [(field, ids, tfs)], ids ascending: numpy arrays (int64 ids) when
    numpy is loaded, else lists."""
    fields, = struct.unpack_from("<I", data)
    head = struct.unpack_from(f"<{4 * fields}I", data, 4)
    at, out = 4 + 16 * fields, []
    np = sys.modules.get("numpy")
    for k in range(fields):
        fi, n, first, widths = head[4 * k:4 * k + 4]
        parts = []
        for width in (widths & 0xFF, widths >> 8):
            if np is not None:
                parts.append(np.frombuffer(data, dtype=f"<u{width}", count=n, offset=at))
            else:
                part = array(_CODES[width])
                part.frombytes(data[at:at + n * width])
                if sys.byteorder == "big":   # pragma: no cover
                    part.byteswap()
                parts.append(part)
            at += -(-n * width // 4) * 4
        steps, tfs = parts
        if np is not None:
            ids = np.cumsum(steps, dtype=np.int64) + first
        else:
            ids = list(accumulate(steps, initial=first))[1:]
        out.append((fi, ids, tfs))
    return out


def union(np, size: int, id_arrays):
    """The ids in any of `id_arrays` (numpy arrays of ids below `size`), ascending: a mask over
    the id space, linear, no sort."""
    held = np.zeros(size, dtype=bool)
    for ids in id_arrays:
        held[ids] = True
    return np.flatnonzero(held)


_LATER = object()   # a set Posting makes on first use


# Postings longer than this are weighed by numpy: the same IEEE operations in the same order,
# element by element, so the same doubles as the loop below and as JS.
ARRAY_FROM = 2000


def _weigh(w_idf, tfs, lens, k1, b, boost, a, scale) -> list[float]:
    k1p1 = k1 + 1
    if scale != 1:   # a weighted field stores tf * scale: divide back (FORMAT.md)
        tfs = [tf / scale for tf in tfs]
    lens = lens if lens is not None else [0] * len(tfs)
    return [w_idf * (k1p1 * tf) / (k1 * (1 - b + b * (ln / a)) + tf) * boost for tf, ln in zip(tfs, lens)]


def _weigh_array(w_idf, tfs, lens, k1, b, boost, a, scale):
    import numpy as np   # lazily: rare words never need it
    k1p1 = k1 + 1
    tf = np.array(tfs, dtype=np.float64)
    if scale != 1:
        tf = tf / scale
    ln = np.array(lens, dtype=np.float64) if lens is not None else np.zeros(tf.size)
    return w_idf * (k1p1 * tf) / (k1 * (1 - b + b * (ln / a)) + tf) * boost


class Posting:
    """One term's posting with its weights for this index: ``ids`` ascending, ``ws`` the weight
    per doc, ``named`` the set of docs holding it in a NAMED field, ``own`` the set of docs
    holding it outside CONTEXT fields, or None when that is every doc (both sets made on first
    use for a posting weighed over arrays: its searches read the arrays)."""
    __slots__ = ("ids", "ws", "_named", "_own", "_map", "_ranked", "_by_weight", "_docs", "_arrays")

    def __init__(self, fields, reader, df: int | None = None):
        """`fields`: [(field, ids ascending, tfs)], by field index (reader.postings); `df`: the
        term's postings when `fields` are part of them (blocks.py)."""
        df = sum(len(ids) for _, ids, _ in fields) if df is None else df   # (document, field) postings
        self._map = None
        self._ranked = None
        self._by_weight = None
        self._docs = [None, None, None]
        self._arrays = None
        if df > ARRAY_FROM and "numpy" in sys.modules:   # (its import costs more than one posting)
            self._weigh_arrays(fields, reader, idf(reader.n, df))
            return
        w_idf, params, named_fields = idf(reader.n, df), reader.params, reader.named_fields
        named: set[int] = set()
        own: set[int] | None = None
        parts = []
        for fi, ids, tfs in fields:
            k1, b, boost, a, scale = params[fi]
            ids = list(ids)
            # a field whose b is 0 has no lengths (l/ files): b * (len / a) is 0 for any len
            lens = reader.lengths(fi, ids) if b != 0 else None
            parts.append((ids, _weigh(w_idf, tfs, lens, k1, b, boost, a, scale)))
            if fi in named_fields:
                named.update(ids)
        context = [fi in reader.context_fields for fi, _, _ in fields]
        if any(context):   # else every doc holds it in its own text
            own = set().union(*(ids for (ids, _), c in zip(parts, context) if not c))
        if len(parts) == 1:
            self.ids, self.ws = parts[0]
        else:
            acc: dict[int, float] = {}
            get = acc.get
            for ids, ws in parts:   # field order: the same additions as JS
                for d, w in zip(ids, ws):
                    acc[d] = get(d, 0.0) + w
            self.ids = sorted(acc)
            self.ws = [acc[d] for d in self.ids]
        self._named = named
        self._own = own

    def _weigh_arrays(self, fields, reader, w_idf) -> None:
        """__init__ for a long posting, over numpy arrays: per field the same elementwise double
        operations, summed over fields in field order from 0.0 (as the dict above)."""
        import numpy as np
        weighed = []
        for fi, ids, tfs in fields:
            k1, b, boost, a, scale = reader.params[fi]
            ids = np.asarray(ids, dtype=np.int64)
            lens = reader.length_array(fi, ids) if b != 0 and ids.size else None
            weighed.append((fi, ids, _weigh_array(w_idf, tfs, lens, k1, b, boost, a, scale)))
        fields = weighed
        where = None   # an id's place in `every`, over the id space (one field: its own order)
        if len(fields) == 1:
            every = fields[0][1]
        else:
            every = union(np, reader.meta["ids"], (ids for _, ids, _ in fields))
            where = np.empty(reader.meta["ids"], dtype=np.int64)
            where[every] = np.arange(every.size)
        ws = np.zeros(every.size)
        named = np.zeros(every.size, dtype=bool)
        own = np.zeros(every.size, dtype=bool)
        context = any(fi in reader.context_fields for fi, _, _ in fields)
        for fi, ids, w in fields:
            at = slice(None) if where is None else where[ids]
            ws[at] = ws[at] + w
            if fi in reader.named_fields:
                named[at] = True
            if fi not in reader.context_fields:
                own[at] = True
        self.ids, self.ws = Listed(every), Listed(ws)
        self._named = self._own = _LATER
        self._arrays = (every, ws, named, own if context else np.ones(every.size, dtype=bool))

    @property
    def named(self) -> set[int]:
        if self._named is _LATER:
            ids, _, named, _ = self._arrays
            self._named = set(ids[named].tolist())
        return self._named

    @property
    def own(self) -> set[int] | None:
        if self._own is _LATER:
            ids, _, _, own = self._arrays
            self._own = None if own.all() else set(ids[own].tolist())
        return self._own

    def tier(self, i: int) -> int:
        """0 when the doc at position `i` holds the term in a NAMED field, else 1 when in its own
        text, else 2 (only in CONTEXT fields)."""
        if self._arrays is not None:
            _, _, named, own = self._arrays
            return 0 if named[i] else 1 if own[i] else 2
        d = self.ids[i]
        return 0 if d in self._named else 1 if self._own is None or d in self._own else 2

    def arrays(self):
        """(ids, ws, named, own) as numpy arrays: int64 ids, float64 weights, and per position
        whether the doc holds the term in a NAMED field, and in its own text."""
        if self._arrays is None:
            import numpy as np
            ids = np.array(self.ids, dtype=np.int64)
            named = np.isin(ids, np.fromiter(self.named, dtype=np.int64, count=len(self.named)))
            own = np.ones(ids.size, dtype=bool) if self.own is None else np.isin(
                ids, np.fromiter(self.own, dtype=np.int64, count=len(self.own)))
            self._arrays = (ids, np.array(self.ws, dtype=np.float64), named, own)
        return self._arrays

    def find(self, docs):
        """(positions, held): for each doc id of the numpy array `docs`, its position in ids
        (clipped) and whether it is there."""
        import numpy as np
        ids = self.arrays()[0]
        at = np.minimum(np.searchsorted(ids, docs), ids.size - 1)
        return at, ids[at] == docs

    def map(self):
        if self._map is None:
            self._map = dict(zip(self.ids, self.ws))
        return self._map

    def ranked(self, own: bool = False):
        """Positions ordered by tier (named, else held in the doc's own text, else only in its
        CONTEXT fields), weight descending, id; `own`: only those of docs holding the term in
        their own text (a prefix)."""
        if self._ranked is None and self._arrays is not None:
            import numpy as np
            ids, ws, named, held = self._arrays
            tier = np.where(named, 0, np.where(held, 1, 2)).astype(np.int8)
            ranked, docs = orders(np, ids, ws, tier, held)
            self._ranked, self._docs[1:] = tuple(ranked), docs
        if self._ranked is None:
            ids, named, held = self.ids, self.named, self.own

            def tier(i):
                return 0 if ids[i] in named else 1 if held is None or ids[i] in held else 2
            ranked = sorted(self.by_weight(), key=tier)   # stable
            self._ranked = (ranked, ranked if held is None else [i for i in ranked if ids[i] in held])
        return self._ranked[own]

    def docs(self, order: int) -> list[int]:
        """Doc ids in by_weight() (0), ranked() (1) or ranked(own=True) (2) order."""
        if self._docs[order] is None:
            ids = self.ids
            self._docs[order] = [ids[i] for i in (self.ranked(order == 2) if order else self.by_weight())]
        return self._docs[order]

    def by_weight(self):
        """Positions ordered by (weight descending, id)."""
        if self._by_weight is None and self._arrays is not None:
            import numpy as np
            ids, ws = self._arrays[:2]
            (self._by_weight,), (self._docs[0],) = orders(np, ids, ws, np.zeros(ws.size, dtype=np.int8))
        if self._by_weight is None:
            ws = self.ws
            self._by_weight = sorted(range(len(ws)), key=lambda i: -ws[i])   # stable: ids ascending
        return self._by_weight


class Hits(Sequence):
    """search_ids' result: ``hits[i]`` is ``(doc, score, matched, tier)``, ``docs`` the doc ids
    in that order. One-term hits (the long lists of common words) make their tuples on demand.
    ``ids``: the same doc ids as a numpy array in any order, when the ranking had them (its
    caller counts them over arrays), else None."""

    def __init__(self, docs, at, ids=None):
        self.docs, self._at, self.ids = docs, at, ids

    @classmethod
    def of(cls, rows):
        return cls([r[0] for r in rows], rows.__getitem__)

    def __len__(self):
        return len(self.docs)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._at(k) for k in range(len(self.docs))[i]]
        return self._at(range(len(self.docs))[i])   # IndexError past the end, negatives count back

    def __iter__(self):
        return map(self._at, range(len(self.docs)))

    def ordered(self):
        """The doc ids in order, as a numpy array (int64)."""
        import numpy as np
        docs = self.docs
        return np.asarray(docs.array if isinstance(docs, Listed) else docs, dtype=np.int64)


def intersect(posts) -> list[int]:
    """Docs holding every posting's term in their own text, ascending."""
    posts = sorted(posts, key=lambda p: len(p.ids))
    ids = list(posts[0].ids) if posts[0].own is None else sorted(posts[0].own)
    for p in posts[1:]:
        if not ids:
            break
        m = p.map() if p.own is None else p.own
        ids = [d for d in ids if d in m]
    return ids


def one_term(entry, whole: bool, names: frozenset, limit: int | None, required: bool) -> Hits:
    """search_ids of one group (`entry`: (c, folded term, posting)), no bonus term: the posting's
    cached order, named documents moved first.
    (`required` implies `whole`: a missing group returned no hits before.)"""
    c, f, p = entry
    s = frozenset([f])
    ids, ws = p.ids, p.ws
    ranked = p.ranked(required) if whole else p.by_weight()
    head: list[tuple] = []   # tier 0: named documents holding the term, then the others
    if names:   # few: found by bisection, in by_weight() order (weight descending, id)
        at_ = {d: i for d in names if (i := bisect_left(ids, d)) < len(ids) and ids[i] == d}
        front = sorted(at_.values(), key=lambda i: (-ws[i], i))
        head = [(ids[i], c * ws[i], s, 0) for i in front]
        head += [(d, 0.0, frozenset(), 0) for d in sorted(names) if d not in at_]
    if head and isinstance(ranked, Listed):   # an array posting: the same lists over arrays
        import numpy as np
        order = Listed(ranked.array[~np.isin(ranked.array, front)])
        docs = [h[0] for h in head] + p.arrays()[0][order.array].tolist()
    elif head:
        skip = set(front)
        order = [i for i in ranked if i not in skip]
        docs = [h[0] for h in head] + [ids[i] for i in order]
    else:
        order = ranked
        docs = p.docs(2 if required else 1 if whole else 0)
    if limit is not None:
        docs = docs[:limit]
    n = len(head)
    every = None
    if p._arrays is not None and limit is None:   # the hits' ids as an array, for counting
        import numpy as np
        every, _, _, held = p.arrays()
        every = every[held] if required else every
        if names:
            every = np.union1d(every, np.fromiter(names, dtype=np.int64, count=len(names)))

    def at(k):
        if k < n:
            return head[k]
        i = order[k - n]
        d = ids[i]
        return (d, c * ws[i], s, 1 + p.tier(i) if whole else 3)
    return Hits(docs, at, every)
