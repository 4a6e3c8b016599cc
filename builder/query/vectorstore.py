"""Lazy reader of a built site's vector files (SPEC §5; written by emit/vectors.py): the token
table (`_bf/vectors/`) and each brain's document vectors (`_bf/search/BRAIN/vectors/`), each
file read once. JS twin: site/engine/vectorstore.js. How the arm uses them: vector.py.

Document vectors are int8 rows and the query's the integer sum of its WordPiece tokens' rows
(builder/vectors/wordpiece.py), read from the site's copy of the table, so Python and the
browser use the same rows as the build did; dots and squared norms are exact integers.
"""
from __future__ import annotations

import math
import sys
from array import array
from functools import cached_property
from operator import mul

from ..kernel import packs
from ..vectors.wordpiece import WordPiece

FORMAT = "bf-vectors-3"   # 3: vectors in buckets (vectors/buckets.py); 2: every .bin file a pack


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
    """One brain's document vectors (_bf/search/BRAIN/vectors/), each file read once. Group n
    of meta's `groups` holds docs [first, first + count); file n/m.bin gives each its bucket,
    and a doc's vector is in its bucket's file at its rank among the bucket's docs."""

    def __init__(self, site, store):
        self.site, self.store = site, store
        self.meta = site.load_json(f"{store.base}/vectors/meta.json") or {}
        self.blocks: dict[tuple[int, int], tuple] = {}
        self.raw: dict[tuple[int, int], memoryview] = {}   # bucket (n, b)'s int8 vectors as stored
        self.maps: dict[int, array] = {}                    # group n's bucket of each doc
        self.ranks: dict[int, array] = {}                   # … and its rank in the bucket
        self.centres: dict[int, tuple] = {}
        self.section_flags = None
        self.norms: dict[int, int] = {}        # doc id -> its vector's squared norm, as asked

    def ok(self) -> bool:
        return self.meta.get("format") == FORMAT

    def _file(self, rel: str) -> bytes:
        return _bytes(self.site, f"{self.store.base}/vectors/{rel}.bin") or b""

    def _map(self, n: int) -> array:
        if n not in self.maps:
            m = array("H", self._file(f"{n}/m"))
            if sys.byteorder == "big":
                m.byteswap()
            self.maps[n] = m
        return self.maps[n]

    def _view(self, n: int, b: int) -> memoryview:
        """Bucket (n, b)'s int8 vectors, one after another (the file stores them column by
        column, emit/vectors.py: a slice per vector turns it back)."""
        if (n, b) not in self.raw:
            data = self._file(f"{n}/{b}")
            count = len(data) // self.meta["dims"]
            self.raw[n, b] = memoryview(b"".join(data[r::count] for r in range(count))).cast("b")
        return self.raw[n, b]

    def _ranks(self, n: int) -> array:
        """Each doc of group n's rank among its bucket's docs (doc order), worked out once: a
        sort and one pass (a few ms at 40,000 docs; numpy would cost a cold search its import)."""
        if n not in self.ranks:
            m = self._map(n)
            ranks, seen = array("I", bytes(4 * len(m))), [0] * (max(m) + 1 if m else 0)
            for i in sorted(range(len(m)), key=m.__getitem__):
                ranks[i] = seen[m[i]]
                seen[m[i]] += 1
            self.ranks[n] = ranks
        return self.ranks[n]

    def _at(self, doc: int) -> tuple[memoryview, int]:
        """The bucket file holding doc `doc`'s vector, and where in it the vector starts."""
        n, i = self.group_of(doc)
        return self._view(n, self._map(n)[i]), self._ranks(n)[i] * self.meta["dims"]

    def block(self, n: int, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(vectors, their norms, doc ids) of bucket b of group n's docs the arm may add (a
        vector, and not a section). The vectors are float64 so that numpy's BLAS computes the
        dots: exactly, as every partial sum of int8 rows times an integer query is an integer
        far below 2**53."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        if (n, b) not in self.blocks:
            first = self.meta["groups"][n][1]
            ids = np.flatnonzero(np.frombuffer(self._map(n), dtype=np.uint16) == b) + first
            rows = np.frombuffer(self._view(n, b), dtype=np.int8).reshape(-1, self.meta["dims"]).astype(np.float64)
            norms = np.einsum("ij,ij->i", rows, rows)
            ok = (norms > 0) & ~self._sections()[ids]
            self.blocks[n, b] = (rows[ok], np.sqrt(norms[ok]), ids[ok])
        return self.blocks[n, b]

    def _sections(self) -> np.ndarray:
        """Whether each doc id is a section's (meta's `sections` runs), worked out once."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        if self.section_flags is None:
            self.section_flags = np.zeros(max((g[1] + g[2] for g in self.meta["groups"]), default=0), dtype=bool)
            for start, count in self.meta["sections"]:
                self.section_flags[start:start + count] = True
        return self.section_flags

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

    def count(self, groups: set[str] | None) -> int:
        """How many docs of `groups` (None: all) the arm may list (a vector, not a section)."""
        return sum(g[4] for g in self.meta["groups"] if groups is None or g[0] in groups)

    def addable(self, doc: int) -> bool:
        """Whether the arm may list doc `doc` (as count())."""
        return self.norm(doc) > 0 and not self._sections()[doc]

    def group_of(self, doc: int) -> tuple[int, int]:
        for n, (_, first, count, *_) in enumerate(self.meta["groups"]):
            if first <= doc < first + count:
                return n, doc - first
        raise IndexError(doc)

    def similarity(self, q: list[int], qq: int, doc: int) -> float | None:
        dd = self.norm(doc)
        return dot(q, *self._at(doc)) / (math.sqrt(qq) * math.sqrt(dd)) if qq and dd else None

    def _probed(self, q, qq: int, groups: set[str] | None, probe: int | None) -> list[tuple[int, int]]:
        """The buckets (n, b) of `groups` to scan: every one (probe None), else the `probe`
        whose centres are most similar to q (similarity descending, then n, then b), all
        centred on the brain's mean as the build assigned them (vectors/buckets.py): q scaled
        to the docs' ±127, in integers, qc = 127·q − max|q|·mean, and similarity = qc·(c −
        mean) / (sqrt(qc·qc) · sqrt((c − mean)·(c − mean))), every dot an exact integer."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        kept = [(n, g) for n, g in enumerate(self.meta["groups"]) if groups is None or g[0] in groups]
        if probe is None:
            return [(n, b) for n, g in kept for b in range(g[3])]
        ranked, top, mean = [], float(np.abs(q).max()), np.asarray(self.meta["mean"], dtype=np.float64)
        qc = 127.0 * q - top * mean
        root = np.sqrt(float(qc @ qc) or 1.0)
        for n, _ in kept:
            if n not in self.centres:
                c = np.frombuffer(self._file(f"{n}/c"), dtype=np.int8).reshape(-1, self.meta["dims"]) - mean
                self.centres[n] = (c, np.sqrt(np.einsum("ij,ij->i", c, c)))
            c, roots = self.centres[n]
            sims = (c @ qc) / (root * roots)
            ranked += [(-sim, n, b) for b, sim in enumerate(sims.tolist())]
        return [(n, b) for _, n, b in sorted(ranked)[:probe]]

    def nearest(self, q: list[int], qq: int, groups: set[str] | None, n_best: int,
                probe: int | None = None) -> list[tuple[float, int]]:
        """[(similarity, doc)] of the n_best most similar notes and records of `groups` (None:
        all) in the buckets _probed() picks, ties included at the cut, in vector order."""
        import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
        sims, docs, q = [], [], np.asarray(q, dtype=np.float64)
        for n, b in self._probed(q, qq, groups, probe):
            rows, roots, ids = self.block(n, b)
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
