"""Lazy reader of a built site's vector files (SPEC §5; written by emit/vectors.py): the token
table (`_bf/vectors/`) and each brain's document vectors (`_bf/search/BRAIN/vectors/`), each
file read once. JS twin: site/engine/vectorstore.js. How the arm uses them: vector.py.

Document vectors are int8 rows and the query's the integer sum of its WordPiece tokens' rows
(builder/vectors/wordpiece.py), read from the site's copy of the table, so Python and the
browser use the same rows as the build did; dots and squared norms are exact integers.
"""
from __future__ import annotations

import math
from functools import cached_property

from ..vectors.wordpiece import WordPiece

FORMAT = "bf-vectors-1"


def _bytes(path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


class Table:
    """The site's token table: vocabulary and rows, each shard read once."""

    def __init__(self, site):
        self.site, self.meta, self.shards = site, site.load_json("_bf/vectors/table.json") or {}, {}

    @cached_property
    def wordpiece(self) -> WordPiece:
        """Built on first use: a lexical search only asks ok() (for `degraded`)."""
        return WordPiece(self.meta.get("vocab", []))

    def ok(self) -> bool:
        return self.meta.get("format") == FORMAT

    def row(self, token: int) -> np.ndarray:
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        k, shard = divmod(token, self.meta["shard"])
        if k not in self.shards:
            data = _bytes(self.site.path / f"_bf/vectors/t/{k}.bin") or b""
            self.shards[k] = np.frombuffer(data, dtype=np.int8).reshape(-1, self.meta["dims"])
        return self.shards[k][shard]

    def query(self, text: str) -> np.ndarray:
        """The query's vector (int64: an exact sum in any order)."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        rows = [self.row(token) for token in self.wordpiece.tokens(text)]
        return np.sum(rows, axis=0, dtype=np.int64) if rows else np.zeros(self.meta["dims"], dtype=np.int64)


class BrainVectors:
    """One brain's document vectors (_bf/search/BRAIN/vectors/), each file read once."""

    def __init__(self, site, store):
        self.site, self.store = site, store
        self.meta = site.load_json(f"{store.base}/vectors/meta.json") or {}
        self.blocks: dict[int, tuple] = {}
        self.raw: dict[int, np.ndarray] = {}

    def ok(self) -> bool:
        return self.meta.get("format") == FORMAT

    def block(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """File n's vectors (int64, one row per doc), their squared norms, and (vectors, norms,
        doc ids) of the docs the arm may add (a vector, and not a section)."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        if n not in self.blocks:
            rows = self._raw(n).astype(np.int64)
            norms = (rows * rows).sum(axis=1)
            ok = norms > 0
            first = self.meta["files"][n][1]
            for start, count in self.meta["sections"]:
                lo, hi = max(start - first, 0), min(start + count - first, len(ok))
                if lo < hi:
                    ok[lo:hi] = False
            ok = np.flatnonzero(ok)
            self.blocks[n] = (rows, norms, (rows[ok], np.sqrt(norms[ok].astype(np.float64)), ok + first))
        return self.blocks[n]

    def _raw(self, n: int) -> np.ndarray:
        """File n's int8 vectors as stored (read once, not converted: a cold search that only
        scores a few candidates must not widen a whole group's vectors to int64)."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        if n not in self.raw:
            data = _bytes(self.site.path / f"{self.store.base}/vectors/{n}.bin") or b""
            self.raw[n] = np.frombuffer(data, dtype=np.int8).reshape(-1, self.meta["dims"])
        return self.raw[n]

    def row(self, doc: int) -> tuple[np.ndarray, int]:
        """Doc `doc`'s vector (int64) and its squared norm (bf similar's query)."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        n, i = self.file_of(doc)
        row = self._raw(n)[i].astype(np.int64)
        return row, int(row @ row)

    def count(self, groups: set[str] | None) -> int:
        """How many docs of `groups` (None: all) the arm may list (a vector, not a section)."""
        return sum(len(self.block(n)[2][2]) for n, (group, _, _) in enumerate(self.meta["files"])
                   if groups is None or group in groups)

    def addable(self, doc: int) -> bool:
        """Whether the arm may list doc `doc` (as count())."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        ids = self.block(self.file_of(doc)[0])[2][2]   # ascending
        i = int(np.searchsorted(ids, doc))
        return i < len(ids) and int(ids[i]) == doc

    def file_of(self, doc: int) -> tuple[int, int]:
        for n, (_, first, count) in enumerate(self.meta["files"]):
            if first <= doc < first + count:
                return n, doc - first
        raise IndexError(doc)

    def similarity(self, q: np.ndarray, qq: int, doc: int) -> float | None:
        row, dd = self.row(doc)
        return int(row @ q) / (math.sqrt(qq) * math.sqrt(dd)) if qq and dd else None

    def nearest(self, q: np.ndarray, qq: int, groups: set[str] | None, n_best: int) -> list[tuple[float, int]]:
        """[(similarity, doc)] of the n_best most similar notes and records of `groups` (None:
        all), ties included at the cut, in vector order."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        sims, docs = [], []
        for n, (group, _, _) in enumerate(self.meta["files"]):
            if groups is not None and group not in groups:
                continue
            rows, roots, ids = self.block(n)[2]
            sims.append((rows @ q) / (np.sqrt(float(qq)) * roots))
            docs.append(ids)
        if not sims:
            return []
        sim, doc = np.concatenate(sims), np.concatenate(docs)
        if len(sim) > n_best:   # keep the n_best largest and every tie of the last
            keep = sim >= np.partition(sim, len(sim) - n_best)[len(sim) - n_best]
            sim, doc = sim[keep], doc[keep]
        return sorted(zip(sim.tolist(), doc.tolist()), key=lambda sd: (-sd[0], sd[1]))


def table(site) -> Table:
    """The site's table, read on first use and kept by the Site (a rebuild opens a new Site)."""
    if site.vector_table is None:
        site.vector_table = Table(site)
    return site.vector_table


def brain_vectors(site, store) -> BrainVectors:
    """A brain's document vectors, kept by its store."""
    if not hasattr(store, "vectors"):
        store.vectors = BrainVectors(site, store)
    return store.vectors
