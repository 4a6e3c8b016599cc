"""A record's conversation and its neighbours there (docs/brain.md#records). Pure: no I/O.

A conversation is the records of one source that share a `thread` value, or — records without
one — that are placed (event time, else observed) on the same day in the brain's timezone.
A record with neither a thread nor a placement time is a conversation of its own. Records
of a conversation are ordered by placement time (undated last), then ref; a record's
neighbours at distance k are the records k places before and after it.

A source's conversations are numbered from 1 in the order of their first record by ref (the
index's doc order within the source's group), so the index can tell the query engine each
record's conversation in a small integer: with its source, it names the conversation. Per
source, so a conversation added to one source renumbers no other source's.
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from ..kernel.model import Brain, Record
from .memo import model_changes

_LAST = datetime.max.replace(tzinfo=ZoneInfo("UTC"))


def _key(rec: Record, zone: ZoneInfo) -> tuple:
    if rec.thread is not None:
        return (rec.source, "thread", rec.thread)
    if rec.placed is not None:
        return (rec.source, "day", rec.placed.astimezone(zone).date().isoformat())
    return (rec.source, "ref", rec.ref)


def _order(rec: Record) -> tuple:
    return (rec.placed or _LAST, rec.ref)


class Neighbourhood:
    """{record ref: (its conversation's number in its source, [texts at distance 1, …, window])}
    of one brain, kept between builds: `update` redoes only the conversations a changed,
    added or removed record is or was in, and renumbers only their sources."""

    def __init__(self, window: int):
        self.window, self.zone, self.records = window, None, {}
        self.keys: dict[str, tuple] = {}               # record ref -> its conversation's key
        self.members: dict[tuple, list[Record]] = {}   # key -> its records, in conversation order
        self.numbers: dict[tuple, int] = {}
        self.first: dict[tuple, str] = {}              # key -> its first record's ref (numbering)
        self.out: dict[str, tuple[int, list[list[str]]]] = {}
        self.redone: set[str] = set()                  # refs whose entry the last update made or dropped

    def update(self, brain: Brain, changes=model_changes) -> dict[str, tuple[int, list[list[str]]]]:
        """The neighbourhood of `brain`'s records (the same dict, updated in place); `changes`:
        memo.model_changes or a memo.Changes."""
        if brain.config.timezone != self.zone:   # every day moves: start again
            self.__init__(self.window)
            self.zone = brain.config.timezone
        zone, new = ZoneInfo(self.zone), brain.records
        touched: set[tuple] = set()
        changed = changes(new, self.records)
        self.redone = set(changed)
        for ref in changed:
            key = self.keys.pop(ref, None)
            if key is not None:
                self.members[key] = [r for r in self.members[key] if r.ref != ref]
                touched.add(key)
            rec = new.get(ref)
            if rec is not None:
                key = self.keys[ref] = _key(rec, zone)
                self.members.setdefault(key, []).append(rec)
                touched.add(key)
            else:
                self.out.pop(ref, None)
        self.records = new   # the model's: never mutated
        for key in touched:
            recs = self.members[key]
            if not recs:
                del self.members[key], self.numbers[key], self.first[key]
            else:
                recs.sort(key=_order)
                self.first[key] = min(r.ref for r in recs)
        redo = {key for key in touched if key in self.members}
        for source in {key[0] for key in touched}:
            redo |= self._renumber(source)
        for key in redo:
            number, recs = self.numbers[key], self.members[key]
            for i, rec in enumerate(recs):
                self.redone.add(rec.ref)
                self.out[rec.ref] = (number, [[recs[j].text for j in (i - k, i + k) if 0 <= j < len(recs)]
                                              for k in range(1, self.window + 1)])
        return self.out

    def _renumber(self, source: str) -> set[tuple]:
        """Number `source`'s conversations; the keys whose number changed."""
        mine = sorted((first, key) for key, first in self.first.items() if key[0] == source)
        moved = set()
        for number, (_, key) in enumerate(mine, 1):
            if self.numbers.get(key) != number:
                self.numbers[key] = number
                moved.add(key)
        return moved
