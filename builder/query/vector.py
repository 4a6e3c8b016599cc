"""The vector arm of bf search and its fusion with the lexical arm (docs/replies.md#the-reply).
JS twin: site/engine/vector.js — same steps, same orders, same float operations.

1. The query's vector in each brain: the integer sum of the table rows of its WordPiece tokens
   (builder/vectors/wordpiece.py), read from the site's copy of the table (_bf/vectors/), each
   times the token's weight in that brain (vectors/weights.py: the brain's weights file), so
   Python and the browser use the same rows and weights as the build did (vectorstore.py reads
   the files).
2. similarity(doc) = dot / (sqrt(qq) * sqrt(dd)) with dot, qq, dd exact integers (int8 document
   vectors, so every product and sum is exact in a float64): one correctly rounded sqrt,
   multiply and divide each, identical in both runtimes. A document or query with a zero
   vector has no similarity (None).
3. Candidates: the lexical arm's first DEPTH items, plus — only where every hit of the kept
   index groups passes the filters (no --type, --path, period or identity scope; see
   topk.ranked_top's `trivial`) — the EXTEND most similar notes and records of those groups'
   PROBE buckets nearest the query (vectorstore.py; vectors/buckets.py), whose similarity is
   at least MIN_ADDED, when a hybrid search has fewer than `limit` strong
   candidates (5): additions come after every strong item, so otherwise none could enter the
   reply, and the scan of the buckets is skipped (`total` then counts
   the lexical candidates alone). Sections are never the vector arm's own candidates (one
   item per note).
4. Vector order: similarity descending, then brain, then doc id. Lexical order: as search.py.
5. Hybrid: a lexical candidate is *strong* when it holds the words: every query word in its
   own text, all of them in its title or aliases, or its name is the query (tiers 0-2), or at
   least held_enough(n) of the query's n words (whether or not another candidate holds every
   word: an any-word result the lexical arm ranks well keeps its place). Other lexical
   candidates and the arm's additions are *weak*. Order: not deprecated before
   deprecated (in every mode); then strong before weak, so the vector arm never displaces
   words that match; and when a candidate holds every query word, the first of them stays
   first (a known item is first there); then a strong item's tier (so the arm never moves one
   behind an item of a later tier). Within a tier, the strong items' score weighs the words'
   score by the item's cosine against the best cosine among them: score = (lexical score /
   the best strong item's) / (1 + FIT * (best similarity - similarity)) / (K + 1) (an item
   without a similarity counts as the least similar), so the vector arm re-orders what the
   words found by how much nearer the query it is, not by its rank alone. Weak items:
   reciprocal rank fusion, score = (1/(K + lexical rank) + w/(K + vector rank)) / (1 + w)
   (ranks from 1, vector ranks counted among the weak items; an arm that did not list the item
   adds nothing; w = WEIGHT_WEAK, so the vector arm decides what the words missed). Every
   score is thus in (0, 1/(K + 1)]: one scale for both classes. Ties: lexical rank (unlisted
   last), vector rank. Then the first places are spread across conversations again
   (search.py, spread.py), within the same blocks, as the fused scores moved them.
6. Semantic: the vector order alone over the same candidates (its own candidates when
   allowed, else the lexical ones), score = similarity, deprecated items last.
7. The arm's own candidates obey the query's phrases: an addition whose stored text does not
   hold every quoted span in order is left out (`admit`), as the lexical arm leaves it out.
"""
from __future__ import annotations

from ..kernel.bundle import MODES
from ..kernel.errors import EmbeddingsMissing, InvalidInput
from . import topk
from .vectorstore import brain_vectors, dot, table

K = 60
DEPTH = 50
EXTEND = 20
# The arm's own candidates come from the PROBE buckets whose centres are nearest the query
# (vectors/buckets.py, ~256 docs each): a first download of ~0.3 MB instead of every vector.
PROBE = 16
# An addition needs this similarity: a word found nowhere ("zeppelin") should not bring back
# arbitrary notes. Measured: every mismatch.json target scores >= 0.64 against its query.
MIN_ADDED = 0.6
# Measured with bench --quality on every set (docs/decisions.md#fusion-that-weighs-the-words-score)
FIT = 2.0             # a strong item's words' score over 1 + FIT × its cosine's gap to the best
WEIGHT_WEAK = 100.0   # the vector arm's weight beside a weak item and for its additions: there the vector order leads
# recall's MMR: relevance against novelty. Not tuned on a set (docs/decisions.md#recall).
LAMBDA = 0.7


def check_mode(mode, site, stores) -> tuple[str, bool]:
    """(the mode to run, whether every selected brain has vectors)."""
    if mode is not None and mode not in MODES:
        raise InvalidInput("mode", f"must be one of {', '.join(MODES)}, got {mode!r}")
    has = bool(stores) and table(site).ok() and all(brain_vectors(site, s).ok() for s in stores.values())
    if mode is None:   # hybrid where it can run: it ranks no set lower (docs/decisions.md#the-vector-arm)
        return ("hybrid" if has else "lexical"), has
    if mode != "lexical" and not has:
        raise EmbeddingsMissing(str(site.path), mode)
    return mode, has


def vector_of(site, store, ref: str) -> tuple[list[int], int]:
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


def _scores(entries: dict, strong: set, sims: dict, lscore: dict, lrank: dict, vrank: dict) -> dict:
    """Each hybrid candidate's fused score (step 5): a strong item's lexical score weighed by its
    cosine's gap to the best strong item's; a weak item's reciprocal ranks."""
    top = max((lscore[k] for k in strong), default=0.0)
    near = [sims[k] for k in strong if sims[k] is not None]
    best, least = (max(near), min(near)) if near else (0.0, 0.0)
    score = {}
    for k in entries:
        if k in strong:
            gap = best - (sims[k] if sims[k] is not None else least)
            # every strong item scored 0 (words every document holds): all tie, and the cosine orders them
            score[k] = (lscore[k] / top if top else 1.0) / (1 + FIT * gap) / (K + 1)
        else:
            rrf = (1 / (K + lrank[k]) if k in lrank else 0.0) + (WEIGHT_WEAK / (K + vrank[k]) if k in vrank else 0.0)
            score[k] = rrf / (1 + WEIGHT_WEAK)
    return score


def fused(mode: str, site, stores: dict, text: str, lexical: list[tuple], lexical_total: int,
          n_words: int, limit: int, scope, type_, path, spread_by, admit=None) -> tuple[list[tuple], int]:
    """([(entry, score, lexical score | None, similarity | None)] in reply order, total).
    `lexical`: the lexical arm's first DEPTH candidates (entry, score, count, tier), in order
    (for a semantic search, the candidates when the arm may not add its own, else none);
    `n_words`: how many distinct words the query has; `limit`: the reply's; `spread_by(ranked,
    block)`: `ranked` spread across conversations within blocks (search.py: spread.py with each
    item's conversation); `admit(entry)`: whether an addition of the arm's holds the query's
    phrases (None: no phrase)."""
    queries: dict[str, tuple[list[int], int]] = {}

    def query(name: str) -> tuple[list[int], int]:   # (vector, squared norm) in brain `name`
        if name not in queries:
            q = table(site).query(text, brain_vectors(site, stores[name]).weights())
            queries[name] = q, dot(q, q)
        return queries[name]
    sims: dict[tuple, float | None] = {}
    entries: dict[tuple, object] = {}
    for entry, *_ in lexical:
        entries[entry.brain, entry.doc], sims[entry.brain, entry.doc] = entry, None
    for name in sorted({brain for brain, _ in entries}):   # each brain's candidates at once
        docs = [doc for brain, doc in entries if brain == name]
        q, qq = query(name)
        found = brain_vectors(site, stores[name]).similarities(q, qq, docs) if qq else [None] * len(docs)
        sims.update(((name, doc), sim) for doc, sim in zip(docs, found))
    every_word = any(c[3] <= 2 for c in lexical)
    need = held_enough(n_words)   # whether or not another candidate holds every word
    strong = {(c[0].brain, c[0].doc) for c in lexical if c[3] <= 2 or c[2] >= need} if mode == "hybrid" else set()
    added = 0
    if len(strong) < limit and topk.own_candidates(scope, type_, path) and table(site).known(text):
        for name, store in sorted(stores.items()):
            groups = topk.keep_groups(scope, store, type_, path)
            q, qq = query(name)
            if not qq:
                continue
            for sim, doc in brain_vectors(site, store).nearest(q, qq, groups, DEPTH if mode == "semantic" else EXTEND, PROBE):
                key = (name, doc)
                if key not in entries and sim >= MIN_ADDED:
                    entry = store.hit(doc, store.reader.group(doc))
                    if entry is not None and (admit is None or admit(entry)):
                        entries[key], sims[key] = entry, sim
                        added += 1
    ranked = sorted((key for key, sim in sims.items() if sim is not None), key=lambda k: (-sims[k], k))
    # vector ranks within each class, so the strong items' order does not hang on the additions
    vrank = {key: r for r, key in enumerate((k for k in ranked if k in strong), 1)}
    vrank.update((key, r) for r, key in enumerate((k for k in ranked if k not in strong), 1))
    lrank = {(c[0].brain, c[0].doc): r for r, c in enumerate(lexical, 1)}
    lscore = {(c[0].brain, c[0].doc): c[1] for c in lexical}
    if mode == "semantic":
        out = [(entries[k], sims[k], None, sims[k]) for k in sorted(ranked, key=lambda k: entries[k].deprecated)]
        return out, len(out)
    score = _scores(entries, strong, sims, lscore, lrank, vrank)
    tier, unlisted = {(c[0].brain, c[0].doc): c[3] for c in lexical}, len(entries) + 1
    # the order's part before the score, which the spread keeps within: deprecated items last, the
    # best item holding every word first, strong items before weak ones, a strong item's tier
    blocks = {k: (entries[k].deprecated, 0 if every_word and lrank.get(k) == 1 else 1, k not in strong,
                  tier[k] if k in strong else 0) for k in entries}
    keys = sorted(entries, key=lambda k: (*blocks[k], -score[k], lrank.get(k, unlisted), vrank.get(k, unlisted)))
    out = [(entries[k], score[k], lscore.get(k), sims.get(k)) for k in keys]
    return spread_by(out, lambda c: blocks[c[0].brain, c[0].doc]), lexical_total + added
