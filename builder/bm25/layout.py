"""Where the index's values go (format bf-lunr-7, see FORMAT.md): each document's id (arrange),
each term's entry in its shard or its own b/ file, and what the index holds per document beside
its postings — name keys, refs, conversation numbers, owner offsets, field lengths — in n/, r/,
c/, o/ and l/ files, and meta.json. index.py lays out a whole index; update.py only the files an
edit changes.
"""
from __future__ import annotations

import re

from .pipeline import WordMemo, name_key
from .scoring import FIELDS, FORMAT, PARAMS, fnv1a

REF_CHUNK = 250           # refs per r/N.json: ~3 KB packed, a search reads those of what it shows
CONV_CHUNK = 5000         # conversation numbers per c/N.json, and owner offsets per o/N.json
LENGTH_CHUNK = 2000       # docs' field lengths per l/N.json: ~3.5 KB packed, a search reads its postings' ones
SHARD_TARGET = 256 * 1024  # aimed JSON bytes per t/N.json and n/N.json: ~64 KB as a gzip pack (SPEC §11 caps files)
BIG_POSTINGS = 2000       # a term with more postings gets its own b/N.json
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # only from broken input
# a field with b = 0 ignores length: l/ files leave it out
KEEPS_LENGTH = [PARAMS[f]["b"] != 0 for f in FIELDS]


def room(n: int) -> int:
    """The ids a group of `n` documents takes: n, an eighth more and 64, rounded up to a
    sixteenth of that (at least 64). A function of n alone, so a full build numbers alike; it
    steps only every ~n/18 documents added, so a group's growth seldom moves a later group."""
    want = n + n // 8 + 64
    q = 1 << max(6, want.bit_length() - 4)
    return -(-want // q) * q


def arrange(docs) -> list:
    """The documents (any order) by doc id, None at an unused id (FORMAT.md, Documents): group
    "" (notes and sections) first, then each group by name; in a group, ref order; group k
    starts where group k-1 did plus room(its count), so a document added at the end of its
    group, or any change in a later one, moves no id of another group."""
    docs = sorted(docs, key=lambda doc: (str(doc.get("group") or ""), doc["ref"]))
    slots: list = []
    i = 0
    while i < len(docs):
        group, j = str(docs[i].get("group") or ""), i + 1
        while j < len(docs) and str(docs[j].get("group") or "") == group:
            j += 1
        if slots:
            slots += [None] * (room(count) - count)
        slots += docs[i:j]
        count, i = j - i, j
    return slots


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
    and the group spans, of `docs` by doc id (arrange: None at an unused id, likewise in `refs`
    and `lens`); `keys` as for _names. A chunk of unused ids only is no file: no posting reaches it."""
    files: dict[str, object] = {}
    names = _names(docs, memo, keys)
    nshards = _shards_for(sum(len(k) + 8 * len(v) + 4 for k, v in names.items()))
    name_tables: list[dict] = [dict() for _ in range(nshards)]
    for key, ids in names.items():
        name_tables[fnv1a(key) & (nshards - 1)][key] = ids
    for i, table in enumerate(name_tables):
        files[f"n/{i}.json"] = table
    for i in _used(refs, REF_CHUNK):
        files[f"r/{i // REF_CHUNK}.json"] = refs[i:i + REF_CHUNK]
    convs = [int(doc.get("conversation") or 0) if doc is not None else 0 for doc in docs]
    owners = _owner_offsets(docs, refs)
    for i in _used(refs, CONV_CHUNK):
        files[f"c/{i // CONV_CHUNK}.json"] = convs[i:i + CONV_CHUNK]
        files[f"o/{i // CONV_CHUNK}.json"] = owners[i:i + CONV_CHUNK]
    for i in _used(refs, LENGTH_CHUNK):
        files[f"l/{i // LENGTH_CHUNK}.json"] = length_chunk(lens, i // LENGTH_CHUNK)
    return files, _group_spans(docs)


def _used(refs, size: int) -> list[int]:
    """The first ids of the chunks of `size` ids holding a document."""
    return [i for i in range(0, len(refs), size) if any(ref is not None for ref in refs[i:i + size])]


def length_file(d: int) -> str:
    """The l/ file holding doc id `d`'s lengths."""
    return f"l/{d // LENGTH_CHUNK}.json"


def length_chunk(lens, k: int) -> list[list[int]]:
    """l/K.json: per field, the lengths of docs K * LENGTH_CHUNK … (0 at an unused id), [] for a
    field with b = 0."""
    part = lens[k * LENGTH_CHUNK:(k + 1) * LENGTH_CHUNK]
    return [[row[fi] if row is not None else 0 for row in part] if keep else []
            for fi, keep in enumerate(KEEPS_LENGTH)]


def meta(refs, totals, weights, plan: tuple[int, dict], files: dict, groups: list) -> dict:
    """meta.json of the index of `weights` laid out by `plan`, whose other `files` and `groups`
    are made; `refs` by doc id (None at an unused id)."""
    ids = len(refs)
    return {
        "format": FORMAT, "docs": sum(count for _, _, count in groups), "ids": ids, "fields": list(FIELDS),
        "params": {f: PARAMS[f] for f in FIELDS}, "named": ["title", "aliases"],
        "lengths": dict(zip(FIELDS, totals)), "terms": len(weights),
        "postings": sum(count for count, _, _ in weights.values()), "shards": plan[0], "big": len(plan[1]),
        "names": sum(rel.startswith("n/") for rel in files), "refChunk": REF_CHUNK,
        "refChunks": -(-ids // REF_CHUNK), "convChunk": CONV_CHUNK, "convChunks": -(-ids // CONV_CHUNK),
        "lengthChunk": LENGTH_CHUNK, "lengthChunks": -(-ids // LENGTH_CHUNK), "groups": groups,
    }


def _names(docs, memo: WordMemo, keys: dict[str, str] | None = None) -> dict[str, list[int]]:
    """name key -> doc ids (ascending) of the documents naming it (their `names`); `keys`: name ->
    its key, kept by the caller across indexes (a name is analysed once)."""
    keys = {} if keys is None else keys
    out: dict[str, list[int]] = {}
    for d, doc in enumerate(docs):
        names = doc.get("names") if doc is not None else None
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
    at = {ref: i for i, ref in enumerate(refs) if ref is not None}
    out = [0] * len(refs)
    for i, (doc, ref) in enumerate(zip(docs, refs)):
        note = ref.partition("#")[0] if ref is not None else ref
        if note != ref and not doc.get("group") and note in at:
            out[i] = i - at[note]
    return out


def _group_spans(docs) -> list[list]:
    """[[group, first doc id, count], ...] of `docs` by doc id (arrange: each group's ids are
    contiguous)."""
    spans: list[list] = []
    for d, doc in enumerate(docs):
        if doc is None:
            continue
        g = str(doc.get("group") or "")
        if spans and spans[-1][0] == g:
            spans[-1][2] += 1
        else:
            spans.append([g, d, 1])
    return spans


def _shards_for(est: int) -> int:
    shards = 1
    while shards * SHARD_TARGET < est:
        shards *= 2
    return shards
