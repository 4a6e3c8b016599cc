"""Write the vector arm's files (docs/replies.md#the-reply, `arms`); `bf build --no-embeddings` writes none of them.

  _bf/vectors/table.json       {format, dims, rows, shard, pieces: [initial, continuing]}
  _bf/vectors/v/K.json.gz      [[token…], [id gaps…]]: the vocabulary's tokens of shard K
                               (vectors/wordpiece.py shard_of), in id order, each id the last
                               one's plus its gap (the first's: from 0)
  _bf/vectors/t/K.bin.gz       rows [K·shard, (K+1)·shard) of the package's int8 token table:
                               the browser fetches only the shards of its query's tokens
  _bf/search/BRAIN/vectors/meta.json
                               {format, dims, groups: [[group, first doc id, count, buckets,
                                listable]…], mean, fixed: bytes, related: packs}
  _bf/search/BRAIN/vectors/N/c.bin.gz
                               the int8 vectors (dims bytes each) of group N's bucket centres
                               (vectors/buckets.py), in bucket order
  _bf/search/BRAIN/vectors/N/B.bin.gz
                               the docs of group N's bucket B the arm may list, in doc id order
                               (the lunr index's ids: docs sorted by ref): their offsets in the
                               group (uint32 little-endian), then their int8 vectors stored column
                               by column (every doc's first component, then…)
  _bf/search/BRAIN/vectors/N/rows.bin
                               the int8 vectors of group N's docs one after another (doc i of the
                               group at i·dims), not packed: a search reads the rows of its
                               lexical candidates alone, by Range requests of dims bytes each
  _bf/search/BRAIN/vectors/weights.json.gz
                               [[id gaps…], [sixteenths…]]: the brain's token weights
                               (vectors/weights.py), the tokens that weigh less than 16
                               sixteenths in id order, each id the last one's plus its gap (the
                               first's: from 0); a query's vector weighs its tokens by them
  _bf/search/BRAIN/vectors/related/K.json.gz
                               {NOTE_REF: [[REF, TITLE]…]}: each note's related notes
                               (vectors/related.py), for the "Related" list of its page
                               (site/related.js); K = refs.pack_of(NOTE_REF, meta's `related`)
A group is a run of an index group's docs (records: their source), so a search scoped to a
source reads only that source's files; `listable` counts its docs the arm may list (a non-zero
vector, not a section); `mean` is the integer mean the buckets are centred on; `fixed` is the
packed bytes of every c file, which a search adding the arm's own candidates unscoped reads
before any bucket. A search reads the rows of its lexical candidates (dims bytes each, asked at
once: docs/decisions.md#search-on-a-phone-the-vectors-by-range-and-fewer-length-files) and, when
the arm adds its own, the PROBE buckets nearest its query (query/vectorstore.py): ~5 KB each, so
its first download stays small at 60,000 docs instead of every vector. Every other .bin file is a pack (kernel/packs.py:
gzip, which the browser inflates), as the rows compress to ~57%: the first component, the
tokens' common direction, is nearly always ±127 and the others are small. Sections are never the vector arm's own candidates (one item per note, as lexical
search gives), so no bucket holds one; a bucket's offsets change only when docs are added or
removed before its own in the group (a new record, sorting last in its source, moves none).
"""
from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import lru_cache

from .. import vectors
from ..bm25.layout import arrange
from ..kernel.formats import VECTORS_FORMAT
from ..kernel.canon import canonical_json
from ..kernel.packs import packed_name
from ..kernel.parallel import SERIAL, Spread
from ..kernel.refs import escape_segment
from ..kernel.text import preview_title
from ..vectors.buckets import buckets
from ..vectors.related import related
from ..vectors.rows import begin_rows, doc_rows
from ..vectors.wordpiece import CONTINUING, INITIAL, shard_of
from .hashpacks import HashedPacks
from .stage import IndexContext, SiteContext, Stage, paths
from .writer import Writer

SHARD = 128  # rows per table file: a query reads one per token, ~12 KB packed


def table_dir() -> str:
    return "_bf/vectors"


def brain_dir(brain: str) -> str:
    return f"_bf/search/{escape_segment(brain)}/vectors"


def emit_table(writer: Writer, digests: dict | None = None) -> None:
    """The token table (builder/vectors) as site files; `digests`: the token table stage's memo
    (_write_files)."""
    meta = vectors.meta()
    writer.write_json(f"{table_dir()}/table.json", {"format": VECTORS_FORMAT, "dims": meta["dims"], "rows": meta["rows"],
                                                    "shard": SHARD, "pieces": [INITIAL, CONTINUING]}, "vectors")
    _write_files(writer, _table_files(), "vectors", {} if digests is None else digests)


@lru_cache(maxsize=1)
def _table_files() -> list[tuple[str, bytes]]:
    # the rows' bytes as they are (no numpy: the build's own process would import it for this alone)
    raw, meta = vectors.table_bytes(), vectors.meta()
    dims = meta["dims"]
    return ([(f"{table_dir()}/v/{k}.json", data) for k, data in enumerate(_vocab_shards())]
            + [(f"{table_dir()}/t/{k // SHARD}.bin", raw[k * dims:(k + SHARD) * dims]) for k in range(0, meta["rows"], SHARD)])


def _write_files(writer: Writer, files: list[tuple[str, bytes]], owner: str, digests: dict) -> list[str]:
    """write_pack each (path, bytes) of `files`; one whose bytes are those it had in the last
    build (`digests`: path → (bytes, packed digest), left holding this build's) is kept from
    the previous site (Writer.keep) without packing or hashing it again: a watch rebuild has
    thousands of unchanged vector files. The others are compressed together, in threads.
    Returns the packed paths."""
    paths, todo = [], []
    for path, data in files:
        packed, old = packed_name(path), digests.get(path)
        if old is None or (old[0] is not data and old[0] != data) or not writer.keep(packed, old[1], owner):
            todo.append((path, data))
        paths.append(packed)
    for (path, data), packed in zip(todo, writer.write_packs(todo, owner)):
        digests[path] = (data, writer.digests[packed])
    return paths


@lru_cache(maxsize=1)
def _vocab_shards() -> list[bytes]:
    """Each vocabulary shard's JSON (kept: the package's vocabulary never changes in a process)."""
    shards: list[tuple[list, list]] = [([], []) for _ in range(INITIAL + CONTINUING)]
    for i, token in enumerate(vectors.vocab()):
        tokens, ids = shards[shard_of(token)]
        tokens.append(token)
        ids.append(i)
    return [canonical_json([tokens, [b - a for a, b in zip([0] + ids, ids)]]) for tokens, ids in shards]


def _bucket_files(rows: list[bytes], centres: list[bytes], bucket: list[int], listed: list[bool],
                  dims: int) -> list[tuple[str, bytes]]:
    """(name, bytes) of a group's centres and buckets, packed, and its rows, not. A bucket holds the docs the arm
    may list (`listed`: a vector, not a section), in doc order: their offsets in the group
    (uint32 little-endian), then their vectors; vectors are stored column by column (every
    doc's first component, then every doc's second…), which packs 13% smaller (the first, the
    tokens' common direction, is nearly always ±127, and each component's values are alike)."""
    import numpy as np
    x = np.frombuffer(b"".join(rows), dtype=np.int8).reshape(len(rows), dims)
    kept = np.flatnonzero(np.asarray(listed, dtype=bool))
    of = np.asarray(bucket, dtype=np.int64)[kept]
    order = kept[np.argsort(of, kind="stable")]   # doc order within a bucket
    ends = np.cumsum(np.bincount(of, minlength=max(len(centres), 1))).tolist()
    files = [("c", b"".join(centres))]
    for b, (start, end) in enumerate(zip([0] + ends, ends)):
        members = order[start:end]
        files.append((str(b), members.astype("<u4").tobytes() + x[members].T.tobytes()))
    files.append(("rows", x.tobytes()))
    return files


def _sections(slots: list, refs: list, kept: dict) -> list[bool]:
    """Whether each doc id of `slots` (bm25 arrange: None at an unused id) is a section's: a doc
    of group "" whose ref holds "#"; the last call's (in `kept`) while the refs are the same."""
    old = kept.get("sections")
    if old is None or old[0] != refs:
        old = kept["sections"] = (refs, [doc is not None and not doc.get("group") and "#" in ref
                                         for doc, ref in zip(slots, refs)])
    return old[1]


def _write_groups(writer: Writer, base: str, owner: str, refs: list[str], rows: list[bytes], files: list,
                  sections: list[bool], mean: list[int], kept: dict) -> tuple[list, int]:
    """Write each group's centres, buckets and rows; ([[group, first, count, buckets,
    listable]…], the packed bytes of the centres). `kept`: each group's files by its name
    (a group is one span of ids: bm25 arrange), from the last build in this process, left
    holding this one's; a group whose refs, vectors and mean are the same keeps them (its
    buckets are a function of those), another gives buckets() what they were made of, and
    each group's files are written by _write_files."""
    dims = len(mean)
    zero, fixed, groups, memo = bytes(dims), 0, [], {}
    for n, (group, first, count) in enumerate(files):
        mine, names = rows[first:first + count], refs[first:first + count]
        old = kept.get(group)
        if old is None or old[0] != names or old[1] != mine or old[2] != mean:
            listed = [not flag and row != zero for flag, row in zip(sections[first:first + count], mine)]
            mine_kept = old[7] if old is not None else {}   # {"buckets": buckets()' memo, "digests": _write_files'}
            centres, bucket = buckets(names, mine, mean, dims, mine_kept.setdefault("buckets", {}))
            old = (names, mine, mean, _bucket_files(mine, centres, bucket, listed, dims), len(centres) or 1,
                   sum(listed), None, mine_kept)
        paths = _write_files(writer, [(f"{base}/{n}/{name}.bin", data) for name, data in old[3][:-1]], owner,
                             old[7].setdefault("digests", {}))
        writer.write(f"{base}/{n}/rows.bin", old[3][-1][1], owner)
        size = old[6] if old[6] is not None else writer.staged_size(paths[0])
        memo[group] = old[:6] + (size, old[7])
        fixed += size
        groups.append([group, first, count, old[4], old[5]])
    kept.clear()
    kept.update(memo)
    return groups, fixed


def _related_packs(near: dict[str, list[str]], titles: dict[str, str], kept: dict) -> list[str]:
    """The packs of each note's related notes with their titles. The packs are kept between the
    builds of a process (`kept`, emit/hashpacks.py): an entry whose list (the same object:
    vectors/related.py) and titles are what they were last time is not serialized again, and
    only the packs holding a changed entry are joined again."""
    old_titles, old_shown = kept.get("titles", {}), kept.get("shown", {})
    packs = kept.setdefault("packs", HashedPacks())
    retitled = set() if titles == old_titles else {r for r in titles.keys() | old_titles.keys()
                                                   if titles.get(r) != old_titles.get(r)}
    shown = {ref: refs for ref, refs in near.items() if refs}
    for ref, refs in shown.items():
        if old_shown.get(ref) is not refs or not retitled.isdisjoint(refs):
            packs.set(ref, canonical_json([[r, preview_title(titles[r])] for r in refs]).decode("utf-8"))
    for ref in old_shown.keys() - shown.keys():
        packs.drop(ref)
    kept["titles"], kept["shown"] = titles, shown
    return packs.packs()


def emit_doc_vectors(writer: Writer, brain: str, docs: Sequence[dict], known: dict | None = None,
                     kept: dict | None = None, arranged: dict | None = None, spread: Spread = SERIAL,
                     begun=None) -> None:
    """`docs`: the brain's index documents (views/documents.documents), in any order. `known`:
    each doc's vector and the brain's mean from the last build (vectors/rows.py); only docs
    whose fields changed are embedded again, and it is left holding this build's. `kept`: the
    buckets and related notes of the last build (vectors/buckets.py, vectors/related.py);
    `arranged`: the search index's bm25 arrange memo (the same docs, so the same ids); `spread`:
    the workers the runner allows; `begun`: the docs' vectors begun beside the search index
    (vectors/rows.begin_rows)."""
    base, owner, dims = brain_dir(brain), f"vectors:{brain}", vectors.meta()["dims"]
    kept = {} if kept is None else kept
    slots, id_refs, files = arrange(docs, arranged)   # the index's ids (None: unused)
    docs = [doc for doc in slots if doc is not None]
    refs = [doc["ref"] for doc in docs]
    rows, mean, (ids, weights) = doc_rows(docs, refs, dims, known, spread, begun)
    writer.write_pack(f"{base}/weights.json", canonical_json([[b - a for a, b in zip([0, *ids], ids)], weights]), owner)
    by_id = iter(rows)
    id_rows = [next(by_id) if doc is not None else None for doc in slots]
    groups, fixed = _write_groups(writer, base, owner, id_refs, id_rows, files, _sections(slots, id_refs, kept),
                                  mean, kept.setdefault("buckets", {}))
    notes = [i for i, doc in enumerate(docs) if "names" in doc]     # only notes have names
    note_refs = [refs[i] for i in notes]
    near = related(note_refs, [rows[i] for i in notes], dims, kept)
    packs = _related_packs(near, dict(zip(note_refs, (docs[i]["title"] for i in notes))), kept)
    for k, text in enumerate(packs):
        writer.write_pack(f"{base}/related/{k}.json", text.encode("utf-8"), owner)
    meta = {"format": VECTORS_FORMAT, "dims": dims, "groups": groups, "mean": mean, "fixed": fixed,
            "related": len(packs)}
    old = kept.get("meta")
    kept["meta"] = old = old if old is not None and old[0] == meta else (meta, canonical_json(meta))
    writer.write(f"{base}/meta.json", old[1], owner)


@dataclass
class VectorMemo:
    """What the document vectors of a brain keep for the next build in this process."""
    known: dict = field(default_factory=dict)   # each doc's fields and vector bytes, the mean's sums (vectors/rows.py)
    kept: dict = field(default_factory=dict)    # buckets and related notes by what they are made of


@paths
def _doc_vectors(ctx: IndexContext) -> None:
    memo, index = ctx.memo, ctx.needed.get("search index")
    emit_doc_vectors(ctx.writer, ctx.brain.name, ctx.docs, memo and memo.known, memo and memo.kept,
                     index and index.arranged, ctx.spread, ctx.started)   # the index's doc ids: arranged once


def _begin(ctx: IndexContext):
    """A full build's document vectors begun as the index scope begins, beside the search index:
    they need its doc ids only to be written. A kept memo's rebuild embeds only what changed."""
    memo = ctx.memo
    return begin_rows(ctx.docs, ctx.spread) if memo is None or not memo.known else nullcontext(None)


@paths
def _table(ctx: SiteContext) -> None:
    emit_table(ctx.writer, ctx.memo)


DOC_VECTORS = Stage("document vectors", "index", "vectors", _doc_vectors, needs=("search index",), memo=VectorMemo,
                    when="embeddings", start=_begin)
TABLE = Stage("token table", "site", "vectors", _table, memo=dict, when="embeddings", beside=True)
