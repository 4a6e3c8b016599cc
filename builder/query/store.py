"""Lazy reader of one brain's search files (`_bf/search/BRAIN/`, written by emit/search_index.py).

Every file is read at most once per BrainStore, and only when a search needs it: a search
scoped to `memories/brief` ranks its hits from the index and reads the meta and text
chunks of the brief records it returns, never a note's.
JS twin: site/engine/store.js (same files, same lookups).
"""
from __future__ import annotations

import gc
from bisect import bisect_right

from ..kernel import packs
from ..kernel.canon import parsed
from ..bm25 import IndexReader, resident
from ..kernel.formats import STORE_FORMAT
from ..kernel.refs import escape_segment
from .site import Site

CHECKS_MAX = 16   # filter sets whose verdicts a store keeps (BrainStore.verdicts)
EXCERPTS = 4096   # excerpts a store keeps (BrainStore.excerpt)


def _read_json(folder, rel: str, packed: bool) -> dict | None:
    """A store file (a pack file when `packed`, builder/kernel/packs.py), or None when missing or
    unreadable (like Site.load_json, and no garbage collection pass while a large file's
    objects are made)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return parsed(packs.read(folder, rel, packed))
    except (OSError, ValueError):
        return None
    finally:
        if enabled:
            gc.enable()


def _entry(data: bytes | None, key: str) -> dict | None:
    """The object under `key` in a store file's bytes (packs.cut), or None: a damaged file reads
    as missing, as _read_json reads it."""
    try:
        return packs.cut(data, key, lambda v: isinstance(v, dict))
    except ValueError:
        return None


class Entry:
    """One searchable item: `meta` is its notes/m/K.json or records/SRC/m/K.json entry; a section's
    `meta` is its note's entry (sections share their note's type, tags, fields, times). A
    record hit's ref and meta are read on first use, from its source's meta chunk: ranking a
    record needs only its doc id and its position among its source's records (`pos`), as in
    the browser (store.js withRef), so a search reads no ref file for the records it drops. A
    ranked note or section (BrainStore.candidate) likewise reads its ref, note, meta and section
    on first use: ranking needs its owner (o/) and whether its note is deprecated (meta.json) only."""
    __slots__ = ("brain", "kind", "_ref", "_note", "source", "_section", "doc", "pos", "_meta", "_store", "_owner")

    def __init__(self, brain: str, kind: str, ref: str | None, note: str | None, source: str | None,
                 meta: dict | None, section: list | None = None, store: "BrainStore | None" = None, pos: int = -1):
        self.brain, self.kind, self._ref, self._note, self.source = brain, kind, ref, note, source
        self._section = section   # [id, title, first, end] of a section
        self.doc = -1            # its id in the brain's index, for a search hit
        self.pos = pos
        self._meta, self._store, self._owner = meta, store, None

    def _fill(self) -> None:
        """A ranked note's or section's ref, note, meta and section, from its doc id."""
        full = self._store.note_entry(self._store.reader.ref(self.doc))
        self._ref, self._note, self._meta, self._section = full._ref, full._note, full._meta, full._section

    @property
    def ref(self) -> str:
        if self._ref is None:
            if self.kind != "record":
                self._fill()
            else:
                self._ref = self._store.record_ref(self.source, self.pos)
        return self._ref

    @property
    def note(self) -> str | None:
        if self._note is None and self.kind != "record":
            self._fill()
        return self._note

    @property
    def section(self) -> list | None:
        if self._section is None and self.kind == "section":
            self._fill()
        return self._section

    @property
    def meta(self) -> dict:
        if self._meta is None:
            if self.kind != "record":
                self._fill()
            else:
                self._meta = self._store.record_meta(self.ref) or {}
        return self._meta

    @property
    def owner(self) -> int:
        """The doc id a search hit ranks as: a section's note, else itself (store.owners)."""
        if self._owner is None:
            self._owner = self.doc if self.kind == "record" else self._store.owners()[self.doc]
        return self._owner

    @property
    def deprecated(self) -> bool:
        """Whether it is (a section of) a deprecated note: from its meta once read, else from
        the index's `deprecated` facet (which holds its note's id)."""
        if self.kind == "record":
            return False
        if self._meta is None:
            return self.owner in self._store.reader.facet("deprecated")
        return bool(self._meta.get("deprecated"))


class BrainStore:
    def __init__(self, site: Site, brain: str):
        self.site, self.brain = site, brain
        self.base = f"_bf/search/{escape_segment(brain)}"
        self._files: dict[str, dict | None] = {}
        self._reader: IndexReader | None = None
        self._sections: dict[str, dict] = {}
        self._hits: dict[int, Entry | None] = {}   # doc id -> entry: warm searches skip building them
        self._chunk_refs: dict[str, list[str]] = {}   # a record meta chunk's refs, in order
        self._checks: dict[tuple, object] = {}   # filters -> verdicts()' array
        self._owners: _Owners | None = None
        self._groups: list[str] | None = None
        self._spans: dict[tuple, range] = {}
        self._raws: dict[str, bytes | None] = {}   # record meta chunks' JSON bytes (preload)
        self._packed: dict[str, bytes | None] = {}   # text files as stored (preload)
        self._texts: dict[tuple, dict | str] = {}   # (kind, note or record ref) -> its text
        self._metas: dict[str, dict | None] = {}   # a record's meta, cut from its chunk's bytes
        self._excerpts: dict[tuple, str] = {}   # (kind, ref, terms) -> an item's excerpt

    def _load(self, rel: str) -> dict:
        if rel not in self._files:
            self._files[rel] = _read_json(self.site.path / self.base, rel, rel != "meta.json")
        return self._files[rel] or {}

    def ok(self) -> bool:
        return self._load("meta.json").get("format") == STORE_FORMAT

    @property
    def meta(self) -> dict:
        return self._load("meta.json")

    def _chunk(self, folder: str, heads: list[str] | None, ref: str) -> dict:
        """FOLDER/m/K.json, the meta chunk that would hold `ref` (by its chunks' first refs,
        `heads`), or {} when none would."""
        k = bisect_right(heads, ref) - 1 if heads else -1
        return self._load(f"{folder}/m/{k}.json") if k >= 0 else {}

    def note_meta(self, ref: str) -> dict | None:
        return self._chunk("notes", self.meta.get("note_chunks"), ref).get(ref)

    def record_ref(self, source: str, pos: int) -> str:
        """The ref of the pos-th record of `source` (in ref order): the index and
        records/SRC/m/K.json both list a source's records in ref order, text_chunk a file."""
        if self.reader.resident is not None:   # the index's refs are in memory (preload)
            return self.reader.ref(next(first for name, first, _ in self.reader.meta["groups"] if name == source) + pos)
        size = self.meta["text_chunk"]
        rel = f"records/{escape_segment(source)}/m/{pos // size}.json"
        if rel not in self._chunk_refs:
            self._chunk_refs[rel] = list(self._load(rel))
        return self._chunk_refs[rel][pos % size]

    def record_meta(self, ref: str) -> dict | None:
        """Its entry of its source's meta chunk: cut from the chunk's bytes when the preload
        kept them (a record's among a hundred), else from the chunk parsed."""
        source = ref.partition(":")[0]
        heads = self.meta.get("record_chunks", {}).get(source)
        k = bisect_right(heads, ref) - 1 if heads else -1
        rel = f"records/{escape_segment(source)}/m/{k}.json"
        if k < 0 or rel in self._files or rel not in self._raws:
            return self._chunk(f"records/{escape_segment(source)}", heads, ref).get(ref)
        if ref not in self._metas:
            self._metas[ref] = _entry(self._raws[rel], ref)
        return self._metas[ref]

    @property
    def reader(self) -> IndexReader:
        if self._reader is None:
            self._reader = IndexReader(self.site.path / self.base / "index")
        return self._reader

    def preload(self) -> None:
        """Read now what most searches read (bf mcp's startup): the index's per-doc chunks, the
        meta chunks, and the text files' bytes (and the records' packs, for the longest texts)."""
        if self.ok():
            resident.hold(self.reader)
            self.owners().fill()
            for k in range(len(self.meta.get("note_chunks") or ())):
                self._load(f"notes/m/{k}.json")
            for source, heads in self.meta.get("record_chunks", {}).items():
                for k in range(len(heads)):
                    self._raw(f"records/{escape_segment(source)}/m/{k}.json")
            texts = [f"notes/{k}.json" for k in range(len(self.meta.get("note_chunks") or ()))]
            size = self.meta.get("record_texts") or 1
            for source, n in self.meta.get("records", {}).items():
                texts += [f"records/{escape_segment(source)}/x/{k}.json" for k in range(-(-n // size))]
            for rel in texts:
                self._stored(rel)
            self.site.brain_data(self.brain).preload()

    def sources(self) -> list[str]:
        return sorted(self.meta.get("sources", {}))

    def folder_exists(self, folder: str) -> bool:
        """Whether a note's ref starts with FOLDER/: the first ref from FOLDER/ on in ref order
        is in the chunk where FOLDER/ would go, or heads the next one."""
        prefix, heads = folder + "/", self.meta.get("note_chunks") or []
        k = bisect_right(heads, prefix)
        return (any(ref.startswith(prefix) for ref in self._chunk("notes", heads, prefix))
                or (k < len(heads) and heads[k].startswith(prefix)))

    def note_entry(self, ref: str) -> Entry | None:
        """The note or section `ref`, or None."""
        meta = self.note_meta(ref)
        if meta is not None:
            return Entry(self.brain, "note", ref, ref, None, meta)
        note_ref, hash_, sid = ref.partition("#")
        meta = self.note_meta(note_ref) if hash_ else None
        if meta is None:
            return None
        if note_ref not in self._sections:
            self._sections[note_ref] = {s[0]: s for s in meta.get("sections", [])}
        section = self._sections[note_ref].get(sid)
        return Entry(self.brain, "section", ref, note_ref, None, meta, section) if section else None

    def record_entry(self, ref: str) -> Entry | None:
        """The record `ref` (`SOURCE:ID`: its source is the text before the first colon), or None."""
        meta = self.record_meta(ref)
        return Entry(self.brain, "record", ref, None, ref.partition(":")[0], meta) if meta is not None else None

    def hit(self, doc: int, group: str) -> Entry | None:
        """The item of doc id `doc` of this brain's index, in index group `group` (a record's
        source, "" for notes and sections). A record's meta is read on first use."""
        if doc not in self._hits:
            entry = self.candidate(doc, group) if group else self.note_entry(self.reader.ref(doc))
            if entry is not None:
                entry.doc, entry._store = doc, self
            self._hits[doc] = entry
        return self._hits[doc]

    def candidate(self, doc: int, group: str) -> Entry:
        """hit(doc, group) as ranking needs it: a note's or section's ref and meta are read on
        first use too (Entry), so a search reads those of the items it returns."""
        entry = self._hits.get(doc)
        if entry is None:
            if group:
                entry = Entry(self.brain, "record", None, None, group, None, None, self, self.reader.position(doc))
            else:
                owner = self.owners()[doc]
                entry = Entry(self.brain, "note" if owner == doc else "section", None, None, None, None, None, self)
            entry.doc = doc
            self._hits[doc] = entry
        return entry

    def excerpt(self, entry: Entry, terms: set[str], make) -> str:
        """make(), the excerpt of `entry` for the query `terms`, kept: a warm search asks for
        its items' again (EXCERPTS of them at most)."""
        key = (entry.kind, entry.ref, frozenset(terms))
        if key not in self._excerpts:
            if len(self._excerpts) >= EXCERPTS:
                self._excerpts.clear()
            self._excerpts[key] = make()
        return self._excerpts[key]

    def verdicts(self, filters: tuple):
        """Per doc id, the verdict of these filters (scope, --type, --path) on its item, as far as
        searches have asked (numpy int8: -1 not asked, 0 passes, 1 refused and narrowing, 2
        refused): warm searches in a scope skip checking the hits checked before (a scoped
        search of a common word at 10k notes checks thousands). A few filters kept."""
        if filters not in self._checks:
            import numpy as np
            if len(self._checks) >= CHECKS_MAX:
                self._checks.pop(next(iter(self._checks)))
            self._checks[filters] = np.full(self.reader.meta["ids"], -1, dtype=np.int8)
        return self._checks[filters]

    def span(self, group: str, prefix: str, exact: bool = False) -> range:
        """The doc ids of index group `group` whose refs start with `prefix` (`exact`: are
        `prefix`), kept: a scoped search asks for each hit it checks."""
        key = (group, prefix, exact)
        if key not in self._spans:
            ids = self.reader.prefixed(group, prefix)
            if exact:
                ids = ids[:1] if ids and self.reader.ref(ids[0]) == prefix else ids[:0]
            self._spans[key] = ids
        return self._spans[key]

    def in_groups(self, keep: set[str]) -> bytes:
        """1 at the doc ids of the index groups `keep`, else 0 (meta.json `groups` spans)."""
        mask = bytearray(self.reader.meta["ids"])
        for name, first, count in self.reader.meta["groups"]:
            if name in keep:
                mask[first:first + count] = b"\1" * count
        return bytes(mask)

    def kept(self, hits, keep: set[str] | None) -> tuple:
        """(the positions in `hits` (postings.Hits) of the hits whose index group is in `keep`
        (None: all), in hit order; whether any was dropped)."""
        if keep is None:
            return range(len(hits)), False
        import numpy as np
        at = np.frombuffer(self.in_groups(keep), dtype=bool)[hits.ordered()].nonzero()[0]
        return at.tolist(), at.size < len(hits)

    def groups(self) -> list[str]:
        """Doc id -> its index group (a record's source, "" for notes and sections)."""
        if self._groups is None:
            groups: list = [None] * self.reader.meta["ids"]   # None: an unused id (FORMAT.md Documents)
            for name, first, count in self.reader.meta["groups"]:
                groups[first:first + count] = [name] * count
            self._groups = groups
        return self._groups

    def owners(self) -> "_Owners":
        """Doc id -> the doc id of the item it ranks as: a section's note, else itself."""
        if self._owners is None:
            self._owners = _Owners(self.reader)
        return self._owners

    def text(self, entry: Entry) -> dict | str:
        """A note's {summary, pieces}, or a record's text: the gzip member its meta entry's `x`
        names ([K, start, length] in notes/K.json or records/SRC/x/K.json); a record without
        one, from the brain's record store. {} or "" when it cannot be read."""
        key = (entry.kind == "record", entry.ref if entry.kind == "record" else entry.note)
        if key not in self._texts:
            x = entry.meta.get("x")
            if entry.kind != "record":
                text = self._member(f"notes/{x[0]}.json", x) if x else None
                self._texts[key] = text if isinstance(text, dict) else {}
            elif x is None:
                self._texts[key] = self.site.brain_data(self.brain).record_text(entry.ref)
            else:
                text = self._member(f"records/{escape_segment(entry.source)}/x/{x[0]}.json", x)
                self._texts[key] = text if isinstance(text, str) else ""
        return self._texts[key]

    def _member(self, rel: str, x: list):
        """The JSON value of the member at x[1:] (start, length) of text file `rel`, or None."""
        start, length = x[1], x[2]
        try:
            stored = self._packed.get(rel)
            if stored is None:
                return parsed(packs.read_member(self.site.path / self.base, rel, start, length))
            return parsed(packs.unpack(stored[start:start + length]))
        except (OSError, ValueError, TypeError):
            return None

    def _stored(self, rel: str) -> bytes | None:
        """The bytes of text file `rel` as stored, kept (preload); None when missing."""
        if rel not in self._packed:
            try:
                with open(self.site.path / self.base / packs.packed_name(rel), "rb") as fh:
                    self._packed[rel] = fh.read()
            except OSError:
                self._packed[rel] = None
        return self._packed[rel]

    def _raw(self, rel: str) -> bytes | None:
        """The JSON bytes of pack file `rel`, kept; None when missing or not a pack."""
        if rel not in self._raws:
            try:
                self._raws[rel] = packs.read(self.site.path / self.base, rel, True)
            except (OSError, ValueError):
                self._raws[rel] = None
        return self._raws[rel]


class _Owners:
    """Doc id -> the doc id it ranks as (a section's note, else itself: the index's o/ files).
    Only group "" (notes and sections, the first span of ids) holds sections, so a record is
    its own owner; the notes' owners are kept in one list, filled from the o/ chunks of the
    docs asked for (what the browser fetches too), and read at C speed: a common word's search
    counts tens of thousands of hits."""

    def __init__(self, reader):
        self.reader, self.end = reader, reader.group_end("")
        self.span, self.filled = [-1] * self.end, set()
        self._array = None   # span as a numpy array, while no chunk was filled since

    def __getitem__(self, doc: int) -> int:
        return doc if doc >= self.end else self._filled([doc])[doc]

    def count(self, docs) -> int:
        """How many distinct owners `docs` have (a numpy array of ids: counted over arrays)."""
        if not isinstance(docs, (list, map)):
            return self._count_array(docs)
        docs = docs if isinstance(docs, list) else list(docs)
        inside = [d for d in docs if d < self.end]
        span = self._filled(inside)
        return len(docs) - len(inside) + len(set(map(span.__getitem__, inside)))

    def _count_array(self, docs) -> int:
        """count() of a numpy array of distinct doc ids: a mask of the owners seen, no set."""
        import numpy as np
        inside = docs[docs < self.end]
        seen = np.zeros(self.end, dtype=bool)
        seen[self._resident(inside)[inside]] = True
        return int(docs.size - inside.size + np.count_nonzero(seen))

    def of(self, docs):
        """The owners of a numpy array of doc ids, as one."""
        import numpy as np
        inside = docs < self.end
        if not inside.any():
            return docs.copy()
        return np.where(inside, self._resident(docs[inside])[np.minimum(docs, self.end - 1)], docs)

    def _resident(self, inside):
        """The owners' array, with the chunks of the doc ids `inside` (a numpy array, all in
        group "") read."""
        import numpy as np
        size = self.reader.meta["convChunk"]
        if len(self.filled) < -(-self.end // size):   # a chunk is unread (fill() reads all)
            self._filled([k * size for k in np.unique(inside // size).tolist()])
        if self._array is None:
            self._array = np.array(self.span, dtype=np.int64)
        return self._array

    def fill(self) -> None:
        """Every chunk's owners now, and the array count() reads (bf mcp's preload)."""
        import numpy as np
        self._array = np.array(self._filled(range(0, self.end, self.reader.meta["convChunk"])), dtype=np.int64)

    def _filled(self, inside: list[int]) -> list[int]:
        """The owners' list, with the chunks of the doc ids `inside` (all in group "") read."""
        size = self.reader.meta["convChunk"]
        for k in {d // size for d in inside} - self.filled:
            self._array = None
            base = k * size
            offsets = self.reader.owner_chunk(k)[:self.end - base]
            self.span[base:base + len(offsets)] = [base + i - off for i, off in enumerate(offsets)]
            self.filled.add(k)
        return self.span


def open_store(site: Site, brain: str) -> BrainStore:
    """The site's store of `brain`, kept by the Site: a long-lived process (bf mcp, the API)
    answers warm, and a rebuilt site (a new Site: LiveSite reopens it) is never read through a
    stale store."""
    if brain not in site.stores:
        site.stores[brain] = BrainStore(site, brain)
    return site.stores[brain]
