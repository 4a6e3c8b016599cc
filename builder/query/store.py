"""Lazy reader of one brain's search files (`_bf/search/BRAIN/`, written by emit/search_index.py).

Every file is read at most once per BrainStore, and only when a search needs it: a search
scoped to `memories/brief` reads `records/brief.json` and never `notes.json`.
JS twin: site/engine/store.js (same files, same lookups).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..lunrjs import IndexReader
from ..refs import escape_segment
from .site import Site

STORE_FORMAT = "bf-search-1"
OPEN_MAX = 8
# Open stores by (site folder, build id, brain): a long-lived process (bf mcp, tests) answers
# warm, and a rebuilt site (new build id) is never read through a stale store.
_open: dict[tuple, "BrainStore"] = {}


@dataclass(frozen=True)
class Entry:
    """One searchable item: `meta` is its notes.json / records/SRC.json entry; a section's
    `meta` is its note's entry (sections share their note's type, tags, fields, times)."""
    brain: str
    kind: str            # note | section | record
    ref: str
    note: str | None     # the note ref of a note or section
    source: str | None   # a record's source
    meta: dict
    section: list | None = None   # [id, title, first, end] of a section


class BrainStore:
    def __init__(self, site: Site, brain: str):
        self.site, self.brain = site, brain
        self.base = f"_bf/search/{escape_segment(brain)}"
        self._files: dict[str, dict | None] = {}
        self._reader: IndexReader | None = None
        self._sections: dict[str, dict] = {}

    def _load(self, rel: str) -> dict:
        if rel not in self._files:
            self._files[rel] = self.site.load_json(f"{self.base}/{rel}")
        return self._files[rel] or {}

    def ok(self) -> bool:
        return self._load("meta.json").get("format") == STORE_FORMAT

    @property
    def meta(self) -> dict:
        return self._load("meta.json")

    @property
    def notes(self) -> dict:
        return self._load("notes.json")

    def records(self, source: str) -> dict:
        if source not in self.meta.get("records", {}):
            return {}
        return self._load(f"records/{escape_segment(source)}.json")

    @property
    def reader(self) -> IndexReader:
        if self._reader is None:
            self._reader = IndexReader(self.site.path / self.base / "index")
        return self._reader

    def sources(self) -> list[str]:
        return sorted(self.meta.get("sources", {}))

    def folder_exists(self, folder: str) -> bool:
        prefix = folder + "/"
        return any(ref.startswith(prefix) for ref in self.notes)

    def note_entry(self, ref: str) -> Entry | None:
        """The note or section `ref`, or None."""
        notes = self.notes
        if ref in notes:
            return Entry(self.brain, "note", ref, ref, None, notes[ref])
        note_ref, hash_, sid = ref.partition("#")
        if not hash_ or note_ref not in notes:
            return None
        if note_ref not in self._sections:
            self._sections[note_ref] = {s[0]: s for s in notes[note_ref].get("sections", [])}
        section = self._sections[note_ref].get(sid)
        return Entry(self.brain, "section", ref, note_ref, None, notes[note_ref], section) if section else None

    def record_entry(self, ref: str) -> Entry | None:
        """The record `ref` (`SOURCE:ID`: its source is the text before the first colon), or None."""
        source = ref.partition(":")[0]
        meta = self.records(source).get(ref)
        return Entry(self.brain, "record", ref, None, source, meta) if meta is not None else None

    def text(self, entry: Entry) -> dict | str:
        """A note's {summary, pieces}, or a record's text."""
        if entry.kind == "record":
            chunk = self._load(f"records/{escape_segment(entry.source)}/{entry.meta.get('t', 0)}.json")
            return chunk.get(entry.ref, "")
        return self._load(f"notes/{entry.meta.get('t', 0)}.json").get(entry.note, {})


def open_store(site: Site, brain: str) -> BrainStore:
    key = (str(site.path), site.build_id, brain)
    store = _open.get(key)
    if store is None:
        if len(_open) >= OPEN_MAX:
            _open.pop(next(iter(_open)))
        store = _open[key] = BrainStore(site, brain)
    return store
