"""The compact data of a brain (docs/data.md): every reply that is not a note's or home's, written
once into packs instead of a file per reply page.

- listings (folders, tags, sources, undated, identities, memories, periods, relation pages) are a
  header plus an ordered list of card ids: a page at any offset is a slice plus card look-ups;
- cards (the listed items) are stored once each, in chunks of `CARD_CHUNK`, numbered in order of
  first appearance so that a page's items mostly share a chunk;
- records keep their reply pages whole, in packs per source; a section's reply is computed from its
  note's (query/sections.py), so only those it cannot give are kept, whole;
- the timeline (every placed item, newest first: what relative `Nd` periods are computed from) is
  rows [placed, source, low, card id] in chunks of `TIMELINE_CHUNK`, so a recent period reads
  its first chunk or two instead of the whole brain.
A key's pack is `refs.pack_of(key, n)`, n chosen per family so a pack holds about `PACK_BYTES`.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..kernel import refs
from ..kernel.listing import paged
from ..query.data import FORMAT
from ..query.sections import section_reply
from ..views import View
from .writer import Writer, canonical_json

CARD_CHUNK = 64
TIMELINE_CHUNK = 1024
PACK_BYTES = 64 * 1024
PAGING = ("items", "total", "offset", "next_offset")


def data_dir(brain: str) -> str:
    return f"_bf/{refs.escape_segment(brain)}/data"


def stored_in_files(view: View) -> bool:
    """Notes (every page) and home stay reply files: the pages people open link them."""
    return view.template == "note.html" or (view.ref == "home" and not view.variant)


@dataclass
class Cards:
    """Distinct listed items → ids, in order of first appearance."""
    ids: dict[str, int] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    seen: dict[int, tuple[object, int]] = field(default_factory=dict)   # id(item) → (item, card id)
    known: dict[int, tuple[object, str]] = field(default_factory=dict)  # id(item) → (item, text): DataMemo.cards

    def id_of(self, item: dict) -> int:
        hit = self.seen.get(id(item))       # views share item dicts between listings
        if hit is not None and hit[0] is item:
            return hit[1]
        old = self.known.get(id(item))      # and a watch rebuild keeps the unchanged ones (lists.item)
        text = old[1] if old is not None and old[0] is item else _json(item)
        n = self.ids.setdefault(text, len(self.texts))
        if n == len(self.texts):
            self.texts.append(text)
        self.seen[id(item)] = (item, n)
        return n


@dataclass
class DataMemo:
    """What emit_data made in the last build of this process (emit/state.py), for a watch rebuild:
    the serialized record and section replies by their pages (views.compute keeps the very page
    objects of an unchanged reply), and the serialized cards by their item objects (views/lists.item
    keeps an unchanged item's object)."""
    replies: dict[tuple, tuple] = field(default_factory=dict)   # (id(pages), id(note)) → (pages, note, text)
    cards: dict[int, tuple] = field(default_factory=dict)       # id(item) → (item, text)
    listings: dict[int, tuple] = field(default_factory=dict)    # id(pages) → (pages, shape, ids, text)

    def reply(self, view: View, note: dict | None, family: str, fresh: dict) -> str | None:
        """The stored text of a record or section reply, None for a section readers compute."""
        key = (id(view.pages), id(note))
        old = self.replies.get(key)
        if old is None or old[0] is not view.pages or old[1] is not note:
            text = None if family == "sections" and computed_from(note, view) else _json(list(view.pages))
            old = (view.pages, note, text)
        fresh[key] = old
        return old[2]


    def listing(self, pages: tuple[dict, ...], cards: Cards, fresh: dict) -> str:
        """The stored text of a listing: {"base", "ids"} when `pages` are exactly
        `paged(base, items)`, else {"pages"} as they are. The same pages (views.compute keeps an
        unchanged listing's) keep their shape, and their text while their cards keep their ids."""
        old = self.listings.get(id(pages))
        shape = old[1] if old is not None and old[0] is pages else _shape(pages)
        ids = tuple(cards.id_of(i) for i in shape[1]) if shape else None
        if old is None or old[0] is not pages or old[2] != ids:
            text = _json({"base": shape[0], "ids": list(ids)} if shape else {"pages": list(pages)})
            old = (pages, shape, ids, text)
        fresh[id(pages)] = old
        return old[3]


def _shape(pages: tuple[dict, ...]) -> tuple[dict, list] | None:
    """(base, items) when `pages` are exactly `paged(base, items)`, else None."""
    base = {k: v for k, v in pages[0].items() if k not in PAGING}
    items = [i for p in pages for i in p["items"]]
    return (base, items) if list(pages) == paged(base, items) else None


def family_of(view: View) -> str:
    page = view.pages[0].get("page")
    if page == "section":
        return "sections"
    if page == "record":
        return "records/" + refs.escape_segment(view.pages[0]["source"])
    return "lists"


def emit_data(writer: Writer, brain: str, views: Sequence[View], memo: DataMemo | None = None) -> list[str]:
    """Write `brain`'s compact data through `writer`; returns the paths written. `memo`: what the
    last build in this process made (DataMemo), left holding this build's."""
    memo = memo if memo is not None else DataMemo()
    cards, replies, listings = Cards(known=memo.cards), {}, {}
    families: dict[str, dict[str, str]] = {}      # family → key → serialized value
    notes = {v.ref: v.pages[0] for v in views if v.template == "note.html" and len(v.pages) == 1 and not v.variant}
    for view in views:
        if stored_in_files(view):
            continue
        family = family_of(view)
        if family == "lists":
            text = memo.listing(view.pages, cards, listings)
        else:
            note = notes.get(view.pages[0].get("note")) if family == "sections" else None
            text = memo.reply(view, note, family, replies)
            if text is None:
                continue
        families.setdefault(family, {})[refs.data_key(brain, view.ref, *view.variant)] = text
    root = data_dir(brain)
    files: list[tuple[str, str]] = []
    counts = {}
    for family, entries in sorted(families.items()):
        texts = hashed_packs(entries)
        counts[family] = len(texts)
        files += [(f"{root}/{family}/{i}.json", text) for i, text in enumerate(texts)]
    rows = timeline_rows(views, cards)   # before the cards are written: it adds the low-priority ones
    files += [(f"{root}/timeline/{start // TIMELINE_CHUNK}.json", _json(rows[start:start + TIMELINE_CHUNK]))
              for start in range(0, len(rows), TIMELINE_CHUNK)]
    files += [(f"{root}/cards/{start // CARD_CHUNK}.json", "[" + ",".join(cards.texts[start:start + CARD_CHUNK]) + "]")
              for start in range(0, len(cards.texts), CARD_CHUNK)]
    written = [writer.write_pack(path, text.encode("utf-8"), "data") for path, text in files]
    memo.replies, memo.listings = replies, listings
    memo.cards = {key: (item, cards.texts[n]) for key, (item, n) in cards.seen.items()}
    meta = {"format": FORMAT, "cards": len(cards.texts), "cardChunk": CARD_CHUNK, "packs": counts,
            "timeline": len(rows), "timelineChunk": TIMELINE_CHUNK}
    writer.write(f"{root}/meta.json", _json(meta), "data")
    written.append(f"{root}/meta.json")
    return written


def hashed_packs(entries: dict[str, str]) -> list[str]:
    """`entries` (key → its serialized value) as the JSON objects of n packs, n chosen so a pack
    holds about PACK_BYTES; a key is in pack `refs.pack_of(key, n)`, so a reader finds it by its
    key and n alone."""
    n = max(1, -(-sum(len(k) + len(v) for k, v in entries.items()) // PACK_BYTES))
    groups: list[list[str]] = [[] for _ in range(n)]
    for key in sorted(entries):
        groups[refs.pack_of(key, n)].append(f"{json.dumps(key, ensure_ascii=False)}:{entries[key]}")
    return ["{" + ",".join(group) + "}" for group in groups]


def computed_from(note: dict | None, view: View) -> bool:
    """Whether readers compute this section's reply exactly from its note's reply `note`."""
    return not view.variant and [section_reply(note, view.ref)] == list(view.pages)


def timeline_rows(views: Sequence[View], cards: Cards) -> list[list]:
    """The home view's timeline (views/calendar.timeline, newest first) as rows."""
    home = next((v for v in views if "timeline" in v.extra), None)
    entries = home.extra["timeline"] if home else []
    return [[e["placed"], e["source"], int(e["low"]), cards.id_of(e["item"])] for e in entries]


def _json(value) -> str:
    return canonical_json(value).decode("utf-8")
