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
from operator import mul

from ..kernel import packs
from ..vectors.wordpiece import WordPiece

FORMAT = "bf-vectors-2"   # 2: every .bin file is stored as a pack (kernel/packs.py)


def _bytes(site, rel: str) -> bytes | None:
    """The int8 rows of vector file `rel`, None when it is missing or not a pack."""
    try:
        return packs.read(site.path, rel, True)
    except (OSError, ValueError):
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

    def row(self, token: int) -> memoryview:
        k, i = divmod(token, self.meta["shard"])
        if k not in self.shards:
            self.shards[k] = memoryview(_bytes(self.site, f"_bf/vectors/t/{k}.bin") or b"").cast("b")
        dims = self.meta["dims"]
        return self.shards[k][i * dims:(i + 1) * dims]

    def query(self, text: str) -> list[int]:
        """The query's vector: the exact integer sum of its tokens' rows."""
        rows = [self.row(token) for token in self.wordpiece.tokens(text)]
        return [sum(column) for column in zip(*rows)] if rows else [0] * self.meta["dims"]


class BrainVectors:
    """One brain's document vectors (_bf/search/BRAIN/vectors/), each file read once."""

    def __init__(self, site, store):
        self.site, self.store = site, store
        self.meta = site.load_json(f"{store.base}/vectors/meta.json") or {}
        self.blocks: dict[int, tuple] = {}
        self.raw: dict[int, memoryview] = {}   # file n's int8 vectors as stored
        self.norms: dict[int, int] = {}        # doc id -> its vector's squared norm, as asked

    def ok(self) -> bool:
        return self.meta.get("format") == FORMAT

    def block(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(vectors, their norms, doc ids) of file n's docs the arm may add (a vector, and not a
        section). The vectors are float64 so that numpy's BLAS computes the dots: exactly, as
        every partial sum of int8 rows times an integer query is an integer far below 2**53."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        if n not in self.blocks:
            rows = self._raw(n).astype(np.float64)
            norms = np.einsum("ij,ij->i", rows, rows)
            ok = norms > 0
            first = self.meta["files"][n][1]
            for start, count in self.meta["sections"]:
                lo, hi = max(start - first, 0), min(start + count - first, len(ok))
                if lo < hi:
                    ok[lo:hi] = False
            ids = np.flatnonzero(ok)
            if len(ids) < len(ok):
                rows, norms = rows[ids], norms[ids]
            self.blocks[n] = (rows, np.sqrt(norms), ids + first)
        return self.blocks[n]

    def _raw(self, n: int) -> np.ndarray:
        """File n's int8 vectors as stored (read once, not converted: a cold search that only
        scores a few candidates must not widen a whole group's vectors to float64)."""
        import numpy as np   # lazily: only a scan of every vector needs it (cold start)
        return np.frombuffer(self._view(n), dtype=np.int8).reshape(-1, self.meta["dims"])

    def _view(self, n: int) -> memoryview:
        if n not in self.raw:
            data = _bytes(self.site, f"{self.store.base}/vectors/{n}.bin") or b""
            self.raw[n] = memoryview(data).cast("b")
        return self.raw[n]

    def row(self, doc: int) -> tuple[list[int], int]:
        """Doc `doc`'s vector and its squared norm (bf similar's query), in plain integers:
        scoring a search's few candidates needs no numpy (a tenth of a second to import)."""
        rows, at = self._at(doc)
        return list(rows[at:at + self.meta["dims"]]), self.norm(doc)

    def norm(self, doc: int) -> int:
        """Doc `doc`'s squared norm, kept once asked."""
        if doc not in self.norms:
            rows, at = self._at(doc)
            self.norms[doc] = dot(rows[at:at + self.meta["dims"]], rows, at)
        return self.norms[doc]

    def _at(self, doc: int) -> tuple[memoryview, int]:
        """The file holding doc `doc`'s vector, and where in it the vector starts."""
        n, i = self.file_of(doc)
        return self._view(n), i * self.meta["dims"]

    def count(self, groups: set[str] | None) -> int:
        """How many docs of `groups` (None: all) the arm may list (a vector, not a section)."""
        return sum(len(self.block(n)[2]) for n, (group, _, _) in enumerate(self.meta["files"])
                   if groups is None or group in groups)

    def addable(self, doc: int) -> bool:
        """Whether the arm may list doc `doc` (as count())."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        ids = self.block(self.file_of(doc)[0])[2]   # ascending
        i = int(np.searchsorted(ids, doc))
        return i < len(ids) and int(ids[i]) == doc

    def file_of(self, doc: int) -> tuple[int, int]:
        for n, (_, first, count) in enumerate(self.meta["files"]):
            if first <= doc < first + count:
                return n, doc - first
        raise IndexError(doc)

    def similarity(self, q: list[int], qq: int, doc: int) -> float | None:
        dd = self.norm(doc)
        return dot(q, *self._at(doc)) / (math.sqrt(qq) * math.sqrt(dd)) if qq and dd else None

    def nearest(self, q: list[int], qq: int, groups: set[str] | None, n_best: int) -> list[tuple[float, int]]:
        """[(similarity, doc)] of the n_best most similar notes and records of `groups` (None:
        all), ties included at the cut, in vector order."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        sims, docs, q = [], [], np.asarray(q, dtype=np.float64)
        for n, (group, _, _) in enumerate(self.meta["files"]):
            if groups is not None and group not in groups:
                continue
            rows, roots, ids = self.block(n)
            sims.append((rows @ q) / (np.sqrt(float(qq)) * roots))
            docs.append(ids)
        if not sims:
            return []
        sim, doc = np.concatenate(sims), np.concatenate(docs)
        if len(sim) > n_best:   # keep the n_best largest and every tie of the last
            keep = sim >= np.partition(sim, len(sim) - n_best)[len(sim) - n_best]
            sim, doc = sim[keep], doc[keep]
        return sorted(zip(sim.tolist(), doc.tolist()), key=lambda sd: (-sd[0], sd[1]))


def dot(q, rows, at: int = 0) -> int:
    """q · rows[at…at + len(q)]: exact integer sums (a row of a file's vectors, or a whole vector)."""
    return sum(map(mul, q, rows[at:at + len(q)]))


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
