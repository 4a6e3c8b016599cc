"""Write the search index and document store of one brain under `_bf/search/BRAIN/` (SPEC §5).

Files (JSON, fetched lazily by the browser as well as by builder/query/store.py; every file but
the meta.json files is a pack, stored gzip'd as NAME.json.gz: builder/kernel/packs.py):
  index/…                  the BM25 index (builder/bm25, format in its FORMAT.md); a
                           record's index group is its source
  meta.json                {format, brain, notes, records: {SOURCE: n}, record_chunks: {SOURCE:
                            [first ref of each chunk]}, sources: {SOURCE: coverage}, types: {TYPE: n},
                            text_chunk}
  notes.json               {NOTE_REF: {title, type, tags, fields, entities, modified, placed,
                            deprecated, sections: [[id, title, first, end]…], t}}
  notes/K.json             {NOTE_REF: {summary, pieces}} for the notes whose `t` is K
  records/SRC/m/K.json     {RECORD_REF: {id, title, time, observed, modified, placed, entities}} for
                           chunk K of SRC's records (ref order; bisect record_chunks to find K)
SRC is the source name escaped like a ref segment (builder.kernel.refs.escape_segment). A note's
text is split from its metadata, and both into chunks of TEXT_CHUNK items, because only the items
a reply shows (and phrase and period checks) need them: a search scoped to one source ranks its
hits from the index alone, then reads the chunks of the items it returns. A record's text is not
here: the engine reads it from the brain's record store (`_bf/BRAIN/data/records/`, docs/data.md),
so the site keeps it once. Empty values are omitted (see views/documents._compact).
"""
from __future__ import annotations

from ..bm25 import index_files
from ..bm25.update import IndexState
from ..kernel.model import Brain
from ..kernel.refs import escape_segment
from ..views.documents import store
from ..views.memo import Memos
from .writer import Writer, canonical_json

STORE_FORMAT = "bf-search-3"
TEXT_CHUNK = 100


def search_dir(brain: str) -> str:
    return f"_bf/search/{escape_segment(brain)}"


def _pack(writer: Writer, path: str, entries: dict, owner: str, memos: Memos) -> None:
    """Write `entries` as a pack; its JSON is made again only when an entry object changed
    (views/documents.store keeps an unchanged item's entries)."""
    writer.write_pack(path, memos["json"](path, tuple(entries.items()), lambda: canonical_json(entries)), owner)


def _chunked(writer: Writer, folder: str, meta: dict, text: dict, owner: str, memos: Memos) -> dict:
    """Write the notes' text in chunks; returns {ref: (its meta, the number `t` of its chunk)}."""
    chunks: list[dict] = []
    numbered = {}
    for i, ref in enumerate(sorted(meta)):
        if i % TEXT_CHUNK == 0:
            chunks.append({})
        numbered[ref] = (meta[ref], len(chunks) - 1)
        chunks[-1][ref] = text[ref]
    for k, chunk in enumerate(chunks):
        _pack(writer, f"{folder}/{k}.json", chunk, owner, memos)
    return numbered


def _record_chunks(writer: Writer, folder: str, meta: dict, owner: str, memos: Memos) -> list[str]:
    """Write one source's meta chunks; return the first ref of each chunk."""
    ordered = sorted(meta)
    heads = []
    for k, i in enumerate(range(0, len(ordered), TEXT_CHUNK)):
        part = ordered[i:i + TEXT_CHUNK]
        heads.append(part[0])
        _pack(writer, f"{folder}/m/{k}.json", {ref: meta[ref] for ref in part}, owner, memos)
    return heads


def emit_index(writer: Writer, brain: str, docs, state: IndexState | None = None) -> None:
    """The BM25 index of `docs` (views/documents.index_input); `state`: the last build's
    (bm25/update.py), updated in place."""
    for rel, data in index_files(docs, state).items():
        writer.write(f"{search_dir(brain)}/index/{rel}", data, f"search:{brain}")


def emit_store(writer: Writer, brain: Brain, as_of: str, pieces: dict, kept: dict | None = None) -> None:
    """The document store: what search replies show of each hit, chunked (module docstring).
    `kept`: what the last store of this brain in this process made (views/memo.py), likewise."""
    base, owner = search_dir(brain.name), f"search:{brain.name}"
    memos = Memos(kept, (brain.name, frozenset(brain.identities)))
    data = store(brain, as_of, pieces, memos)
    numbered = _chunked(writer, f"{base}/notes", data["notes"], data["note_text"], owner, memos)
    notes = memos["json"](f"{base}/notes.json", tuple(numbered.items()),
                          lambda: canonical_json({ref: meta | {"t": t} for ref, (meta, t) in numbered.items()}))
    writer.write_pack(f"{base}/notes.json", notes, owner)
    heads = {}
    for source, meta in sorted(data["records"].items()):
        folder = f"{base}/records/{escape_segment(source)}"
        heads[source] = _record_chunks(writer, folder, meta, owner, memos)
    memos.done()
    writer.write_json(f"{base}/meta.json", {
        "format": STORE_FORMAT, "brain": brain.name, "notes": len(data["notes"]),
        "records": {s: len(m) for s, m in sorted(data["records"].items())}, "record_chunks": heads,
        "sources": data["sources"], "types": data["types"], "text_chunk": TEXT_CHUNK,
    }, owner)
