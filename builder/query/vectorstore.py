"""Lazy reader of a built site's vector files (written by emit/vectors.py): the token
table (`_bf/vectors/`) and each brain's document vectors (`_bf/search/BRAIN/vectors/`), each
file read once. JS twin: site/engine/vectorstore.js. How the arm uses them: vector.py.

Document vectors are int8 rows and the query's the integer sum of its WordPiece tokens' rows
(builder/vectors/wordpiece.py), read from the site's copy of the table, each times its weight
in the brain searched (vectors/weights.py, the brain's weights file), so Python and the browser
use the same rows and weights as the build did; dots and squared norms are exact integers.
"""
from __future__ import annotations

import json
import math
import sys
from itertools import accumulate, cycle
from operator import mul, sub
from pathlib import Path

from ..kernel import packs
from ..kernel.formats import VECTORS_FORMAT
from ..vectors.weights import ONE
from ..vectors.wordpiece import WordPiece, shards_of, words


# Rows a search scores in plain integers before numpy's import pays (it costs about as much as
# the dots and norms of 4,000 rows of 128 dimensions: docs/decisions.md#a-cold-searchs-vector-arm-in-plain-integers).
PLAIN_ROWS = 4096


def _bytes(site, rel: str) -> bytes | None:
    """The int8 rows of vector file `rel`, None when it is missing or not a pack."""
    try:
        return packs.read(site.path, rel, True)
    except (OSError, ValueError):
        return None


class Table:
    """The site's token table: the vocabulary's shards and the rows, each file read once."""

    def __init__(self, site):
        self.site, self.meta, self.shards = site, site.load_json("_bf/vectors/table.json") or {}, {}
        self.pieces: set[int] = set()   # the vocabulary shards read into wordpiece's ids
        self.wordpiece = WordPiece({})

    def ok(self) -> bool:
        return self.meta.get("format") == VECTORS_FORMAT

    def _read(self, text: str) -> WordPiece:
        """The tokenizer, holding every vocabulary shard `text`'s words need (shards_of)."""
        return self._shards(set().union(*map(shards_of, words(text))))

    def _shards(self, shards: set[int]) -> WordPiece:
        need = shards - self.pieces
        for k in sorted(need):
            tokens, gaps = json.loads(_bytes(self.site, f"_bf/vectors/v/{k}.json") or b"[[], []]")
            self.wordpiece.ids.update(zip(tokens, accumulate(gaps)))
        self.pieces |= need
        return self.wordpiece

    def known(self, text: str) -> bool:
        return self._read(text).known(text)

    def preload(self) -> None:
        """Read every file now (bf mcp's startup: a session's first searches read none)."""
        if self.ok():
            self._shards(set(range(sum(self.meta["pieces"]))))
            for token in range(0, self.meta["rows"], self.meta["shard"]):
                self.row(token)

    def row(self, token: int) -> memoryview:
        k, i = divmod(token, self.meta["shard"])
        if k not in self.shards:
            self.shards[k] = memoryview(_bytes(self.site, f"_bf/vectors/t/{k}.bin") or b"").cast("b")
        dims = self.meta["dims"]
        return self.shards[k][i * dims:(i + 1) * dims]

    def query(self, text: str, weights: dict[int, int]) -> list[int]:
        """The query's vector in a brain: the exact integer sum of its tokens' rows, each times
        its weight there in sixteenths (`weights`, BrainVectors.weights: a token it does not
        list weighs ONE), as the brain's documents were embedded (vectors/weights.py)."""
        rows = [[weights.get(token, ONE) * v for v in self.row(token)] for token in self._read(text).tokens(text)]
        return [sum(column) for column in zip(*rows)] if rows else [0] * self.meta["dims"]


class BrainVectors:
    """One brain's document vectors (_bf/search/BRAIN/vectors/), each file read once, but a
    group's rows: a doc's alone. Group n of meta's `groups` holds docs [first, first + count);
    its doc i's vector is row i of n/rows.bin, and again in its bucket's file when the arm may
    list it (emit/vectors.py)."""

    def __init__(self, site, store):
        self.site, self.store = site, store
        self.meta = site.load_json(f"{store.base}/vectors/meta.json") or {}
        self.blocks: dict[tuple[int, int], tuple] = {}
        self.rows: dict[int, bytes] = {}       # group n's rows, whole (preload)
        self.vectors: dict[int, memoryview] = {}   # doc id -> its int8 vector, as asked
        self.centres: dict[int, tuple] = {}     # group n → its buckets' centres less the mean, and their norms
        self.roots: dict[tuple[int, int], list[float]] = {}   # a bucket's rows' norms, counted in Python
        # as numpy float64, once numpy is loaded: group n's centres (key n), a bucket's rows and norms (key (n, b))
        self.matrices: dict[int | tuple[int, int], object] = {}
        self.norms: dict[int, int] = {}        # doc id -> its vector's squared norm, as asked
        self.weighs: dict[int, int] | None = None   # token id -> its weight in sixteenths, when below ONE

    def ok(self) -> bool:
        return self.meta.get("format") == VECTORS_FORMAT

    def weights(self) -> dict[int, int]:
        """The brain's token weights (emit/vectors.py weights.json: the tokens weighing less
        than ONE sixteenths, by id gaps), read once."""
        if self.weighs is None:
            ids, weights = json.loads(_bytes(self.site, f"{self.store.base}/vectors/weights.json") or b"[[], []]")
            self.weighs = dict(zip(accumulate(ids), weights))
        return self.weighs

    def _file(self, rel: str) -> bytes:
        return _bytes(self.site, f"{self.store.base}/vectors/{rel}.bin") or b""

    def preload(self) -> None:
        """Read every group's rows now (bf mcp's startup: the candidates' vectors are then in memory)."""
        if self.ok():
            self.weights()
            for n in range(len(self.meta["groups"])):
                try:
                    self.rows[n] = self._path(n).read_bytes()
                except OSError:
                    self.rows[n] = b""

    def _rows(self, data: bytes) -> memoryview:
        """The int8 vectors stored column by column in `data` (emit/vectors.py), one after
        another: a slice per vector turns them back."""
        count = len(data) // self.meta["dims"]
        return memoryview(b"".join(data[r::count] for r in range(count))).cast("b")

    def _path(self, n: int) -> Path:
        return Path(self.site.path, self.store.base, "vectors", str(n), "rows.bin")

    def _vector(self, doc: int) -> memoryview:
        """Doc `doc`'s int8 vector: its dims bytes of its group's rows, read alone as the
        browser asks for them (empty when the file is missing or short)."""
        if doc not in self.vectors:
            n, i = self.group_of(doc)
            dims = self.meta["dims"]
            if n in self.rows:
                data = self.rows[n][i * dims:(i + 1) * dims]
            else:
                try:
                    with open(self._path(n), "rb") as fh:
                        fh.seek(i * dims)
                        data = fh.read(dims)
                except OSError:
                    data = b""
            self.vectors[doc] = memoryview(data if len(data) == dims else b"").cast("b")
        return self.vectors[doc]

    def block(self, n: int, b: int) -> tuple[memoryview, list[int]]:
        """(vectors, row after row, int8; doc ids) of bucket b of group n: its docs are those the
        arm may add (a vector, and not a section)."""
        if (n, b) not in self.blocks:
            data = self._file(f"{n}/{b}")
            count, first = len(data) // (4 + self.meta["dims"]), self.meta["groups"][n][1]
            ids = [first + int.from_bytes(data[at:at + 4], "little") for at in range(0, 4 * count, 4)]
            self.blocks[n, b] = (self._rows(data[4 * count:]), ids)
        return self.blocks[n, b]

    def _scored(self, n: int, b: int, rows: memoryview, q: list[int], np) -> tuple[list[int], list[float]]:
        """q's dot with each row of bucket (n, b), and the rows' norms (kept): exact integers and
        correctly rounded roots either way, over arrays when numpy is loaded (`np`)."""
        dims = len(q)
        if np is None:
            if (n, b) not in self.roots:
                self.roots[n, b] = [math.sqrt(dot(rows[at:at + dims], rows, at)) for at in range(0, len(rows), dims)]
            return [dot(q, rows, at) for at in range(0, len(rows), dims)], self.roots[n, b]
        if (n, b) not in self.matrices:
            m = np.frombuffer(rows, dtype=np.int8).reshape(-1, dims).astype(np.float64)
            self.matrices[n, b] = (m, np.sqrt(np.einsum("ij,ij->i", m, m)).tolist())
        m, roots = self.matrices[n, b]
        return (m @ np.asarray(q, dtype=np.float64)).tolist(), roots

    def row(self, doc: int) -> tuple[list[int], int]:
        """Doc `doc`'s vector and its squared norm (bf similar's query), in plain integers:
        scoring a search's few candidates needs no numpy (a tenth of a second to import)."""
        return list(self._vector(doc)), self.norm(doc)

    def norm(self, doc: int) -> int:
        """Doc `doc`'s squared norm, kept once asked."""
        if doc not in self.norms:
            vector = self._vector(doc)
            self.norms[doc] = dot(vector, vector)
        return self.norms[doc]

    def count(self, groups: set[str] | None) -> int:
        """How many docs of `groups` (None: all) the arm may list (a vector, not a section)."""
        return sum(g[4] for g in self.meta["groups"] if groups is None or g[0] in groups)

    def addable(self, doc: int) -> bool:
        """Whether the arm may list doc `doc` (as count()): a vector, and not a section (a doc
        of the notes' group whose ref has an anchor)."""
        reader = self.store.reader
        return self.norm(doc) > 0 and not (not reader.group(doc) and "#" in reader.ref(doc))

    def group_of(self, doc: int) -> tuple[int, int]:
        for n, (_, first, count, *_) in enumerate(self.meta["groups"]):
            if first <= doc < first + count:
                return n, doc - first
        raise IndexError(doc)

    def similarity(self, q: list[int], qq: int, doc: int) -> float | None:
        dd = self.norm(doc)
        return dot(q, self._vector(doc)) / (math.sqrt(qq) * math.sqrt(dd)) if qq and dd else None

    def similarities(self, q: list[int], qq: int, docs: list[int]) -> list[float | None]:
        """similarity() of each of `docs`: with numpy loaded (bf mcp, a common word's search),
        every dot and norm at once, as exact int64 sums, divided as similarity() divides."""
        np, dims = sys.modules.get("numpy"), self.meta.get("dims", 0)
        vectors = [self._vector(doc) for doc in docs]
        if np is None or not qq or not docs or any(len(v) != dims for v in vectors):
            return [self.similarity(q, qq, doc) for doc in docs]
        rows = np.frombuffer(b"".join(vectors), dtype=np.int8).reshape(len(docs), dims).astype(np.int64)
        for doc, dd in zip(docs, np.einsum("ij,ij->i", rows, rows).tolist()):
            self.norms.setdefault(doc, dd)
        root = math.sqrt(qq)
        return [dot / (root * math.sqrt(self.norms[doc])) if self.norms[doc] else None
                for doc, dot in zip(docs, (rows @ np.asarray(q, dtype=np.int64)).tolist())]

    def _probed(self, q: list[int], groups: set[str] | None, probe: int | None) -> list[tuple[int, int]]:
        """The buckets (n, b) of `groups` to scan: every one (probe None), else the `probe`
        whose centres are most similar to q (similarity descending, then n, then b), all
        centred on the brain's mean as the build assigned them (vectors/buckets.py): q scaled
        to the docs' ±127, in integers, qc = 127·q − max|q|·mean, and similarity = qc·(c −
        mean) / (sqrt(qc·qc) · sqrt((c − mean)·(c − mean))), every dot an exact integer."""
        kept = [(n, g) for n, g in enumerate(self.meta["groups"]) if groups is None or g[0] in groups]
        if probe is None:
            return [(n, b) for n, g in kept for b in range(g[3])]
        top, mean = max(map(abs, q)), self.meta["mean"]
        qc = [127 * v - top * m for v, m in zip(q, mean)]
        root, dims, ranked = math.sqrt(float(dot(qc, qc)) or 1.0), len(qc), []
        np = sys.modules.get("numpy")
        for n, _ in kept:
            if n not in self.centres:
                c = list(map(sub, memoryview(self._file(f"{n}/c")).cast("b"), cycle(mean)))
                self.centres[n] = (c, [math.sqrt(dot(c[at:at + dims], c, at)) for at in range(0, len(c), dims)])
            c, roots = self.centres[n]
            if np is not None:   # the same exact integer dots, at C speed
                if n not in self.matrices:
                    self.matrices[n] = np.asarray(c, dtype=np.float64).reshape(-1, dims)
                dots = (self.matrices[n] @ np.asarray(qc, dtype=np.float64)).tolist()
            else:
                dots = [dot(qc, c, at) for at in range(0, len(c), dims)]
            ranked += [(-_divided(d, root * cc), n, b) for b, (d, cc) in enumerate(zip(dots, roots))]
        return [(n, b) for _, n, b in sorted(ranked)[:probe]]

    def nearest(self, q: list[int], qq: int, groups: set[str] | None, n_best: int,
                probe: int | None = None) -> list[tuple[float, int]]:
        """[(similarity, doc)] of the n_best most similar notes and records of `groups` (None:
        all) in the buckets _probed() picks, ties included at the cut, in vector order. With
        numpy loaded (bf mcp) the dots run at C speed; a cold `bf search` computes them in plain
        integers rather than import numpy (a third of its time): both exact, so both give the
        same list, as the browser's (vectorstore.js). A scan of every bucket (probe None: bf
        similar of a note), or of more than PLAIN_ROWS rows, is worth numpy's import."""
        blocks = [(n, b, *self.block(n, b)) for n, b in self._probed(q, groups, probe)]
        if probe is None or sum(len(ids) for *_, ids in blocks) > PLAIN_ROWS:
            import numpy   # noqa: F401  (worth its import: the dots below run at C speed)
        np, found = sys.modules.get("numpy"), []
        for n, b, rows, ids in blocks:
            dots, roots = self._scored(n, b, rows, q, np)
            found += [(_divided(d, math.sqrt(qq) * root), doc) for d, root, doc in zip(dots, roots, ids)]
        found.sort(key=lambda sd: (-sd[0], sd[1]))
        if len(found) > n_best:   # the n_best largest and every tie of the last
            cut = found[n_best - 1][0]
            found = [sd for sd in found if sd[0] >= cut]
        return found


def dot(q, rows, at: int = 0) -> int:
    """q · rows[at…at + len(q)]: exact integer sums (a row of a file's vectors, or a whole vector)."""
    return sum(map(mul, q, rows[at:at + len(q)]))


def _divided(a: float, b: float) -> float:
    """a / b as IEEE 754 divides (numpy, the browser): a centre at the brain's mean has norm 0,
    and its similarity is then nan (0 / 0) or ±inf, not an error."""
    if b:
        return a / b
    return math.nan if not a or a != a else math.copysign(math.inf, a) * math.copysign(1.0, b)


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
