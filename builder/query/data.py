"""Replies computed from a brain's compact data (docs/data.md; written by builder/emit/data.py).
Twin: site/engine/data.js. A listing page is its header, a slice of its card ids and the cards;
records and the sections kept are looked up whole, other
sections computed from their note's reply (query/sections.py). Packs are loaded once per `BrainData` (per open Site)."""
from __future__ import annotations

from ..kernel import packs, refs
from ..kernel.formats import DATA_FORMAT
from ..kernel.listing import PAGE_ITEMS
from .sections import section_reply


class BrainData:
    def __init__(self, load_json, brain: str, load_raw=None):
        self.load_json, self.brain, self.load_raw = load_json, brain, load_raw
        self.root = f"_bf/{refs.escape_segment(brain)}/data"
        meta = load_json(f"{self.root}/meta.json")
        self.meta = meta if isinstance(meta, dict) and meta.get("format") == DATA_FORMAT else None
        self.loaded: dict[str, object] = {}
        self.texts: dict[str, bytes | None] = {}   # a record pack's JSON bytes, while it is not parsed
        self.record_texts: dict[str, str] = {}   # ref -> record_text: each search of its words wants it again

    def preload(self) -> None:
        """Read every record pack's bytes now (bf mcp's startup); a search cuts its records'
        pages from them (_record_pages)."""
        for family, n in (self.meta or {}).get("packs", {}).items():
            for k in range(n) if family.startswith("records/") and self.load_raw else ():
                path = f"{family}/{k}.json"
                if path not in self.texts and path not in self.loaded:
                    self.texts[path] = self.load_raw(f"{self.root}/{path}", packed=True)

    def _file(self, path: str):
        if path not in self.loaded:
            self.loaded[path] = self.load_json(f"{self.root}/{path}", packed=True)
        return self.loaded[path]

    def family(self, ref: str, variant: tuple[str, ...]) -> str | None:
        """Where the reply of `ref` lives: "sections", "records/SOURCE", "lists" — None for files."""
        packs = self.meta["packs"] if self.meta else {}
        if (ref == "home" and not variant) or (ref.endswith(".md") and "r" not in variant):
            return None       # a note's file name may hold "#"; a section id never ends in ".md"
        if "#" in ref and not refs.is_record_like(ref):
            return "sections"
        if refs.is_record_like(ref):
            family = self.record_family(ref)
            if family in packs:
                return family
        return "lists"

    @staticmethod
    def record_family(ref: str) -> str:
        """The pack family of record `ref` (SOURCE:ID): records/SOURCE, escaped like a ref segment."""
        return "records/" + refs.escape_segment(ref.split(":", 1)[0])

    def entry(self, family: str, key: str):
        n = (self.meta or {}).get("packs", {}).get(family)
        if not n:
            return None
        pack = self._file(f"{family}/{refs.pack_of(key, n)}.json")
        return pack.get(key) if isinstance(pack, dict) else None

    def record_text(self, ref: str) -> str:
        """Record `ref`'s text with each run of whitespace as one space (what search excerpts and
        phrase checks read), joined from its reply pages: a search reads it here only when the
        search store keeps no copy of it (a text longer than emit/search_index.py RECORD_TEXT_MAX)."""
        text = self.record_texts.get(ref)
        if text is None:
            pages = self._record_pages(self.record_family(ref), refs.data_key(self.brain, ref), ref)
            text = " ".join("".join(page.get("record", {}).get("text", "") for page in pages).split()) \
                if isinstance(pages, list) else ""
            self.record_texts[ref] = text
        return text

    def _record_pages(self, family: str, key: str, ref: str):
        """entry(family, key) of record `ref`, cut from its pack's text rather than parsing the pack: a
        search wants a few records' texts of a pack of a hundred, and parsing it all was most
        of a search's reading. Found only as a key of a record page of `ref` (_cut); else, or
        when the pack is parsed already, by entry()."""
        n = (self.meta or {}).get("packs", {}).get(family)
        path = f"{family}/{refs.pack_of(key, n)}.json" if n else None
        if path is None or path in self.loaded or self.load_raw is None:
            return self.entry(family, key)
        if path not in self.texts:
            self.texts[path] = self.load_raw(f"{self.root}/{path}", packed=True)
        found = _cut(self.texts[path], key, ref)
        return found if found is not None else self.entry(family, key)

    def card(self, n: int) -> dict:
        size = self.meta["cardChunk"]
        return self._file(f"cards/{n // size}.json")[n % size]

    def cards(self, ids: list[int]) -> list[dict]:
        return [self.card(n) for n in ids]

    def timeline(self, lo: str) -> list[dict]:
        """The timeline entries placed at or after `lo`, newest first: {placed, source, low, item},
        `item` a card id. Reads chunks only until one ends before `lo`."""
        meta, rows = self.meta or {}, []
        for k in range(meta.get("timelineChunks", 0)):
            chunk = self._file(f"timeline/{k}.json") or []
            rows += chunk
            if not chunk or chunk[-1][0] < lo:
                break
        return [{"placed": p, "source": s, "low": bool(low), "item": n} for p, s, low, n in rows if p >= lo]

    def reply(self, ref: str, variant: tuple[str, ...]) -> tuple[bool, dict | None]:
        """(handled, reply page): handled is False when the reply lives in a file instead."""
        offset = int(variant[-1][1:]) if variant and variant[-1][:1] == "o" else 0
        variant = variant[:-1] if offset else variant
        family = self.family(ref, variant)
        if family is None or self.meta is None:
            return False, None
        found = self.entry(family, refs.data_key(self.brain, ref, *variant))
        if found is None and family == "sections" and not variant:
            found = [section_reply(self.load_json(refs.ref_file(self.brain, ref.rpartition("#")[0])), ref)]
        if found is None or found == [None]:
            return True, None
        if isinstance(found, list):
            return True, page_with_offset(found, offset)
        if "pages" in found:
            return True, page_with_offset(found["pages"], offset)
        return True, self.listing_page(found, offset)

    def listing_page(self, entry: dict, offset: int) -> dict | None:
        ids = entry["ids"]
        if offset % PAGE_ITEMS or (offset and offset >= len(ids)):
            return None
        end = offset + PAGE_ITEMS
        items = [self.card(n) for n in ids[offset:end]]
        return dict(entry["base"], items=items, total=len(ids), offset=offset,
                    next_offset=end if end < len(ids) else None)


def page_with_offset(pages: list[dict], offset: int) -> dict | None:
    """The stored page starting at `offset` (a page without an `offset` field starts at 0)."""
    return next((p for p in pages if (p.get("offset") or 0) == offset), None)


def _cut(data: bytes | None, key: str, ref: str) -> list | None:
    """Record `ref`'s pages, the value of `key` in the pack `data`, or None (a damaged pack too,
    as Site.load_json reads one): the pages' own `ref` tells the pack's key from one nested in
    a page."""
    try:
        return packs.cut(data, key, lambda v: isinstance(v, list) and v and all(
            isinstance(p, dict) and p.get("ref") == ref for p in v))
    except ValueError:
        return None
