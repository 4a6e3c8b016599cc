"""The compact data of a brain (docs/data.md): every reply that is not a note's or home's, written
once into packs instead of a file per reply page.

- listings (folders, tags, sources, undated, identities, memories, periods, relation pages) are a
  header plus an ordered list of card ids: a page at any offset is a slice plus card look-ups;
- cards (the listed items) are stored once each, in chunks of neighbours by ref, with ids that a
  new or removed card does not shift (cardids.py);
- records keep their reply pages whole, in packs per source; a section's reply is computed from its
  note's (query/sections.py), so only those it cannot give are kept, whole;
- the timeline (every placed item, newest first: what relative `Nd` periods are computed from) is
  rows [placed, source, low, card id] in chunks of about `TIMELINE_CHUNK`, so a recent period
  reads its first chunk or two instead of the whole brain.
A key's pack is `refs.pack_of(key, n)`, n chosen per family so a pack holds about `PACK_BYTES`
(hashpacks.py).

A watch rebuild (DataMemo) serializes only the replies whose pages are new, moves only the cards
that changed, joins again only the packs holding a changed entry and takes every unchanged file
from the previous site."""
from __future__ import annotations

import zlib
from collections.abc import Sequence
from contextlib import nullcontext
from itertools import chain, compress, count, repeat
from operator import is_
from dataclasses import dataclass, field

from ..kernel import refs
from ..kernel.canon import canonical_text
from ..kernel.listing import paged
from ..kernel.packs import packed_name
from ..kernel.formats import DATA_FORMAT
from ..views import View
from .cardids import STRIDE, CardIds
from .entries import Seen, came_went, entries, json_bytes
from .hashpacks import HashedPacks
from .stage import Stage, ViewsContext, paths
from .writer import Writer

__all__ = ["DataMemo", "emit_data", "stored_in_files"]

TIMELINE_CHUNK = 1024     # rows in a timeline chunk, on average
TIMELINE_MAX = 4 * TIMELINE_CHUNK
PAGING = ("items", "total", "offset", "next_offset")
TIMELINE = "\0"    # a timeline chunk's key among the holders of cards: this + its first ref


def data_dir(brain: str) -> str:
    return f"_bf/{refs.escape_segment(brain)}/data"


def stored_in_files(view: View) -> bool:
    """Notes (every page) and home stay reply files: the pages people open link them."""
    return view.template == "note.html" or (view.ref == "home" and not view.variant)


@dataclass
class Listing:
    """A listing's stored form: `base` and its items' card texts when its pages are exactly
    `paged(base, items)` (then `text` depends on the cards' ids), else its pages whole."""
    base: dict | None
    items: list
    cards: tuple[bytes, ...]
    text: bytes | None


@dataclass
class DataMemo:
    """What emit_data made, kept for the next build of this process (emit/state.py): views.compute
    keeps the very page objects of an unchanged reply, views/lists.item those of an unchanged item."""
    views: dict[int, tuple] = field(default_factory=dict)   # id(pages) → (pages, ref, variant, family, key, value, note)
    items: dict[int, tuple] = field(default_factory=dict)   # id(item) → (item, card text, starts_chunk)
    texts: dict[int, bytes] = field(default_factory=dict)   # id(item) → card text, for cards_of
    info: dict[bytes, tuple] = field(default_factory=dict)  # card text → (ref, timed)
    holding: dict[bytes, set] = field(default_factory=dict)   # card text → the keys of its holders
    holders: dict[str, frozenset] = field(default_factory=dict)   # listing key | TIMELINE + ref → its cards
    cards: CardIds = field(default_factory=CardIds)
    families: dict[str, HashedPacks] = field(default_factory=dict)
    timeline: list[tuple] = field(default_factory=list)     # per chunk: (entries, card texts, JSON)
    files: dict[str, tuple] = field(default_factory=dict)   # path → (JSON, digest of its pack file)
    seen: Seen = field(default_factory=Seen)                # the views of the last build (entries.py)

    def starts_chunk(self, entry: dict) -> bool:
        """Whether a timeline chunk starts at `entry`: its ref hashes to 0 mod TIMELINE_CHUNK."""
        return self._item(entry["item"])[2]

    def _item(self, item: dict) -> tuple:
        """(item, its card text, starts_chunk): views share item dicts between listings and builds."""
        old = self.items.get(id(item))
        if old is None:
            text = json_bytes(item)
            old = self.items[id(item)] = (item, text, zlib.crc32(item["ref"].encode("utf-8")) % TIMELINE_CHUNK == 0)
            self.texts[id(item)] = text
            self.info[text] = (item["ref"], "placed" in item)
        return old

    def listing(self, pages: tuple[dict, ...]) -> Listing:
        shape = _shape(pages)
        if shape is None:
            return Listing(None, [], (), json_bytes({"pages": list(pages)}))
        return Listing(shape[0], shape[1], self.cards_of(shape[1]), None)

    def cards_of(self, items: list[dict]) -> tuple[bytes, ...]:
        """The card text of each item: looked up by id() in one pass (a listing may hold every
        record of a brain); `items` keeps every item it knows alive, so an id is its item's."""
        texts = list(map(self.texts.get, map(id, items)))
        for i in compress(count(), map(is_, texts, repeat(None))):   # new items: few
            texts[i] = self._item(items[i])[1]
        return tuple(texts)

    def hold(self, holder: str, cards: frozenset, touched: set[str]) -> None:
        """`holder` now holds `cards` (empty: gone); `touched` gathers the cards whose count changed."""
        old = self.holders.pop(holder, frozenset())
        if cards:
            self.holders[holder] = cards
        for text in cards - old:
            self.holding.setdefault(text, set()).add(holder)
            touched.add(text)
        for text in old - cards:
            self.holding[text].discard(holder)
            touched.add(text)


def _shape(pages: tuple[dict, ...]) -> tuple[dict, list] | None:
    """(base, items) when `pages` are exactly `paged(base, items)`, else None."""
    base = {k: v for k, v in pages[0].items() if k not in PAGING}
    items = list(chain.from_iterable(p["items"] for p in pages))
    return (base, items) if list(pages) == paged(base, items) else None


def emit_data(writer: Writer, brain: str, views: Sequence[View], memo: DataMemo | None = None,
              came_went=came_went) -> list[str]:
    """Write `brain`'s compact data through `writer`; returns the paths written. `memo`: what the
    last build in this process made (DataMemo), left holding this build's; `came_went`:
    entries.came_went, or the build's entries.CameWent. Without a memo nothing is kept for a next
    build: each step lets go of what the next does not need, and the packs are compressed and
    written a few megabytes at a time (the build's peak of memory is here: docs/performance.md#reading-a-run)."""
    once = memo is None
    memo = memo if memo is not None else DataMemo()
    chunks, moved = _gather(brain, views, memo, came_went)
    ids = memo.cards.ids
    root, files, counts = data_dir(brain), {}, {}
    memo.timeline = []
    for part, cards, text in chunks:
        if text is None or moved and not moved.isdisjoint(cards):
            text = json_bytes([[e["placed"], e["source"], int(e["low"]), ids[t]] for e, t in zip(part, cards)])
        memo.timeline.append((part, cards, text))
    timeline = [c[2] for c in memo.timeline]
    meta = {"format": DATA_FORMAT, "cards": len(ids), "cardChunk": STRIDE, "packs": counts,
            "timeline": sum(len(c[0]) for c in chunks), "timelineChunks": len(chunks)}
    if once:   # what holds the cards' texts goes; their chunks stay
        del chunks, ids, moved
        _forget(memo)
    for family in sorted(memo.families):
        packs = memo.families[family]
        if not packs.entries:
            del memo.families[family]
            continue
        texts = packs.packs()
        counts[family] = len(texts)
        files.update((f"{root}/{family}/{i}.json", text) for i, text in enumerate(texts))
        if once:
            del memo.families[family], packs   # its entries, joined into `texts`
    files.update((f"{root}/timeline/{k}.json", text) for k, text in enumerate(timeline))
    files.update((f"{root}/cards/{slot}.json", memo.cards.chunks[slot]) for slot in sorted(memo.cards.chunks))
    if once:
        memo.cards = CardIds()
    written = _write(writer, files, memo, once)
    writer.write(f"{root}/meta.json", canonical_text(meta), "data")
    if not once:
        _prune(memo)
    return written + [f"{root}/meta.json"]


def _gather(brain: str, views: Sequence[View], memo: DataMemo, came_went) -> tuple[list[tuple], set]:
    """The views' entries into `memo`'s families, their cards numbered, the listings' texts made:
    (timeline chunks, the cards whose id moved)."""
    fresh, new, home = entries(brain, views, memo, came_went)
    touched: set[str] = set()
    keys, last = {e[4] for e in new}, memo.views
    gone = [last[k] for k in last.keys() - fresh.keys()] + [last[id(e[0])] for e in new if id(e[0]) in last]
    for old in gone:
        if old[4] not in keys and old[3] in memo.families:
            memo.families[old[3]].drop(old[4])
            memo.hold(old[4], frozenset(), touched)
    for e in new:
        family, key, value = e[3], e[4], e[5]
        if family == "lists":
            memo.hold(key, frozenset(value.cards), touched)
            if value.base is None:
                memo.families.setdefault(family, HashedPacks()).set(key, value.text)
        elif value is None:
            memo.families.get(family, HashedPacks()).drop(key)
        else:
            memo.families.setdefault(family, HashedPacks()).set(key, value)
    chunks = _timeline(home.extra["timeline"] if home else [], memo, touched)
    moved = _renumber(memo, touched)
    ids = memo.cards.ids
    lists = memo.families.setdefault("lists", HashedPacks())
    for e in _holding(memo, fresh, new, moved):
        listing = e[5]
        if e[3] == "lists" and listing.base is not None and (listing.text is None or not moved.isdisjoint(listing.cards)):
            listing.text = json_bytes({"base": listing.base, "ids": list(map(ids.__getitem__, listing.cards))})
            lists.set(e[4], listing.text)
    memo.views = fresh
    return chunks, moved


def _forget(memo: DataMemo) -> None:
    """Let go of all but the families' entries and the cards' chunks: a memo no build keeps."""
    memo.views, memo.items, memo.texts, memo.info, memo.holding, memo.holders = {}, {}, {}, {}, {}, {}
    memo.timeline = []
    memo.cards = CardIds(chunks=memo.cards.chunks)


def _holding(memo: DataMemo, fresh: dict[int, tuple], new: list[tuple], moved: set[str]) -> list[tuple]:
    """The new entries and those of the listings holding a card whose id `moved` (found from the
    cards' holders: a new record moves a few ids, and a look at every listing's cards, 400k at
    10k notes, costs more than the rest of the step)."""
    if not moved:
        return new
    listed = {holder for text in moved for holder in memo.holding.get(text, ())}
    todo = {id(e[0]): e for e in new}
    todo.update((id(e[0]), e) for e in fresh.values() if e[4] in listed)
    return list(todo.values())


def _timeline(entries: list[dict], memo: DataMemo, touched: set[str]) -> list[tuple]:
    """The home view's timeline (views/calendar.timeline, newest first, its entries the same
    objects while unchanged) in chunks: (entries, card texts, JSON or None to make). A chunk
    starts at an item whose ref hashes to 0 mod TIMELINE_CHUNK (or TIMELINE_MAX rows on), so an
    added or removed item changes its own chunk only; a chunk of the last build found again is
    taken whole."""
    last = {id(c[0][0]): c for c in memo.timeline}
    chunks, start, n = [], 0, len(entries)
    while start < n:
        old = last.get(id(entries[start]))
        end = start + len(old[0]) if old is not None else n + 1
        if end <= n and (end == n or end - start == TIMELINE_MAX or memo.starts_chunk(entries[end])) \
                and tuple(entries[start:end]) == old[0]:
            chunks.append(old)
        else:
            end = start + 1
            while end < n and end - start < TIMELINE_MAX and not memo.starts_chunk(entries[end]):
                end += 1
            part = tuple(entries[start:end])
            chunks.append((part, memo.cards_of([e["item"] for e in part]), None))
        start = end
    kept = {id(c) for c in chunks if c[2] is not None}
    for c in memo.timeline:
        if id(c) not in kept:
            memo.hold(TIMELINE + c[0][0]["item"]["ref"], frozenset(), touched)
    for c in chunks:
        if c[2] is None:
            memo.hold(TIMELINE + c[0][0]["item"]["ref"], frozenset(c[1]), touched)
    return chunks


def _renumber(memo: DataMemo, touched: set[str]) -> set[str]:
    """Give the cards held for the first time ids, drop those no longer held; returns the cards
    whose id moved."""
    known = memo.cards.keys
    added = {t: memo.info[t] for t in touched if memo.holding.get(t) and t not in known}
    removed = {t for t in touched if not memo.holding.get(t) and t in known}
    for t in touched:
        if t in memo.holding and not memo.holding[t]:
            del memo.holding[t]
    return memo.cards.update(added, removed)


WRITE_BATCH = 8 << 20   # bytes of JSON compressed and written at a time (a pack is ~PACK_BYTES)


def _write(writer: Writer, files: dict[str, bytes], memo: DataMemo, once: bool) -> list[str]:
    """Each file as a pack; one whose JSON is the last build's is taken from the previous site.
    `once`: no build keeps `memo`, and each file's JSON goes once written."""
    last, memo.files = memo.files, {}
    written = list(map(packed_name, files))
    todo = [path for path, text in files.items()
            if (old := last.get(path)) is None or old[0] != text or not writer.keep(packed_name(path), old[1], "data")]
    batch, size = [], 0
    for i, path in enumerate(todo):
        batch.append(path)
        size += len(files[path])
        if size >= WRITE_BATCH or i == len(todo) - 1:
            # several packs at once: compressed in threads (a new record changes several large lists)
            writer.write_packs([(p, files[p]) for p in batch], "data")
            if once:
                for p in batch:
                    del files[p]
            batch, size = [], 0
    if not once:
        for path, text in files.items():
            memo.files[path] = (text, writer.digests[packed_name(path)])
    return written


def _prune(memo: DataMemo) -> None:
    """Forget the items no listing or timeline chunk holds any more, once they are many."""
    if len(memo.items) < 2 * len(memo.holding) + 4096:
        return
    live = [i for e in memo.views.values() if e[3] == "lists" for i in e[5].items]
    live += [e["item"] for part, _, _ in memo.timeline for e in part]
    memo.items = {id(i): memo.items[id(i)] for i in live if id(i) in memo.items}
    memo.texts = {k: memo.texts[k] for k in memo.items}
    memo.info = {t: memo.info[t] for t in memo.holding}


@paths
def _stage(ctx: ViewsContext) -> None:
    if ctx.started is not None:
        ctx.writer.merge(*ctx.started.get())
    else:
        emit_data(ctx.writer, ctx.brain.name, ctx.views, ctx.memo, ctx.came_went)


ASIDE_VIEWS = 5000   # fewer views' data are computed faster than a child is forked and merged


def _aside(ctx: ViewsContext):
    """A build that keeps nothing and computes its index side beside (bf build on two cores or
    more) computes the compact data in a child of its own, begun with the pages: the index side
    busies the other core until it is done, then the data have it, instead of the build's
    process running the two stages one after the other while that core idles (on a brain whose
    pages take longer than its index: docs/code.md)."""
    if ctx.memo is not None or not ctx.beside:
        return nullcontext(None)
    return ctx.spread.aside(_data_part, ctx, worth=len(ctx.views) > ASIDE_VIEWS)


def _data_part(ctx: ViewsContext) -> tuple:
    part = ctx.writer.part()
    emit_data(part, ctx.brain.name, ctx.views, None, ctx.came_went)
    return part.record()


DATA = Stage("data", "views", "render", _stage, memo=DataMemo, start=_aside)
