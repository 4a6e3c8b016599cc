"""The vector arm of bf search and its fusion with the lexical arm (SPEC §5).
JS twin: site/engine/vector.js — same steps, same orders, same float operations.

1. The query's vector: the integer sum of the table rows of its WordPiece tokens
   (builder/vectors/wordpiece.py), read from the site's copy of the table (_bf/vectors/), so
   Python and the browser use the same rows as the build did.
2. similarity(doc) = dot / (sqrt(qq) * sqrt(dd)) with dot, qq, dd exact integers (int8 document
   vectors, so every product and sum is exact in a float64): one correctly rounded sqrt,
   multiply and divide each, identical in both runtimes. A document or query with a zero
   vector has no similarity (None).
3. Candidates: the lexical arm's first DEPTH items, plus — only where every hit of the kept
   index groups passes the filters (no --type, --path, period or identity scope; see
   topk.ranked_top's `trivial`) — the EXTEND most similar notes and records of those groups
   whose similarity is at least MIN_ADDED, when a hybrid search has fewer than `limit` strong
   candidates (5): additions come after every strong item, so otherwise none could enter the
   reply, and the scan over every vector of the kept groups is skipped (`total` then counts
   the lexical candidates alone). Sections are never the vector arm's own candidates (one
   item per note).
4. Vector order: similarity descending, then brain, then doc id. Lexical order: as search.py.
5. Hybrid: a lexical candidate is *strong* when it holds the words: every query word (the
   all-words pass), all of them in its title or aliases or its name is the query (tier 0 or
   1), or at least held_enough(n) of the query's n words (the any-word pass). Other lexical
   candidates and the arm's additions are *weak*. Guard: strong items come before weak ones
   (deprecated ones included), so the vector arm never displaces words that match; and when
   the lexical candidates hold every query word, the first of them stays first (a known item
   is first there). Within each class, reciprocal rank fusion: score = 1/(K + lexical rank) +
   w/(K + vector rank) (ranks from 1; an arm that did not list the item adds nothing; w:
   WEIGHT for a strong item, WEIGHT_WEAK for a weak one, so the vector arm decides what the
   words missed), ordered by not deprecated, score descending, lexical rank (unlisted last),
   vector rank. Vector ranks count within the class (strong items among strong ones).
6. Semantic: the vector order alone over the same candidates (its own candidates when
   allowed, else the lexical ones), score = similarity.
"""
from __future__ import annotations

import math
from functools import cached_property

from .. import MODES
from ..kernel.errors import EmbeddingsMissing, InvalidInput
from ..vectors.wordpiece import WordPiece
from . import topk

K = 60
DEPTH = 50
EXTEND = 20
# An addition needs this similarity: a word found nowhere ("zeppelin") should not bring back
# arbitrary notes. Measured: every mismatch.json target scores >= 0.64 against its query.
MIN_ADDED = 0.6
# Measured with bench --quality on every set (docs/decisions.md, "The vector arm")
WEIGHT = 0.2          # the vector arm's weight beside a strong lexical item (it holds the words)
WEIGHT_WEAK = 100.0   # … beside a weak one, and for its additions: there the vector order leads
FORMAT = "bf-vectors-1"
# recall's MMR: relevance against novelty. Not tuned on a set (docs/decisions.md, "recall").
LAMBDA = 0.7


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


_tables: dict[tuple, Table] = {}


def table(site) -> Table:
    """The site's table, read once per build (a rebuild gives a new build id)."""
    key = (str(site.path), site.build_id)
    if key not in _tables:
        if len(_tables) >= 8:
            _tables.pop(next(iter(_tables)))
        _tables[key] = Table(site)
    return _tables[key]


def brain_vectors(site, store) -> BrainVectors:
    if not hasattr(store, "vectors"):
        store.vectors = BrainVectors(site, store)
    return store.vectors


def check_mode(mode, site, stores) -> tuple[str, bool]:
    """(the mode to run, whether every selected brain has vectors)."""
    if mode is not None and mode not in MODES:
        raise InvalidInput("mode", f"must be one of {', '.join(MODES)}, got {mode!r}")
    has = bool(stores) and table(site).ok() and all(brain_vectors(site, s).ok() for s in stores.values())
    if mode is None:   # hybrid where it can run: it ranks no set lower (docs/decisions.md, "The vector arm")
        return ("hybrid" if has else "lexical"), has
    if mode != "lexical" and not has:
        raise EmbeddingsMissing(str(site.path), mode)
    return mode, has


def own_candidates(scope, type_, path) -> bool:
    """Whether the arm may add its own candidates: only when every doc of the kept index
    groups passes the filters (as topk.ranked_top's `trivial`)."""
    return (scope.kind in ("none", "memories", "source") and scope.period is None and scope.brain is None
            and type_ is None and path is None)


def vector_of(site, store, ref: str) -> tuple[np.ndarray, int]:
    """An item's vector and squared norm (recall's MMR)."""
    return brain_vectors(site, store).row(store.reader.doc(ref))


def diversify(items: list, vectors: list[tuple]) -> list:
    """`items` (ranked) reordered by maximal marginal relevance: repeatedly take the item
    maximising LAMBDA * rel - (1 - LAMBDA) * (its highest cosine to an item taken), rel =
    (n - rank) / n (rank from 0), the better-ranked on ties; so the first stays first.
    `vectors[i]`: item i's (vector, squared norm). Cosines: exact integer dots, divided as in
    search's similarity (a zero vector is similar to nothing), the same doubles as in JS."""
    import numpy as np   # lazily: only hybrid and semantic searches need it (cold start)
    n = len(items)
    if n < 3:
        return list(items)
    rows = np.array([v for v, _ in vectors], dtype=np.int64)
    roots = np.sqrt(np.array([qq for _, qq in vectors], dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        cos = (rows @ rows.T) / (roots[:, None] * roots[None, :])
    cos = np.where((roots[:, None] > 0) & (roots[None, :] > 0), cos, 0.0).tolist()
    left, best, out = list(range(n)), [0.0] * n, []
    while left:
        pick = max(left, key=lambda i: (LAMBDA * ((n - i) / n) - (1 - LAMBDA) * best[i], -i))
        out.append(items[pick])
        left.remove(pick)
        for i in left:
            best[i] = max(best[i], cos[pick][i])
    return out


def held_enough(n: int) -> int:
    """How many of a query's n >= 2 words an any-word candidate must hold to be strong: two,
    or one of a two-word query (a typo in the other: "prcing tiers")."""
    return 1 if n == 2 else 2


def _deprecated(entry) -> bool:
    return entry.kind != "record" and bool(entry.meta.get("deprecated"))


def fused(mode: str, site, stores: dict, text: str, lexical: list[tuple], lexical_total: int, every_word: bool,
          n_words: int, limit: int, scope, type_, path) -> tuple[list[tuple], int]:
    """([(entry, score, lexical score | None, similarity | None)] in reply order, total).
    `lexical`: the lexical arm's first DEPTH candidates (entry, score, count, tier), in order
    (for a semantic search, the candidates when the arm may not add its own, else none);
    `every_word`: whether they hold every query word (else they come from the any-word pass);
    `n_words`: how many distinct words the query has; `limit`: the reply's."""
    q = table(site).query(text)
    qq = int(q @ q)
    sims: dict[tuple, float | None] = {}
    entries: dict[tuple, object] = {}
    for entry, *_ in lexical:
        key = (entry.brain, entry.doc)
        entries[key] = entry
        sims[key] = brain_vectors(site, stores[entry.brain]).similarity(q, qq, entry.doc) if qq else None
    need = n_words if every_word else held_enough(n_words)
    strong = {(c[0].brain, c[0].doc) for c in lexical if c[3] < 2 or c[2] >= need} if mode == "hybrid" else set()
    added = 0
    if qq and len(strong) < limit and own_candidates(scope, type_, path) and table(site).wordpiece.known(text):
        for name, store in sorted(stores.items()):
            groups = topk.keep_groups(scope, store, type_, path)
            for sim, doc in brain_vectors(site, store).nearest(q, qq, groups, DEPTH if mode == "semantic" else EXTEND):
                key = (name, doc)
                if key not in entries and sim >= MIN_ADDED:
                    entry = store.hit(doc, store.reader.group(doc))
                    if entry is not None:
                        entries[key], sims[key] = entry, sim
                        added += 1
    ranked = sorted((key for key, sim in sims.items() if sim is not None), key=lambda k: (-sims[k], k))
    # vector ranks within each class, so the strong items' order does not hang on the additions
    vrank = {key: r for r, key in enumerate((k for k in ranked if k in strong), 1)}
    vrank.update((key, r) for r, key in enumerate((k for k in ranked if k not in strong), 1))
    lrank = {(c[0].brain, c[0].doc): r for r, c in enumerate(lexical, 1)}
    lscore = {(c[0].brain, c[0].doc): c[1] for c in lexical}
    if mode == "semantic":
        out = [(entries[k], sims[k], None, sims[k]) for k in ranked]
        return out, len(out)
    score = {k: (1 / (K + lrank[k]) if k in lrank else 0.0)
             + ((WEIGHT if k in strong else WEIGHT_WEAK) / (K + vrank[k]) if k in vrank else 0.0) for k in entries}
    unlisted = len(entries) + 1

    def order(k):
        first = 0 if every_word and lrank.get(k) == 1 else 1   # the best item holding every word
        return (first, k not in strong, _deprecated(entries[k]), -score[k], lrank.get(k, unlisted), vrank.get(k, unlisted))
    keys = sorted(entries, key=order)
    return [(entries[k], score[k], lscore.get(k), sims.get(k)) for k in keys], lexical_total + added
