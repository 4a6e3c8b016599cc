"""Sharded lunr-compatible BM25 index: writer and Python reader.

Scores equal lunr.py 0.8 (and lunr.js 2.3.9) for plain-term queries whose
terms are all REQUIRED or all OPTIONAL. Why the format can be this small:
lunr 2.3.9's ``Index.query`` divides each field's dot product by the *query*
vector's magnitude only, every query term hits every field with boost 1, so
a document's score is ``sum_t c_t * sum_f w[t,f,doc] / |q|``. The writer
stores ``sum_f w`` per (term, doc) as an integer number of thousandths
(lunr rounds each ``w`` to 3 decimals), which makes Python and JS scores
bit-identical. See FORMAT.md; the JS twin is site/engine/lunrindex.js.
"""
from __future__ import annotations

import json
import math
import re
from collections import _count_elements
from operator import itemgetter
from pathlib import Path

from ..parallel import cores, fork_map
from .pipeline import analyze

FORMAT = "bf-lunr-2"
FIELDS = ("title", "aliases", "headings", "body")
FIELD_BOOSTS = {"title": 10, "aliases": 8, "headings": 4, "body": 1}
K1 = 1.2
B = 0.75
REF_CHUNK = 1000          # refs per r/N.json
SHARD_TARGET = 32 * 1024  # aimed bytes per t/N.json
BIG_POSTINGS = 2000       # a term with more postings gets its own b/N.json
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # only from broken input


def fnv1a(term: str) -> int:
    """32-bit FNV-1a of the UTF-8 bytes (same in lunrindex.js)."""
    h = 0x811C9DC5
    for byte in term.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def _dumps(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"),
                      sort_keys=True).encode("utf-8")


_TF_BITS = 32  # postings are packed as doc << 32 | tf while building
_TF_MASK = (1 << _TF_BITS) - 1


def _postings(docs, first: int = 0):
    """Per field: term -> [doc << 32 | tf, ...] (docs ascending, numbered from
    *first*), and the field lengths."""
    post = [dict() for _ in FIELDS]
    lengths = [[] for _ in FIELDS]
    for d, doc in enumerate(docs, first):
        base = d << _TF_BITS
        for fi, field in enumerate(FIELDS):
            text = doc.get(field)
            if not text:  # records have no aliases or headings: skip the pipeline
                lengths[fi].append(0)
                continue
            terms = analyze(text)
            lengths[fi].append(len(terms))
            counts: dict[str, int] = {}
            _count_elements(counts, terms)  # Counter's C core, without its per-call overhead
            pf = post[fi]
            for term, tf in counts.items():
                try:
                    pf[term].append(base | tf)
                except KeyError:
                    pf[term] = [base | tf]
    return post, lengths


def _postings_part(docs, span):
    return _postings(docs[span[0]:span[1]], span[0])


def _all_postings(docs, parallel: bool):
    """_postings of all docs, the docs split into contiguous runs of about equal
    text over the cores; concatenating the runs' lists in order keeps every list
    ascending."""
    k = cores() if parallel else 1
    cuts, size, total = [0], 0, sum(len(d.get("body") or "") + 64 for d in docs)
    for i, doc in enumerate(docs):
        size += len(doc.get("body") or "") + 64  # 64: a doc's other fields, roughly
        if size * k >= total * len(cuts) and len(cuts) < k:
            cuts.append(i + 1)
    spans = list(zip(cuts, cuts[1:] + [len(docs)]))
    parts = fork_each(_postings_part, spans, docs, parallel)
    post, lengths = parts[0]
    for more, more_lengths in parts[1:]:
        for pf, mf in zip(post, more):
            for term, packed in mf.items():
                have = pf.get(term)
                if have is None:
                    pf[term] = packed
                else:
                    have.extend(packed)
        for ls, ml in zip(lengths, more_lengths):
            ls.extend(ml)
    return post, lengths


def _milli(idf, packed, norm, boost):
    """lunr's field weight, rounded to 3 decimals, as an int of thousandths."""
    k1p1, m, sh = K1 + 1, _TF_MASK, _TF_BITS
    # Same expression order as lunr's createFieldVectors, for exact rounding;
    # round(x * 1000) equals round(x, 3) * 1000 unless x * 1000 sits near .5.
    ks = [r if abs((y := idf * (k1p1 * (tf := v & m)) / (norm[v >> sh] + tf) * boost
                    * 1000) - (r := round(y))) <= 0.49 else -1
          for v in packed]
    if -1 in ks:
        for i, v in enumerate(packed):
            if ks[i] == -1:
                tf = v & m
                x = idf * (k1p1 * tf) / (norm[v >> sh] + tf) * boost
                ks[i] = round(round(x, 3) * 1000)
    return ks


def _term_weights(post, norms, n, term):
    """(doc ids ascending, summed per-field weights in thousandths) of one term."""
    sh = _TF_BITS
    parts = [(fi, pf[term]) for fi, pf in enumerate(post) if term in pf]
    df = sum(len(p) for _, p in parts)  # lunr counts (doc, field) pairs
    x = (n - df + 0.5) / (df + 0.5)
    idf = math.log(1 + abs(x))
    if len(parts) == 1:
        fi, packed = parts[0]
        return ([v >> sh for v in packed],
                _milli(idf, packed, norms[fi], FIELD_BOOSTS[FIELDS[fi]]))
    parts.sort(key=lambda p: -len(p[1]))  # seed the sum with the longest
    acc: dict[int, int] = {}
    for fi, packed in parts:
        ks = _milli(idf, packed, norms[fi], FIELD_BOOSTS[FIELDS[fi]])
        if not acc:
            acc = dict(zip([v >> sh for v in packed], ks))
            continue
        for v, k in zip(packed, ks):
            d = v >> sh
            acc[d] = acc.get(d, 0) + k
    ids = sorted(acc)
    return ids, [acc[d] for d in ids]


def _term_entry(state, term):
    """(postings, [doc id gaps, weights], shard hash) of one term."""
    ids, ks = _term_weights(*state, term)
    return len(ids), [[ids[0]] + [b - a for a, b in zip(ids, ids[1:])], ks], fnv1a(term)


def _entries(docs, parallel: bool = False):
    """term (sorted) -> _entries_part's triple, and the average field lengths.
    With *parallel*, forked workers share the postings and take every k-th term."""
    n = len(docs)
    post, lengths = _all_postings(docs, parallel)
    avgs = [sum(ls) / n if n else 0.0 for ls in lengths]
    norms = [[K1 * (1 - B + B * (ln / avg)) if ln else 0.0 for ln in ls]
             for ls, avg in zip(lengths, avgs)]
    # A lone surrogate is not valid UTF-8 (only from broken input), unreachable from JS.
    terms = [t for t in sorted(set().union(*post)) if not _LONE_SURROGATE.search(t)]
    entries = fork_each(_term_entry, terms, (post, norms, n), parallel)
    return dict(zip(terms, entries)), avgs


def _group_runs(docs) -> list[list]:
    """[[group, count], ...]: runs of equal `group` (default "") in doc id order."""
    runs: list[list] = []
    for doc in docs:
        g = str(doc.get("group") or "")
        if runs and runs[-1][0] == g:
            runs[-1][1] += 1
        else:
            runs.append([g, 1])
    return runs


PARALLEL_DOCS = 5000  # fewer docs are indexed faster than workers start


def index_files(docs) -> dict[str, bytes]:
    """The index of *docs* (dicts with ref/title/aliases/headings/body,
    optionally group): {relative path: bytes}. Bytes depend only on docs."""
    docs = sorted(docs, key=itemgetter("ref"))
    refs = [str(doc["ref"]) for doc in docs]
    if len(set(refs)) != len(refs):
        raise ValueError("duplicate refs in index input")
    parallel = len(docs) > PARALLEL_DOCS
    weights, avgs = _entries(docs, parallel)
    total = sum(count for count, _, _ in weights.values())
    est = total * 8 + sum(len(t) + 8 for t in weights)
    shards = 1
    while shards * SHARD_TARGET < est:
        shards *= 2

    files: dict[str, object] = {}
    tables: list[dict] = [dict() for _ in range(shards)]
    nbig = 0
    for term, (count, entry, h) in weights.items():  # sorted: big numbers are stable
        if count > BIG_POSTINGS:
            files[f"b/{nbig}.json"] = entry
            entry = nbig
            nbig += 1
        tables[h & (shards - 1)][term] = entry
    for i, table in enumerate(tables):
        files[f"t/{i}.json"] = table
    nchunks = (len(refs) + REF_CHUNK - 1) // REF_CHUNK
    for i in range(nchunks):
        files[f"r/{i}.json"] = refs[i * REF_CHUNK:(i + 1) * REF_CHUNK]
    files["meta.json"] = {
        "format": FORMAT, "docs": len(refs), "fields": list(FIELDS),
        "boosts": FIELD_BOOSTS, "k1": K1, "b": B,
        "avgFieldLength": dict(zip(FIELDS, avgs)), "terms": len(weights),
        "postings": total, "shards": shards, "big": nbig,
        "refChunk": REF_CHUNK, "refChunks": nchunks, "groups": _group_runs(docs),
    }
    names = sorted(files)
    return dict(zip(names, fork_each(_dump_file, names, files, parallel)))


def _dump_file(files, rel):
    return _dumps(files[rel])


def fork_each(fn, items: list, state, parallel: bool) -> list:
    """[fn(state, item) for item in items], the items dealt over forked workers
    (builder.parallel.fork_map) in one job per core rather than one per item."""
    k = max(1, min(cores() if parallel else 1, len(items)))
    parts = fork_map(_each, [(fn, items[i::k]) for i in range(k)], state, parallel=parallel)
    return [parts[i % k][i // k] for i in range(len(items))]


def _each(state, job):
    fn, items = job
    return [fn(state, item) for item in items]


def write_index(docs, out_dir) -> list[str]:
    """Write index_files(docs) under *out_dir*; return the written paths."""
    files = index_files(docs)
    out = Path(out_dir)
    for sub in ("t", "b", "r"):  # drop files of a previous, larger index
        d = out / sub
        if d.is_dir():
            for f in d.glob("*.json"):
                if f"{sub}/{f.name}" not in files:
                    f.unlink()
        d.mkdir(parents=True, exist_ok=True)
    written = []
    for rel, data in files.items():
        path = out / rel
        path.write_bytes(data)
        written.append(str(path))
    return written


from .reader import IndexReader  # noqa: E402  (re-export; reader imports this module)
