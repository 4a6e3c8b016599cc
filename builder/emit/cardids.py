"""Card ids of the compact data (docs/data.md): a function of the set of cards alone, and stable
under adding or removing cards, so a new record or a deleted note rewrites its own chunk and the
listings that hold it, not every listing whose cards come after it.

Cards sort by (ref, timed, text). A ref whose hash is 0 mod `SEGMENT` starts a segment (content-
defined: an insertion moves no boundary but its own); a segment of more than `RUN` cards is cut
before its refs of least hash, likewise. A run is one chunk file, its cards neighbours
by ref (a folder's notes, a source's records: a listing page reads a few chunks, and like cards
compress well together). Its slot among M (a power of two ≥ SPREAD runs) is its key's hash, probed
linearly in order of (hash, key); a card's index in its run is its ref's hash, probed likewise.
Card id = slot * STRIDE + index: an added card takes a free index, mostly moving no other."""
from __future__ import annotations

import bisect
import zlib
from dataclasses import dataclass, field

# Sparse on purpose: a table load of 1/1.5 (runs of up to 3/4 of their indices) made probe chains
# shift, so removing a ref moved several times more other cards than at these ratios; the ids
# take a digit more, the listings ~1% more bytes. A run of ~SEGMENT cards keeps the chunk files
# few (docs/decisions.md, "What a site costs per note").
SEGMENT = 1024    # a segment holds ~SEGMENT cards
RUN = 1280        # at most this many cards in a run (a chunk file)
STRIDE = 4096     # indices per run: a run's cards are at most RUN / STRIDE of them
SPREAD = 4        # slots per run in the table of runs


def _hash(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


@dataclass
class CardIds:
    keys: dict[bytes, tuple] = field(default_factory=dict)    # card text → (ref, timed, text)
    order: list[tuple] = field(default_factory=list)          # the keys, sorted
    per_ref: dict[str, int] = field(default_factory=dict)     # ref → its number of cards
    anchors: list[str] = field(default_factory=lambda: [""])  # sorted refs starting a segment; "": the first
    runs: dict[str, list[tuple]] = field(default_factory=dict)  # anchor → its runs: (key, index → text|None)
    slots: dict[str, int] = field(default_factory=dict)        # run key → slot
    ids: dict[bytes, int] = field(default_factory=dict)        # card text → id
    chunks: dict[int, bytes] = field(default_factory=dict)     # slot → the chunk file's JSON

    def update(self, added: dict[bytes, tuple[str, bool]], removed: set[bytes]) -> set[bytes]:
        """Remove the cards `removed`, add `added` (text → (ref, timed)); returns the cards kept
        whose id changed."""
        if len(added) + len(removed) > len(self.order) // 8:      # a first build: sort once
            dirty = self._reset(added, removed)
        else:
            dirty = self._change(added, removed)
        changed = {key for anchor in dirty for key in self._cut(anchor)}
        if changed:
            changed |= self._place()
        moved = set()
        runs = {key: run for anchor in dirty for key, run in self.runs.get(anchor, ())}
        for key in changed:
            if key not in self.slots:
                continue
            slot = self.slots[key]
            run = runs[key] if key in runs else self._run(key)
            self.chunks[slot] = _chunk(run)
            for index, text in enumerate(run):
                if text is not None:
                    old = self.ids.get(text)
                    if old != slot * STRIDE + index:
                        self.ids[text] = slot * STRIDE + index
                        if old is not None:
                            moved.add(text)
        for text in removed:
            self.ids.pop(text, None)
        return moved - removed

    def _change(self, added: dict[bytes, tuple[str, bool]], removed: set[bytes]) -> set[str]:
        """Apply a few changes in place; returns the anchors of the segments they touch."""
        dirty: set[str] = set()
        for text in removed:
            key = self.keys.pop(text)
            ref = key[0]
            del self.order[bisect.bisect_left(self.order, key)]
            self.per_ref[ref] -= 1
            if not self.per_ref[ref]:
                del self.per_ref[ref]
                if _starts(ref):
                    self.anchors.pop(bisect.bisect_left(self.anchors, ref))
                    dirty.add(ref)
            dirty.add(self._anchor(ref))
        for text, (ref, timed) in added.items():
            key = self.keys[text] = (ref, int(timed), text)
            bisect.insort(self.order, key)
            if ref not in self.per_ref and _starts(ref):
                dirty.add(self._anchor(ref))    # the segment it splits
                bisect.insort(self.anchors, ref)
            self.per_ref[ref] = self.per_ref.get(ref, 0) + 1
            dirty.add(self._anchor(ref))
        return dirty

    def _reset(self, added: dict[bytes, tuple[str, bool]], removed: set[bytes]) -> set[str]:
        """Apply many changes at once; returns every anchor, old and new."""
        for text in removed:
            del self.keys[text]
        self.keys.update((text, (ref, int(timed), text)) for text, (ref, timed) in added.items())
        self.order = sorted(self.keys.values())
        self.per_ref = {}
        for ref, _, _ in self.order:
            self.per_ref[ref] = self.per_ref.get(ref, 0) + 1
        old = set(self.anchors)
        self.anchors = [""] + [ref for ref in self.per_ref if _starts(ref)]
        return old | set(self.anchors)

    def _run(self, key: str) -> list:
        """The cards of run `key` by index (a run that kept its cards but moved)."""
        anchor = self._anchor(key.partition("\0")[0])
        return next(run for k, run in self.runs[anchor] if k == key)

    def _anchor(self, ref: str) -> str:
        """The anchor of the segment holding `ref`."""
        return self.anchors[bisect.bisect_right(self.anchors, ref) - 1]

    def _cut(self, anchor: str) -> set[str]:
        """Cut `anchor`'s segment into runs again; returns the runs (old and new) that changed."""
        old = dict(self.runs.pop(anchor, []))
        runs = []
        i = bisect.bisect_left(self.anchors, anchor)
        if i < len(self.anchors) and self.anchors[i] == anchor:
            lo = bisect.bisect_left(self.order, (anchor,)) if anchor else 0
            nxt = self.anchors[i + 1] if i + 1 < len(self.anchors) else None
            hi = bisect.bisect_left(self.order, (nxt,)) if nxt is not None else len(self.order)
            runs = [(key, _indexed(part)) for key, part in _split(anchor, self.order[lo:hi])]
        if runs:
            self.runs[anchor] = runs
        new = dict(runs)
        return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}

    def _place(self) -> set[str]:
        """Give every run its slot again; returns the runs whose slot changed."""
        keys = [key for runs in self.runs.values() for key, _ in runs]
        size = 1
        while size < SPREAD * len(keys):
            size *= 2
        taken: set[int] = set()
        slots = {}
        for pref, key in sorted((_hash(key) % size, key) for key in keys):
            while pref in taken:
                pref = (pref + 1) % size
            taken.add(pref)
            slots[key] = pref
        moved = {key for key, slot in slots.items() if self.slots.get(key) != slot}
        for key, slot in self.slots.items():
            if key in moved or key not in slots:
                self.chunks.pop(slot, None)
        self.slots = slots
        return moved


def _split(key: str, keys: list[tuple]) -> list[tuple[str, list[tuple]]]:
    """A segment's cards as runs of at most RUN, (run key, cards): a longer one is cut before the
    refs of least hash, as few as needed (again content-defined: a new ref moves a cut only when
    its hash is among the least), each part likewise."""
    if len(keys) <= RUN:
        return [(key, keys)]
    starts = [i for i in range(1, len(keys)) if keys[i][0] != keys[i - 1][0]]
    if not starts:
        return [(key, keys[:RUN])] + _split(f"{key}\0", keys[RUN:])
    cuts = sorted(sorted(starts, key=lambda i: _hash(keys[i][0]))[:-(-len(keys) // RUN) - 1])
    bounds = [0, *cuts, len(keys)]
    return [run for lo, hi in zip(bounds, bounds[1:])
            for run in _split(keys[lo][0] if lo else key, keys[lo:hi])]


def _chunk(run: list) -> bytes:
    """A run's JSON array: the card texts are JSON bytes (half a str's memory when a card holds
    one character beyond Latin-1, as most record titles' "…" does)."""
    return b"[" + b",".join(b"null" if t is None else t for t in run) + b"]"


def _starts(ref: str) -> bool:
    return _hash(ref) % SEGMENT == 0


def _indexed(keys: list[tuple]) -> list:
    """A run's cards by index: each at its ref's hash (timed next to untimed), probed linearly."""
    run: list = [None] * STRIDE
    for ref, timed, text in keys:
        i = (_hash(ref) + timed) % STRIDE
        while run[i] is not None:
            i = (i + 1) % STRIDE
        run[i] = text
    while run and run[-1] is None:
        run.pop()
    return run
