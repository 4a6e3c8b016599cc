"""Sharded BM25 index writer (format bf-lunr-10, see FORMAT.md; readers: reader.py here and
site/engine/bm25/).

Postings hold integers only — per field, doc id gaps and term frequencies — and the field
lengths are per document, in l/ files, so nothing corpus-wide (document count, document
frequency, average lengths) nor a document's length is baked into them: readers compute BM25 at
query time from those and meta.json's totals, with arithmetic both runtimes evaluate identically
(scoring.py). A one-note edit therefore changes only the postings of the terms whose frequency
it changed, its l/ file and meta.json. Where each value goes: layout.py.
"""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from ..kernel.canon import canonical_json
from ..kernel.packs import pack, packed_name
from ..kernel.parallel import SERIAL, Spread
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


def _postings(docs, first: int = 0, memo: WordMemo | None = None):
    """Per field: term -> [doc << ID | tf, ...] (docs ascending, numbered from *first*; None: an
    unused id); the fields' total lengths; each doc's lengths() (None at an unused id)."""
    flat = [([], [], [], []) for _ in FIELDS]   # per field: terms, tfs, and each doc's id and term count
    totals = [0] * len(FIELDS)
    lens: list = []
    for d, doc in enumerate(docs, first):
        if doc is None:
            lens.append(None)
            continue
        counts = field_counts(doc, memo)
        lens.append(lengths(counts))
        for fi, (tfs, n) in enumerate(counts):
            if n:
                totals[fi] += n
                terms, freqs, ids, sizes = flat[fi]
                terms += tfs
                freqs += tfs.values()
                ids.append(d)
                sizes.append(len(tfs))
    return [_grouped(*f) for f in flat], totals, lens


def _grouped(terms: list, freqs: list, ids: list, sizes: list) -> dict[str, list[int]]:
    """term -> its entries, docs ascending, from one field's (term, tf) pairs in doc order: sorted
    as arrays (a Python append per entry costs more than all the rest of the index)."""
    import numpy as np   # the build's only: a query needs no postings built
    if not terms:
        return {}
    names = sorted(set(terms))
    number = dict(zip(names, range(len(names))))
    tid = np.fromiter(map(number.__getitem__, terms), np.int32, len(terms))
    entries = np.repeat(np.array(ids, np.int64), np.array(sizes, np.int64)) << ID
    entries |= np.minimum(np.array(freqs, np.int64), _MASK)
    order = np.argsort(tid, kind="stable")   # stable: each term's docs stay ascending
    tid, entries = tid[order], entries[order].tolist()
    starts = np.flatnonzero(np.r_[True, tid[1:] != tid[:-1]])
    keys, starts = map(names.__getitem__, tid[starts].tolist()), starts.tolist()
    return {t: entries[a:b] for t, a, b in zip(keys, starts, starts[1:] + [len(entries)])}


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


def _postings_part(job, span):
    docs, memo = job
    return _postings(docs[span[0]:span[1]], span[0], memo)


def _all_postings(docs, spread: Spread, worth: bool, memo: WordMemo):
    """_postings of all docs, the docs split into contiguous runs of about equal text over the
    cores; concatenating the runs' lists in order keeps every list ascending."""
    k = spread.workers(worth)
    sizes = [len(doc.get("body") or "") + 64 if doc is not None else 0 for doc in docs]  # 64: its other fields, roughly
    cuts, size, total = [0], 0, sum(sizes)
    for i, n in enumerate(sizes):
        size += n
        if size * k >= total * len(cuts) and len(cuts) < k:
            cuts.append(i + 1)
    spans = list(zip(cuts, cuts[1:] + [len(docs)]))
    parts = spread.each(_postings_part, spans, (docs, memo), worth=worth)
    post, totals, lens = parts[0]
    for more, more_totals, more_lens in parts[1:]:
        for pf, mf in zip(post, more):
            for term, entries in mf.items():
                have = pf.get(term)
                if have is None:
                    pf[term] = entries
                else:
                    have.extend(entries)
        totals = [a + b for a, b in zip(totals, more_totals)]
        lens += more_lens
    return post, totals, lens


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
    worth = len(docs) > PARALLEL_DOCS
    memo = WordMemo()   # this index's words, analysed once each (workers fork a copy)
    post, totals, lens = _all_postings(docs, spread, worth, memo)
    # A lone surrogate is not valid UTF-8 (only from broken input), unreachable from JS.
    terms = [t for t in sorted(set().union(*post)) if not _LONE_SURROGATE.search(t)]
    weights = dict(zip(terms, spread.each(_term_entry, terms, post, worth=worth)))
    facets, pairs = {}, Pairs()
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
