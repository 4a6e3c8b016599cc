"""Where the index's values go (format bf-lunr-11, see FORMAT.md): each document's id (arrange),
each term's entry in its shard or its own binary b/ file, and what the index holds per document beside
its postings — name keys, facets, refs, conversation numbers, owner offsets, placed instants,
field lengths — in n/, f/, r/, c/, o/, p/ and l/ files, the adjacent pairs (adjacent.py) in a/
files, and meta.json. index.py lays out a whole index; update.py only the files an
edit changes.
"""
from __future__ import annotations

import re
from bisect import bisect_left, insort
from itertools import groupby
from operator import itemgetter, methodcaller

from ..kernel.canon import canonical_json
from ..kernel.stretch import differing
from .adjacent import BUCKETS, Pairs
from .pipeline import WordMemo, name_key
from .postings import gaps, pack_big
from .scoring import FIELDS, FORMAT, PARAMS, fnv1a

REF_CHUNK = 500           # refs per r/N.json: ~6 KB packed, a search reads those of what it shows
CONV_CHUNK = 5000         # conversation numbers per c/N.json, and owner offsets per o/N.json
LENGTH_CHUNK = 5000       # docs' field lengths per l/N.json: ~9 KB packed; a ranking reads those of the hits that may rank first (blocks.py), in few requests on a phone (docs/decisions.md#search-on-a-phone-the-vectors-by-range-and-fewer-length-files)
SHARD_TARGET = 128 * 1024  # aimed JSON bytes per t/N.json and n/N.json: ~20-30 KB as a gzip pack, which a
# search reads whole for one term or name (docs/performance.md#targets caps files)
BIG_POSTINGS = 2000       # a term with more postings gets its own b/N.bin
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # only from broken input
# a field with b = 0 ignores length: l/ files leave it out
KEEPS_LENGTH = tuple(PARAMS[f]["b"] != 0 for f in FIELDS)
DEPRECATED = "deprecated"   # the facet meta.json holds (deprecated())


def room(n: int) -> int:
    """The ids a group of `n` documents takes: n, an eighth more and 64, rounded up to a
    sixteenth of that (at least 64). A function of n alone, so a full build numbers alike; it
    steps only every ~n/18 documents added, so a group's growth seldom moves a later group."""
    want = n + n // 8 + 64
    q = 1 << max(6, want.bit_length() - 4)
    return -(-want // q) * q


def arrange(docs, kept: dict | None = None) -> tuple[list, list, list]:
    """The documents (any order) by doc id, None at an unused id (FORMAT.md, Documents); their
    refs likewise; and the group spans [[group, first doc id, count], ...]. Group "" (notes and
    sections) first, then each group by name; in a group, ref order; group k starts where
    group k-1 did plus room(its count), so a document added at the end of its group, or any
    change in a later one, moves no id of another group. (Keys made and sorted at C speed: it
    runs on every build.) `kept`: the last call's (a watch build's state). A watch build keeps
    an unchanged document's dict, so only the short stretch of `docs` holding other objects
    (kernel/stretch.py) is looked at: the same keys there (a body edit) keep every id, and a
    few keys that came or went (a new record) patch the last order: no sort of every key (60k at
    10k notes). The same `docs` tuple again (the index's and the vectors' call in one build) is
    answered as it was."""
    if kept is not None and kept.get("docs") is docs:
        slots, refs, spans = kept["result"]
        return list(slots), list(refs), [list(span) for span in spans]
    patch = _patch(docs, kept)
    keys = patch[0] if patch is not None else _key_list(docs)
    if kept is not None and kept.get("keys") == keys:
        order, refs, spans, ranked = kept["order"], kept["refs"], kept["spans"], kept["ranked"]
    else:
        if patch is None:
            ranked = sorted(keys)
            at = dict(zip(keys, range(len(keys))))
        else:
            _, came, went, at = patch
            at = at()
            if len(came) + len(went) > PATCHED:
                ranked = sorted(keys)
            else:
                ranked = [key for key in kept["ranked"] if key not in went] if went else list(kept["ranked"])
                for key in came:
                    insort(ranked, key)
        order, refs, spans = [], [], []   # order: each id's index in docs (-1: unused)
        for group, run in groupby(ranked, key=itemgetter(0)):
            run = list(run)
            if spans:
                pad = room(spans[-1][2]) - spans[-1][2]
                order += [-1] * pad
                refs += [None] * pad
            spans.append([group, len(order), len(run)])
            order += map(at.__getitem__, run)
            refs += map(itemgetter(1), run)
        if kept is not None:
            kept.update(at=at)
    slots = list(map([*docs, None].__getitem__, order))   # -1: an unused id
    if kept is not None:
        kept.update(docs=tuple(docs), keys=keys, ranked=ranked, order=order, refs=refs, spans=spans, result=(slots, refs, spans))
    return list(slots), list(refs), [list(span) for span in spans]


PATCHED = 256   # keys that came or went, at most, for a patch rather than a sort
STRETCH = 8     # a stretch of at most 1/STRETCH of the documents is patched (a new chat message
                # also changes its conversation's documents: their neighbours field)


def _key_list(docs) -> list[tuple]:
    """Each document's (group, ref); group: a string (FORMAT.md)."""
    return list(zip(map(methodcaller("get", "group", ""), docs), map(str, map(itemgetter("ref"), docs))))


def _patch(docs, kept: dict | None) -> tuple | None:
    """(keys, the keys that came, those that went, key → index in docs when asked) from the last call's (in
    `kept`) and the stretch of `docs` that holds other objects than its docs, when that stretch
    is short; else None."""
    last = kept.get("docs") if kept is not None else None
    if last is None:
        return None
    head, new_end, old_end = differing(docs, last)
    if max(new_end, old_end) - head > max(PATCHED, len(docs) // STRETCH):
        return None
    old = kept["keys"]
    mine, theirs = _key_list(docs[head:new_end]), old[head:old_end]
    came, went = set(mine) - set(theirs), set(theirs) - set(mine)
    keys = old[:head] + mine + old[old_end:]

    def at() -> dict:
        if old_end < len(old):   # the docs after the stretch moved
            return dict(zip(keys, range(len(keys))))
        moved = dict(kept["at"])
        for key in theirs:
            del moved[key]
        moved.update(zip(mine, range(head, new_end)))
        return moved
    return keys, came, went, at


def layout(docs, refs, groups, totals, lens, weights, memo: WordMemo, facets: dict | None = None,
           pairs: Pairs | None = None) -> dict[str, object]:
    """{relative path: JSON value} of the index whose term entries are `weights` (term →
    _term_entry, in term order) and docs' lengths `lens`; `memo`: the index's analysed words;
    `facets`: _facets' memo and `pairs` the adjacent pairs', left holding this index's (for a
    watch build's next update)."""
    plan = term_plan(weights)
    files = term_files(weights, *plan)
    per_doc = doc_files(docs, refs, lens, memo, facets=facets)
    files.update(per_doc)
    files.update((pairs if pairs is not None else Pairs()).all(docs, memo))
    files["meta.json"] = meta(refs, totals, weights, plan, files, groups, deprecated(docs))
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
            files[big_file(k)] = entry
            entry = k
        tables[h & (shards - 1)][term] = entry
    for i, table in enumerate(tables):
        files[f"t/{i}.json"] = table
    return files


def big_file(k: int) -> str:
    """The file of big term number `k`: its posting in binary (file_bytes)."""
    return f"b/{k}.bin"


def file_bytes(rel: str, value) -> bytes:
    """An index file's bytes before packing: a big posting in binary (postings.pack_big,
    FORMAT.md#big-postings), any other file as JSON."""
    return pack_big(value) if rel.startswith("b/") else canonical_json(value)


PER_DOC_DIRS = ("n/", "f/", "r/", "c/", "o/", "p/", "l/")


def doc_files(docs, refs, lens, memo: WordMemo, keys: dict[str, str] | None = None,
              since: tuple | None = None, facets: dict | None = None) -> dict[str, object]:
    """The n/, f/, r/, c/, o/, p/ and l/ files (what the index holds per document beside its
    postings) of `docs` by doc id (arrange: None at an unused id, likewise in `refs`
    and `lens`); `keys` as for _names. A chunk of unused ids only is no file: no posting reaches
    it. `since`: (the last index's files, the ids whose document changed, whether a name may
    have, whether facets may have) when no other document's id moved: the other chunks are the
    last index's; `facets`: _facets' memo."""
    if since is None:
        files: dict[str, object] = {}
    else:
        old, changed, named, faceted = since
        files = {rel: value for rel, value in old.items() if rel[:2] in PER_DOC_DIRS
                 and (rel[0] != "n" or not named) and (rel[0] != "f" or not faceted)}
    if since is None or named:
        files.update(_tables("n", _names(docs, memo, keys), lambda ids: ids))
    if since is None or faceted:
        ids_of = _facets(docs, facets, since[1] if since is not None else None)
        files.update(_tables("f", ids_of, gaps))
    notes = _notes_end(docs)
    for kind, size, make in (
            ("r", REF_CHUNK, lambda i: refs[i:i + REF_CHUNK]),
            ("c", CONV_CHUNK, lambda i: [int(doc.get("conversation") or 0) if doc is not None else 0
                                         for doc in docs[i:i + CONV_CHUNK]]),
            ("o", CONV_CHUNK, lambda i: _owner_offsets(docs, refs, i, notes)),
            ("p", CONV_CHUNK, lambda i: _steps([doc.get("placed") if doc is not None else None for doc in docs[i:i + CONV_CHUNK]])),
            ("l", LENGTH_CHUNK, lambda i: length_chunk(lens, i // LENGTH_CHUNK))):
        starts = range(0, len(refs), size) if since is None else sorted({d // size * size for d in changed})
        for i in starts:
            rel = f"{kind}/{i // size}.json"
            if any(ref is not None for ref in refs[i:i + size]):
                files[rel] = make(i)
            else:
                files.pop(rel, None)
    return files


def _tables(kind: str, ids_of: dict[str, list[int]], encode) -> dict[str, dict]:
    """KIND/N.json shards of key → encode(its doc ids), key in shard fnv1a(key) & (shards - 1)."""
    shards = _shards_for(sum(len(k) + 8 * len(v) + 4 for k, v in ids_of.items()))
    tables: list[dict] = [dict() for _ in range(shards)]
    for key, ids in ids_of.items():
        tables[fnv1a(key) & (shards - 1)][key] = encode(ids)
    return {f"{kind}/{i}.json": table for i, table in enumerate(tables)}


def _facets(docs, memo: dict | None = None, changed=None) -> dict[str, list[int]]:
    """facet key -> the ids (ascending) of the documents holding it (their `facets`), but
    `deprecated`: meta.json holds it (deprecated()). `memo`: the last call's (a watch build's
    index state), left holding this one's; with `changed`, the ids whose document changed
    (no other id moved), only those are looked at."""
    memo = {} if memo is None else memo
    if changed is None or "ids" not in memo:
        out, by_doc = {}, {}
        for d, doc in enumerate(docs):
            keys = _keys_of(doc)
            if keys:
                by_doc[d] = keys
                for key in keys:
                    out.setdefault(key, []).append(d)
    else:
        out, by_doc, mine = dict(memo["ids"]), dict(memo["by_doc"]), set()
        for d in sorted(changed):
            old, new = by_doc.pop(d, ()), _keys_of(docs[d] if d < len(docs) else None)
            if new:
                by_doc[d] = new
            for key in set(old) ^ set(new):
                if key not in mine:   # the last call's lists are shared: copy before a change
                    out[key], _ = list(out.get(key, ())), mine.add(key)
                if key in old:
                    out[key].remove(d)
                else:
                    insort(out[key], d)
        out = {key: ids for key, ids in out.items() if ids}
    memo.update(ids=out, by_doc=by_doc)
    return out


def _keys_of(doc) -> tuple[str, ...]:
    """A document's facet keys that go in f/ files."""
    return tuple(key for key in (doc.get("facets") or () if doc is not None else ())
                 if key != DEPRECATED and not _LONE_SURROGATE.search(key))


def deprecated(docs) -> list[int]:
    """The ids of the documents with facet `deprecated`: every ranking reads it (a deprecated
    note ranks last), and they are few, so meta.json holds them rather than an f/ shard."""
    return [d for d, doc in enumerate(docs) if doc is not None and DEPRECATED in (doc.get("facets") or ())]


def _steps(instants: list[int | None]) -> list[int | None]:
    """A p/ chunk: each instant minus the chunk's last one before it (the first as is), None
    kept: a source's records follow their times, so the steps are small and pack ~18% smaller."""
    out, last = [], 0
    for t in instants:
        out.append(None if t is None else t - last)
        last = last if t is None else t
    return out


def length_file(d: int) -> str:
    """The l/ file holding doc id `d`'s lengths."""
    return f"l/{d // LENGTH_CHUNK}.json"


def length_chunk(lens, k: int) -> list[list[int]]:
    """l/K.json: per field, the lengths of docs K * LENGTH_CHUNK … (0 at an unused id), [] for a
    field with b = 0."""
    part = lens[k * LENGTH_CHUNK:(k + 1) * LENGTH_CHUNK]
    return [[row[fi] if row is not None else 0 for row in part] if keep else []
            for fi, keep in enumerate(KEEPS_LENGTH)]


def meta(refs, totals, weights, plan: tuple[int, dict], files: dict, groups: list, gone: list[int]) -> dict:
    """meta.json of the index of `weights` laid out by `plan`, whose other `files` and `groups`
    are made; `refs` by doc id (None at an unused id); `gone`: deprecated()."""
    ids = len(refs)
    return {
        "format": FORMAT, "docs": sum(count for _, _, count in groups), "ids": ids, "fields": list(FIELDS),
        "params": {f: PARAMS[f] for f in FIELDS}, "named": ["title", "aliases"],
        "lengths": dict(zip(FIELDS, totals)), "terms": len(weights),
        "postings": sum(count for count, _, _ in weights.values()), "shards": plan[0], "big": len(plan[1]),
        "names": sum(rel.startswith("n/") for rel in files), "facets": sum(rel.startswith("f/") for rel in files),
        "adjacent": sum(rel.startswith("a/") for rel in files), "pairBuckets": BUCKETS,
        "refChunk": REF_CHUNK,
        "refChunks": -(-ids // REF_CHUNK), "convChunk": CONV_CHUNK, "convChunks": -(-ids // CONV_CHUNK),
        "lengthChunk": LENGTH_CHUNK, "lengthChunks": -(-ids // LENGTH_CHUNK), "groups": groups, "deprecated": gone,
        "lengthFloors": [length_floors(files.get(f"l/{k}.json")) for k in range(-(-ids // LENGTH_CHUNK))],
    }


def length_floors(chunk) -> list[int]:
    """Per field, the least length above 0 in the l/ file `chunk` (0 when none, or no file): a
    doc holding a term in a field is at least this long there, so a reader bounds the chunk's
    BM25 without reading it (FORMAT.md#block-bounds)."""
    return [min((n for n in column if n), default=0) for column in chunk or [[] for _ in FIELDS]]


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


def _notes_end(docs) -> int:
    """The end of group "" (notes and sections): arrange puts it first."""
    return next((d for d, doc in enumerate(docs) if doc is None or doc.get("group")), len(docs))


def _owner_offsets(docs, refs: list, first: int, notes: int) -> list[int]:
    """Each doc id of the chunk from `first` (CONV_CHUNK ids) minus its owner's: a section (a
    doc of group "" whose ref holds "#") ranks as its note, the doc of the ref before "#",
    found by bisection of group "" (ids 0 .. `notes`, in ref order); every other doc owns
    itself (0). Relative, so an insertion elsewhere leaves them as they were."""
    out = []
    for d in range(first, min(first + CONV_CHUNK, len(refs))):
        ref = refs[d]
        note = ref.partition("#")[0] if d < notes else ref
        at = bisect_left(refs, note, 0, notes) if note != ref else notes
        out.append(d - at if at < notes and refs[at] == note else 0)
    return out


def _shards_for(est: int) -> int:
    shards = 1
    while shards * SHARD_TARGET < est:
        shards *= 2
    return shards
