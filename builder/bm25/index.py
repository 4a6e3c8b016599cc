"""Sharded BM25 index writer (format bf-lunr-11, see FORMAT.md; readers: reader.py here and
site/engine/bm25/).

Postings hold integers only — per field, doc id gaps and term frequencies — and the field
lengths are per document, in l/ files, so nothing corpus-wide (document count, document
frequency, average lengths) nor a document's length is baked into them: readers compute BM25 at
query time from those and meta.json's totals, with arithmetic both runtimes evaluate identically
(scoring.py). A one-note edit therefore changes only the postings of the terms whose frequency
it changed, its l/ file and meta.json. Where each value goes: layout.py.
"""
from __future__ import annotations

import gc

from pathlib import Path
from types import MappingProxyType

from ..kernel.canon import canonical_json
from ..kernel.packs import pack, packed_name
from ..kernel.parallel import SERIAL, Spread
from . import layout as laid, tally
from .adjacent import Pairs
from .layout import _LONE_SURROGATE, arrange, file_bytes, layout
from .pipeline import WordMemo, term_counts
from .postings import gaps
from .scoring import FIELDS, FORMAT, PARAMS, fnv1a

FIELD_BOOSTS = MappingProxyType({f: PARAMS[f]["boost"] for f in FIELDS})
WEIGHTS = MappingProxyType({f: PARAMS[f].get("weights", (1,)) for f in FIELDS})
ID = 24                   # a posting entry while indexing is doc << ID | tf
_MASK = (1 << ID) - 1     # lengths and frequencies are capped at 16,777,215

__all__ = ["FIELD_BOOSTS", "FORMAT", "index_files", "write_index", "fnv1a"]


def field_counts(doc, memo: WordMemo | None = None) -> list[tuple[dict[str, int], int]]:
    """Per field, ({term: tf}, length) of `doc`, as its postings hold them."""
    out = []
    for field in FIELDS:
        text = doc.get(field)
        if not text:  # records have no aliases or headings: skip the pipeline
            out.append(({}, 0))
        else:
            out.append(term_counts(text, memo) if isinstance(text, str) else _weighted_counts(text, WEIGHTS[field], memo))
    return out


def lengths(counts) -> tuple[int, ...]:
    """A document's field lengths (capped) from its field_counts, as l/ files hold them."""
    return tuple(min(n, _MASK) for _, n in counts)


def _weighted_counts(texts, weights, memo: WordMemo | None = None) -> tuple[dict[str, int], int]:
    """term_counts of a weighted field: texts[k] (a list of texts) counted weights[k] times."""
    out: dict[str, int] = {}
    total = 0
    for group, w in zip(texts, weights):
        for text in group:
            counts, n = term_counts(text, memo)
            total += n * w
            for term, tf in counts.items():
                out[term] = out.get(term, 0) + tf * w
    return out, total


def _all_postings(docs, memo: WordMemo, lists: bool):
    """(per field: term -> [doc << ID | tf, ...], docs ascending — when `lists`, else None; the
    fields' total lengths; each doc's lengths() (None at an unused id); term -> _term_entry) of
    all docs, counted over arrays (tally.py). Without `lists` (no watch build keeps the entries
    to patch), a shard's entry is its JSON text already (tally.entries)."""
    import numpy as np   # the build's only: a query needs no postings built
    per_field, names, totals, by_field, met = tally.postings(np, docs, 0, memo, WEIGHTS)
    # A lone surrogate is not valid UTF-8 (only from broken input), unreachable from JS.
    keep = ([not _LONE_SURROGATE.search(t) for t in names] if _LONE_SURROGATE.search("".join(names))
            else [True] * len(names))
    weights = tally.entries(np, per_field, names, keep, _MASK, met, None if lists else laid.BIG_POSTINGS)
    capped = np.minimum(np.stack(by_field, 1), _MASK).tolist() if docs else []
    lens = [None if doc is None else tuple(n) for doc, n in zip(docs, capped)]
    post = tally.term_lists(np, per_field, names, ID, _MASK) if lists else None
    return post, totals, lens, weights, tally.body_hashes(np, docs, 0, met)


def _term_entry(post, term):
    """(postings, [[field, gaps, tfs], ...] by field, shard hash) of one term."""
    out, count = [], 0
    for fi, pf in enumerate(post):
        entries = pf.get(term)
        if not entries:
            continue
        ids = [e >> ID for e in entries]
        out.append([fi, gaps(ids), [e & _MASK for e in entries]])
        count += len(entries)
    return count, out, fnv1a(term)


PARALLEL_DOCS = 5000  # fewer docs are indexed faster than workers start


def index_files(docs, state=None, spread: Spread = SERIAL) -> dict[str, bytes]:
    """The index of *docs* (dicts with ref/title/aliases/headings/body, optionally group, names,
    neighbours — a list per distance of texts — and conversation, a number ≥ 1):
    {relative path: bytes}. Bytes depend only on docs. With a `state` (update.IndexState, the
    build state of a previous index), only what the changed documents touch is recomputed.
    `spread`: the workers the runner allows (kernel/parallel.Spread)."""
    docs, refs, groups = arrange(docs, state.arranged if state is not None else None)
    if len(set(refs)) - (None in refs) != len(refs) - refs.count(None):
        raise ValueError("duplicate refs in index input")
    if state is not None and state.refs is not None:
        return state.update(docs, refs, groups, spread)
    return _whole(docs, refs, groups, state, spread)


def _whole(docs, refs, groups, state, spread: Spread) -> dict[str, bytes]:
    """index_files from scratch. Its millions of posting lists hold no cycle: a collection
    while they pile up walks them all and frees nothing (~1 s of a 5,000-note multilingual
    index), so the collector waits until they are written. Its arrays of millions of numbers
    take small pages (docs/decisions.md#the-search-index-of-a-long-multilingual-brain-sorts-packed-keys-and-writes-its-shards-from-arrays)."""
    enabled = gc.isenabled()
    gc.disable()
    huge = _huge_pages(False)
    try:
        return _built(docs, refs, groups, state, spread)
    finally:
        _huge_pages(huge)
        if enabled:
            gc.enable()


def _huge_pages(on: bool) -> bool:
    """Whether numpy asks for huge pages for its big arrays (it does by default), set to `on`;
    the last setting returned. Where the kernel compacts memory on such a request (THP defrag
    "madvise"), each fresh array's first touch waits for it: more system time than the sort."""
    try:
        from numpy._core import multiarray
    except ImportError:   # numpy 1
        from numpy.core import multiarray
    setter = getattr(multiarray, "_set_madvise_hugepage", None)
    return bool(setter(on)) if setter is not None else on


def _built(docs, refs, groups, state, spread: Spread) -> dict[str, bytes]:
    worth = len(docs) > PARALLEL_DOCS
    memo = WordMemo()   # this index's words, analysed once each
    post, totals, lens, weights, hashes = _all_postings(docs, memo, state is not None)
    facets, pairs = {}, Pairs(hashes)
    files = layout(docs, refs, groups, totals, lens, weights, memo, facets, pairs)
    names_ = sorted(files)
    stored = dict(zip(map(stored_name, names_), spread.each(dump_file, names_, files, worth=worth)))
    if state is not None:
        state.keep(docs, refs, post, totals, lens, weights, files, stored, memo, facets, pairs)
    return stored


def stored_name(rel: str) -> str:
    return rel if rel == "meta.json" else packed_name(rel)


def dump_file(files, rel):
    """meta.json as JSON, every other file a pack (builder/packs.py), compressed in the workers."""
    return canonical_json(files[rel]) if rel == "meta.json" else pack(file_bytes(rel, files[rel]), numbers=True)


def write_index(docs, out_dir) -> list[str]:
    """Write index_files(docs) under *out_dir*; return the written paths."""
    files = index_files(docs)
    out = Path(out_dir)
    for sub in ("t", "b", "r", "n", "f", "c", "o", "p", "l", "a"):  # drop files of a previous, larger index
        d = out / sub
        if d.is_dir():
            for f in d.glob("*.*"):
                if f"{sub}/{f.name}" not in files:
                    f.unlink()
        d.mkdir(parents=True, exist_ok=True)
    written = []
    for rel, data in files.items():
        path = out / rel
        path.write_bytes(data)
        written.append(str(path))
    return written
