"""Write the search index and document store of one brain under `_bf/search/BRAIN/` (docs/site.md#search-data).

Files (JSON, fetched lazily by the browser as well as by builder/query/store.py; every file but
the meta.json files is a pack, stored gzip'd as NAME.json.gz: builder/kernel/packs.py):
  index/…                  the BM25 index (builder/bm25, format in its FORMAT.md); a
                           record's index group is its source
  meta.json                {format, brain, notes, note_chunks: [first ref of each notes/m chunk],
                            records: {SOURCE: n}, record_chunks: {SOURCE: [first ref of each chunk]},
                            sources: {SOURCE: coverage}, types: {TYPE: n}, text_chunk, record_texts}
  notes/m/K.json           {NOTE_REF: {title, type, tags, fields, entities, modified, placed,
                            deprecated, sections: [[id, title, first, end]…], x}} for chunk K of
                           the notes (ref order, NOTE_CHUNK a chunk; bisect note_chunks to find K)
  notes/K.json             the texts {summary, pieces} of NOTE_CHUNK notes, one gzip member each
  records/SRC/m/K.json     {RECORD_REF: {id, title, time, observed, modified, placed, entities, x}} for
                           chunk K of SRC's records (ref order, text_chunk a chunk; bisect
                           record_chunks to find K)
  records/SRC/x/K.json     the texts of record_texts of SRC's records (ref order), one gzip member
                           each: a record's text with each run of white space one space
SRC is the source name escaped like a ref segment (builder.kernel.refs.escape_segment). A note's
text is split from its metadata, and both into small chunks, because only the items a search
shows (and phrase checks) need them: a search ranks and filters its hits from the index alone
(scopes from its facets and placed instants, bm25/FORMAT.md), then reads the meta chunks of the
items it returns, ~2 KB a chunk, instead of every note's (0.9 MB at 10k notes). An item's text
is one gzip member of its text file, and its meta entry's `x`, [K, start, length], says which
file and which bytes (kernel/packs.members): a search fetches the members of the items it
shows (an HTTP Range request each), ~1 KB an item, not the 11–27 KB of a whole pack. A record
whose text is longer than RECORD_TEXT_MAX has no `x`: the engine reads it from the brain's
record store (`_bf/BRAIN/data/records/`, docs/data.md), as it reads every record's reply.
Empty values are omitted (see views/documents._compact).
"""
from __future__ import annotations

from itertools import repeat

from ..bm25 import index_files
from ..bm25.update import IndexState
from ..kernel.canon import canonical_json
from ..kernel.formats import STORE_FORMAT
from ..kernel.packs import members, packed_name
from ..kernel.model import Brain
from ..kernel.parallel import SERIAL, Spread
from ..kernel.refs import escape_segment
from ..views.documents import store
from ..views.memo import Memos, model_changes
from .stage import IndexContext, Stage, paths
from .writer import Writer

TEXT_CHUNK = 200   # records a meta chunk holds
NOTE_CHUNK = 25    # notes a meta chunk and a text file hold
RECORD_TEXTS = 400   # records a text file holds: a host that ignores Range requests sends it whole
RECORD_TEXT_MAX = 4096   # code points of the longest record text kept twice (here and in its reply)


def search_dir(brain: str) -> str:
    return f"_bf/search/{escape_segment(brain)}"


def _texts(files: list, path: str, values: list[tuple[str, object]], memos: Memos) -> dict[str, tuple[int, int]]:
    """The text file `path` of `values` ((ref, its text) in order), one gzip member each, added
    to `files` as (path, its bytes); returns {ref: (start, length)}. Made again only when a
    value changed (views/documents.store keeps an unchanged item's entries)."""
    data, spans = memos["members"](path, tuple(values), lambda: members([canonical_json(v) for _, v in values]))
    files.append((path, data))
    return dict(zip((ref for ref, _ in values), spans))


def _note_texts(files: list, folder: str, meta: dict, text: dict, memos: Memos) -> dict:
    """The notes' texts in files of NOTE_CHUNK (module docstring); returns {ref: (its meta,
    its `x`)}."""
    ordered = sorted(meta)
    placed = {}
    for k, at in enumerate(range(0, len(ordered), NOTE_CHUNK)):
        part = ordered[at:at + NOTE_CHUNK]
        spans = _texts(files, f"{folder}/{k}.json", [(ref, text[ref]) for ref in part], memos)
        placed.update((ref, (meta[ref], (k, *spans[ref]))) for ref in part)
    return placed


def _record_texts(files: list, folder: str, records: dict, brain: Brain, memos: Memos) -> dict:
    """A source's record texts in files of RECORD_TEXTS (module docstring), those of at most
    RECORD_TEXT_MAX code points; returns {ref: its `x`}."""
    ordered = sorted(records)
    placed = {}
    for k, at in enumerate(range(0, len(ordered), RECORD_TEXTS)):
        texts = [(ref, " ".join(brain.records[ref].text.split())) for ref in ordered[at:at + RECORD_TEXTS]]
        kept = [(ref, t) for ref, t in texts if len(t) <= RECORD_TEXT_MAX]
        if kept:
            spans = _texts(files, f"{folder}/x/{k}.json", kept, memos)
            placed.update((ref, (k, *span)) for ref, span in spans.items())
    return placed


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
    texts: list[tuple[str, bytes]] = []   # files of gzip members, written as they are
    placed = _note_texts(texts, f"{base}/notes", data["notes"], data["note_text"], memos)
    note_heads = _meta_chunks(packs, f"{base}/notes", placed, NOTE_CHUNK, memos,
                              lambda entry: entry[0] | {"x": entry[1]})
    heads = {}
    for source, meta in sorted(data["records"].items()):
        folder = f"{base}/records/{escape_segment(source)}"
        spans = _record_texts(texts, folder, meta, brain, memos)
        heads[source] = _meta_chunks(packs, folder, {ref: (m, spans.get(ref)) for ref, m in meta.items()},
                                     TEXT_CHUNK, memos, lambda entry: entry[0] | {"x": entry[1]} if entry[1] else entry[0])
    writer.write_packs(packs, owner)
    for path, data_ in texts:
        writer.write(packed_name(path), data_, owner)
    memos.done()
    writer.write_json(f"{base}/meta.json", {
        "format": STORE_FORMAT, "brain": brain.name, "notes": len(data["notes"]), "note_chunks": note_heads,
        "records": {s: len(m) for s, m in sorted(data["records"].items())}, "record_chunks": heads,
        "sources": data["sources"], "types": data["types"], "text_chunk": TEXT_CHUNK,
        "record_texts": RECORD_TEXTS,
    }, owner)


@paths
def _index(ctx: IndexContext) -> None:
    emit_index(ctx.writer, ctx.brain.name, ctx.docs, ctx.memo, ctx.spread)


@paths
def _store(ctx: IndexContext) -> None:
    emit_store(ctx.writer, ctx.brain, ctx.as_of, ctx.pieces, ctx.memo, ctx.changes)


INDEX = Stage("search index", "index", "lunr", _index, memo=IndexState)
STORE = Stage("search store", "index", "lunr", _store, memo=dict)
