"""Where the index's values go (format bf-lunr-6, see FORMAT.md): each term's entry in its shard
or its own b/ file, and what the index holds per document beside its postings — name keys,
refs, conversation numbers, owner offsets, field lengths — in n/, r/, c/, o/ and l/ files, and
meta.json. index.py lays out a whole index; update.py only the files an edit changes.
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
