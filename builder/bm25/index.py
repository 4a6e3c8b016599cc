"""Sharded BM25 index writer (format bf-lunr-6, see FORMAT.md; readers: reader.py here and
site/engine/bm25/).

Postings hold integers only — per field, doc id gaps and term frequencies — and the field
lengths are per document, in l/ files, so nothing corpus-wide (document count, document
frequency, average lengths) nor a document's length is baked into them: readers compute BM25 at
query time from those and meta.json's totals, with arithmetic both runtimes evaluate identically
(scoring.py). A one-note edit therefore changes only the postings of the terms whose frequency
it changed, its l/ file and meta.json.
"""
from __future__ import annotations

import json
import re
from operator import itemgetter
from pathlib import Path

from ..kernel.packs import pack, packed_name
from ..kernel.parallel import cores, fork_each
from .pipeline import WordMemo, name_key, term_counts
from .scoring import FIELDS, FORMAT, PARAMS, fnv1a

FIELD_BOOSTS = {f: PARAMS[f]["boost"] for f in FIELDS}
WEIGHTS = {f: PARAMS[f].get("weights", (1,)) for f in FIELDS}
REF_CHUNK = 250           # refs per r/N.json: ~3 KB packed, a search reads those of what it shows
CONV_CHUNK = 5000         # conversation numbers per c/N.json, and owner offsets per o/N.json
LENGTH_CHUNK = 2000       # docs' field lengths per l/N.json: ~3.5 KB packed, a search reads its postings' ones
ID = 24                   # a posting entry while indexing is doc << ID | tf
SHARD_TARGET = 256 * 1024  # aimed JSON bytes per t/N.json and n/N.json: ~64 KB as a gzip pack (SPEC §11 caps files)
BIG_POSTINGS = 2000       # a term with more postings gets its own b/N.json
_MASK = (1 << ID) - 1     # lengths and frequencies are capped at 16,777,215
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # only from broken input

__all__ = ["FIELD_BOOSTS", "FORMAT", "index_files", "write_index", "fnv1a"]


def _dumps(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"),
                      sort_keys=True).encode("utf-8")


# a field with b = 0 ignores length: l/ files leave it out
KEEPS_LENGTH = [PARAMS[f]["b"] != 0 for f in FIELDS]


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
    """Per field: term -> [doc << ID | tf, ...] (docs ascending, numbered from *first*); the
    fields' total lengths; each doc's lengths()."""
    post = [dict() for _ in FIELDS]
    totals = [0] * len(FIELDS)
    lens = []
    for d, doc in enumerate(docs, first):
        counts = field_counts(doc, memo)
        lens.append(lengths(counts))
        at = d << ID
        for fi, (tfs, n) in enumerate(counts):
            if not n:
                continue
            totals[fi] += n
            pf = post[fi]
            for term, tf in tfs.items():
                entry = at | min(tf, _MASK)
                try:
                    pf[term].append(entry)
                except KeyError:
                    pf[term] = [entry]
    return post, totals, lens


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


def _all_postings(docs, parallel: bool, memo: WordMemo):
    """_postings of all docs, the docs split into contiguous runs of about equal text over the
    cores; concatenating the runs' lists in order keeps every list ascending."""
    k = cores() if parallel else 1
    cuts, size, total = [0], 0, sum(len(d.get("body") or "") + 64 for d in docs)
    for i, doc in enumerate(docs):
        size += len(doc.get("body") or "") + 64  # 64: a doc's other fields, roughly
        if size * k >= total * len(cuts) and len(cuts) < k:
            cuts.append(i + 1)
    spans = list(zip(cuts, cuts[1:] + [len(docs)]))
    parts = fork_each(_postings_part, spans, (docs, memo), parallel)
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
        out.append([fi, [ids[0]] + [b - a for a, b in zip(ids, ids[1:])], [e & _MASK for e in entries]])
        count += len(entries)
    return count, out, fnv1a(term)


def _names(docs, memo: WordMemo, keys: dict[str, str] | None = None) -> dict[str, list[int]]:
    """name key -> doc ids (ascending) of the documents naming it (their `names`); `keys`: name ->
    its key, kept by the caller across indexes (a name is analysed once)."""
    keys = {} if keys is None else keys
    out: dict[str, list[int]] = {}
    for d, doc in enumerate(docs):
        names = doc.get("names")
        if not names:
            continue
        found = set()
        for n in names:
            key = keys.get(n)
            if key is None:
                key = keys[n] = name_key(n, memo)
            found.add(key)
        for key in sorted(found - {""}):
            if not _LONE_SURROGATE.search(key):
                out.setdefault(key, []).append(d)
    return out


def _owner_offsets(docs, refs: list[str]) -> list[int]:
    """Each doc id minus its owner's: a section (a doc of group "" whose ref holds "#") ranks as
    its note, the doc of the ref before "#"; every other doc owns itself (0). Relative, so an
    insertion elsewhere leaves them as they were."""
    at = {ref: i for i, ref in enumerate(refs)}
    out = [0] * len(refs)
    for i, (doc, ref) in enumerate(zip(docs, refs)):
        note = ref.partition("#")[0]
        if note != ref and not doc.get("group") and note in at:
            out[i] = i - at[note]
    return out


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


def _shards_for(est: int) -> int:
    shards = 1
    while shards * SHARD_TARGET < est:
        shards *= 2
    return shards


PARALLEL_DOCS = 5000  # fewer docs are indexed faster than workers start


def index_files(docs, state=None) -> dict[str, bytes]:
    """The index of *docs* (dicts with ref/title/aliases/headings/body, optionally group, names,
    neighbours — a list per distance of texts — and conversation, a number ≥ 1):
    {relative path: bytes}. Bytes depend only on docs. With a `state` (update.IndexState, the
    build state of a previous index), only what the changed documents touch is recomputed."""
    docs = sorted(docs, key=itemgetter("ref"))
    refs = [str(doc["ref"]) for doc in docs]
    if len(set(refs)) != len(refs):
        raise ValueError("duplicate refs in index input")
    if state is not None and state.refs is not None:
        return state.update(docs, refs)
    parallel = len(docs) > PARALLEL_DOCS
    memo = WordMemo()   # this index's words, analysed once each (workers fork a copy)
    post, totals, lens = _all_postings(docs, parallel, memo)
    # A lone surrogate is not valid UTF-8 (only from broken input), unreachable from JS.
    terms = [t for t in sorted(set().union(*post)) if not _LONE_SURROGATE.search(t)]
    weights = dict(zip(terms, fork_each(_term_entry, terms, post, parallel)))
    files = layout(docs, refs, totals, lens, weights, memo)
    names_ = sorted(files)
    stored = dict(zip(map(stored_name, names_), fork_each(dump_file, names_, files, parallel)))
    if state is not None:
        state.keep(docs, refs, post, totals, lens, weights, files, stored, memo)
    return stored


def layout(docs, refs, totals, lens, weights, memo: WordMemo) -> dict[str, object]:
    """{relative path: JSON value} of the index whose term entries are `weights` (term →
    _term_entry, in term order) and docs' lengths `lens`; `memo`: the index's analysed words."""
    plan = term_plan(weights)
    files = term_files(weights, *plan)
    per_doc, groups = doc_files(docs, refs, lens, memo)
    files.update(per_doc)
    files["meta.json"] = meta(refs, totals, weights, plan, files, groups)
    return files


def term_plan(weights) -> tuple[int, dict[str, int]]:
    """(number of term shards, big term → its b/ file number) for the term entries `weights`."""
    # a shard holds its terms and their postings, except those of big terms (in b/ files)
    shards = _shards_for(sum(count * 9 for count, _, _ in weights.values() if count <= BIG_POSTINGS)
                         + sum(len(t) + 8 for t in weights))
    big: dict[str, int] = {}
    for term, (count, _, _) in weights.items():  # sorted: big numbers are stable
        if count > BIG_POSTINGS:
            big[term] = len(big)
    return shards, big


def term_files(weights, shards: int, big: dict[str, int]) -> dict[str, object]:
    """The t/ and b/ files of the term entries `weights` laid out by term_plan."""
    files: dict[str, object] = {}
    tables: list[dict] = [dict() for _ in range(shards)]
    for term, (_, entry, h) in weights.items():
        k = big.get(term)
        if k is not None:
            files[f"b/{k}.json"] = entry
            entry = k
        tables[h & (shards - 1)][term] = entry
    for i, table in enumerate(tables):
        files[f"t/{i}.json"] = table
    return files


def doc_files(docs, refs, lens, memo: WordMemo, keys: dict[str, str] | None = None) -> tuple[dict[str, object], list]:
    """The n/, r/, c/, o/ and l/ files (what the index holds per document beside its postings)
    and the group runs; `keys` as for _names."""
    files: dict[str, object] = {}
    names = _names(docs, memo, keys)
    nshards = _shards_for(sum(len(k) + 8 * len(v) + 4 for k, v in names.items()))
    name_tables: list[dict] = [dict() for _ in range(nshards)]
    for key, ids in names.items():
        name_tables[fnv1a(key) & (nshards - 1)][key] = ids
    for i, table in enumerate(name_tables):
        files[f"n/{i}.json"] = table
    for i in range(0, len(refs), REF_CHUNK):
        files[f"r/{i // REF_CHUNK}.json"] = refs[i:i + REF_CHUNK]
    convs = [int(doc.get("conversation") or 0) for doc in docs]
    owners = _owner_offsets(docs, refs)
    for i in range(0, len(convs), CONV_CHUNK):
        files[f"c/{i // CONV_CHUNK}.json"] = convs[i:i + CONV_CHUNK]
        files[f"o/{i // CONV_CHUNK}.json"] = owners[i:i + CONV_CHUNK]
    for i in range(0, len(lens), LENGTH_CHUNK):
        files[f"l/{i // LENGTH_CHUNK}.json"] = length_chunk(lens, i // LENGTH_CHUNK)
    return files, _group_runs(docs)


def length_file(d: int) -> str:
    """The l/ file holding doc id `d`'s lengths."""
    return f"l/{d // LENGTH_CHUNK}.json"


def length_chunk(lens, k: int) -> list[list[int]]:
    """l/K.json: per field, the lengths of docs K * LENGTH_CHUNK …, [] for a field with b = 0."""
    part = lens[k * LENGTH_CHUNK:(k + 1) * LENGTH_CHUNK]
    return [[row[fi] for row in part] if keep else [] for fi, keep in enumerate(KEEPS_LENGTH)]


def meta(refs, totals, weights, plan: tuple[int, dict], files: dict, groups: list) -> dict:
    """meta.json of the index of `weights` laid out by `plan`, whose other `files` and `groups`
    are made."""
    return {
        "format": FORMAT, "docs": len(refs), "fields": list(FIELDS),
        "params": {f: PARAMS[f] for f in FIELDS}, "named": ["title", "aliases"],
        "lengths": dict(zip(FIELDS, totals)), "terms": len(weights),
        "postings": sum(count for count, _, _ in weights.values()), "shards": plan[0], "big": len(plan[1]),
        "names": sum(rel.startswith("n/") for rel in files), "refChunk": REF_CHUNK,
        "refChunks": -(-len(refs) // REF_CHUNK), "convChunk": CONV_CHUNK, "convChunks": -(-len(refs) // CONV_CHUNK),
        "lengthChunk": LENGTH_CHUNK, "lengthChunks": -(-len(refs) // LENGTH_CHUNK), "groups": groups,
    }


def stored_name(rel: str) -> str:
    return rel if rel == "meta.json" else packed_name(rel)


def dump_file(files, rel):
    """meta.json as JSON, every other file a pack (builder/packs.py), compressed in the workers."""
    return _dumps(files[rel]) if rel == "meta.json" else pack(_dumps(files[rel]))


def write_index(docs, out_dir) -> list[str]:
    """Write index_files(docs) under *out_dir*; return the written paths."""
    files = index_files(docs)
    out = Path(out_dir)
    for sub in ("t", "b", "r", "n", "c", "o", "l"):  # drop files of a previous, larger index
        d = out / sub
        if d.is_dir():
            for f in d.glob("*.json*"):
                if f"{sub}/{f.name}" not in files:
                    f.unlink()
        d.mkdir(parents=True, exist_ok=True)
    written = []
    for rel, data in files.items():
        path = out / rel
        path.write_bytes(data)
        written.append(str(path))
    return written
