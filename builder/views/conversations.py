"""A record's conversation and its neighbours there (SPEC §2.2, §5; issue 16). Pure: no I/O.

A conversation is the records of one source that share a `thread` value, or — records without
one — that are placed (event time, else observed) on the same day in the brain's timezone.
A record with neither a thread nor a placement time is a conversation of its own. Records
of a conversation are ordered by placement time (undated last), then ref; a record's
neighbours at distance k are the records k places before and after it.

Conversations are numbered from 1 in the order of their first record by ref (the index's doc
order), so the index can tell the query engine each record's conversation in a small integer.
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from ..kernel.model import Brain, Record

_LAST = datetime.max.replace(tzinfo=ZoneInfo("UTC"))


def _key(rec: Record, zone: ZoneInfo) -> tuple:
    if rec.thread is not None:
        return (rec.source, "thread", rec.thread)
    if rec.placed is not None:
        return (rec.source, "day", rec.placed.astimezone(zone).date().isoformat())
    return (rec.source, "ref", rec.ref)


def conversations(brain: Brain) -> list[list[Record]]:
    """The brain's conversations, numbered by position + 1, each in conversation order."""
    zone = ZoneInfo(brain.config.timezone)
    groups: dict[tuple, list[Record]] = {}
    for ref in sorted(brain.records):
        rec = brain.records[ref]
        groups.setdefault(_key(rec, zone), []).append(rec)
    return [sorted(recs, key=lambda r: (r.placed or _LAST, r.ref)) for recs in groups.values()]


def neighbourhood(brain: Brain, window: int) -> dict[str, tuple[int, list[list[str]]]]:
    """{record ref: (conversation number, [texts at distance 1, …, window])}."""
    out = {}
    for number, recs in enumerate(conversations(brain), 1):
        for i, rec in enumerate(recs):
            near = [[recs[j].text for j in (i - k, i + k) if 0 <= j < len(recs)] for k in range(1, window + 1)]
            out[rec.ref] = (number, near)
    return out
