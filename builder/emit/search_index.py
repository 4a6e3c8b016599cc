"""Write the search index and document store of one brain under `_bf/search/BRAIN/` (docs/site.md#search-data).

Files (JSON, fetched lazily by the browser as well as by builder/query/store.py; every file but
the meta.json files is a pack, stored gzip'd as NAME.json.gz: builder/kernel/packs.py):
  index/…                  the BM25 index (builder/bm25, format in its FORMAT.md); a
                           record's index group is its source
  meta.json                {format, brain, notes, note_chunks: [first ref of each notes/m chunk],
                            records: {SOURCE: n}, record_chunks: {SOURCE: [first ref of each chunk]},
                            sources: {SOURCE: coverage}, types: {TYPE: n}, text_chunk}
  notes/m/K.json           {NOTE_REF: {title, type, tags, fields, entities, modified, placed,
                            deprecated, sections: [[id, title, first, end]…], t}} for chunk K of
                           the notes (ref order, NOTE_CHUNK a chunk; bisect note_chunks to find K)
  notes/K.json             {NOTE_REF: {summary, pieces}} for the notes whose `t` is K
  records/SRC/m/K.json     {RECORD_REF: {id, title, time, observed, modified, placed, entities}} for
                           chunk K of SRC's records (ref order, text_chunk a chunk; bisect
                           record_chunks to find K)
SRC is the source name escaped like a ref segment (builder.kernel.refs.escape_segment). A note's
text is split from its metadata, and both into small chunks, because only the items a search
shows (and phrase checks) need them: a search ranks and filters its hits from the index alone
(scopes from its facets and placed instants, bm25/FORMAT.md), then reads the chunks of the items
it returns, ~2 KB a chunk, instead of every note's (0.9 MB at 10k notes). A record's text is not
here: the engine reads it from the brain's record store (`_bf/BRAIN/data/records/`, docs/data.md),
so the site keeps it once. Empty values are omitted (see views/documents._compact).
"""
from __future__ import annotations

from itertools import repeat

from ..bm25 import index_files
from ..bm25.update import IndexState
from ..kernel.canon import canonical_json
from ..kernel.formats import STORE_FORMAT
from ..kernel.model import Brain
from ..kernel.parallel import SERIAL, Spread
from ..kernel.refs import escape_segment
from ..views.documents import store
from ..views.memo import Memos, model_changes
from .stage import IndexContext, Stage, paths
from .writer import Writer

TEXT_CHUNK = 200   # records a meta chunk holds
NOTE_CHUNK = 25    # notes a meta chunk and a text chunk hold: a search reads those of its hits


def search_dir(brain: str) -> str:
    return f"_bf/search/{escape_segment(brain)}"


def _chunked(packs: list, folder: str, meta: dict, text: dict, memos: Memos) -> dict:
    """The notes' text in chunks, added to `packs` as (path, JSON bytes); returns {ref: (its
    meta, the number `t` of its chunk)}. A chunk's JSON is made again only when an entry object
    changed (views/documents.store keeps an unchanged item's entries)."""
    ordered = sorted(meta)
    numbered = {}
    for k, at in enumerate(range(0, len(ordered), NOTE_CHUNK)):   # a chunk at a time: 10k notes in C loops
        part = ordered[at:at + NOTE_CHUNK]
        numbered.update(zip(part, zip(map(meta.__getitem__, part), repeat(k))))
        entries = dict(zip(part, map(text.__getitem__, part)))
        path = f"{folder}/{k}.json"
        packs.append((path, memos["json"](path, tuple(entries.items()), lambda: canonical_json(entries))))
    return numbered


def _meta_chunks(packs: list, folder: str, entries: dict, size: int, memos: Memos,
                 serialize=lambda entry: entry) -> list[str]:
    """`entries` (ref → meta) in chunks of `size` refs, in ref order, as FOLDER/m/K.json, added
    to `packs`; returns the first ref of each chunk. `serialize`: an entry's JSON value."""
    ordered = sorted(entries)
    heads = []
    for k, i in enumerate(range(0, len(ordered), size)):
        refs = ordered[i:i + size]
        part = tuple(zip(refs, map(entries.__getitem__, refs)))
        heads.append(part[0][0])
        path = f"{folder}/m/{k}.json"
        packs.append((path, memos["json"](path, part, lambda: canonical_json({r: serialize(e) for r, e in part}))))
    return heads


def emit_index(writer: Writer, brain: str, docs, state: IndexState | None = None, spread: Spread = SERIAL) -> None:
    """The BM25 index of `docs` (views/documents.index_input); `state`: the last build's
    (bm25/update.py), updated in place."""
    for rel, data in index_files(docs, state, spread).items():
        writer.write(f"{search_dir(brain)}/index/{rel}", data, f"search:{brain}")


def emit_store(writer: Writer, brain: Brain, as_of: str, pieces: dict, kept: dict | None = None,
               changes=model_changes) -> None:
    """The document store: what search replies show of each hit, chunked (module docstring).
    `kept`: what the last store of this brain in this process made (views/memo.py), likewise;
    `changes`: as views/documents.store's."""
    base, owner = search_dir(brain.name), f"search:{brain.name}"
    memos = Memos(kept, (brain.name, frozenset(brain.identities)))
    data = store(brain, as_of, pieces, memos, changes)
    packs: list[tuple[str, bytes]] = []   # compressed together, in threads: the index side's tail
    numbered = _chunked(packs, f"{base}/notes", data["notes"], data["note_text"], memos)
    note_heads = _meta_chunks(packs, f"{base}/notes", numbered, NOTE_CHUNK, memos,
                              lambda entry: entry[0] | {"t": entry[1]})
    heads = {}
    for source, meta in sorted(data["records"].items()):
        folder = f"{base}/records/{escape_segment(source)}"
        heads[source] = _meta_chunks(packs, folder, meta, TEXT_CHUNK, memos)
    writer.write_packs(packs, owner)
    memos.done()
    writer.write_json(f"{base}/meta.json", {
        "format": STORE_FORMAT, "brain": brain.name, "notes": len(data["notes"]), "note_chunks": note_heads,
        "records": {s: len(m) for s, m in sorted(data["records"].items())}, "record_chunks": heads,
        "sources": data["sources"], "types": data["types"], "text_chunk": TEXT_CHUNK,
    }, owner)


@paths
def _index(ctx: IndexContext) -> None:
    emit_index(ctx.writer, ctx.brain.name, ctx.docs, ctx.memo, ctx.spread)


@paths
def _store(ctx: IndexContext) -> None:
    emit_store(ctx.writer, ctx.brain, ctx.as_of, ctx.pieces, ctx.memo, ctx.changes)


INDEX = Stage("search index", "index", "lunr", _index, memo=IndexState)
STORE = Stage("search store", "index", "lunr", _store, memo=dict)
