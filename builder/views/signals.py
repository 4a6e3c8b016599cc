"""Review signals (docs/replies.md#review-signals): who gets reminders, and stale / newer_evidence / new_links.

Pure functions of the brain, its link graph and the build instant.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from ..kernel import refs
from ..kernel.model import Brain, Note
from .graph import Graph

PROJECT_STALE_DAYS = 30


def gets_reminders(note: Note) -> bool:
    """Projects and notes setting `stale_after`; never index.md, log.md, action attachments
    (notes inside actions/<action>/) or deprecated notes (deprecation closes a note)."""
    parts = note.ref.split("/")
    if note.deprecated or note.ref in ("index.md", "log.md") or (parts[0] == "actions" and len(parts) > 2):
        return False
    return note.type == "project" or note.stale_after_days is not None


def _made(brain: Brain, ref: str) -> datetime | None:
    """When an item linking to a note was made: a note's modification, a record's event time
    (observation never counts, docs/brain.md#times)."""
    if ref in brain.notes:
        return brain.modified[ref]
    if ref in brain.records:
        return brain.records[ref].time
    return None


def _days(days: float) -> str:
    return f"{int(days)}d" if float(days).is_integer() else f"{days}d"


def review(brain: Brain, g: Graph, note: Note, as_of: datetime) -> dict:
    """The signal fields of one note that gets reminders: `review`, `signals` (names raised),
    `stale_after`, `newer_evidence` and `new_links` (bf:// addresses, sorted)."""
    modified = brain.modified[note.ref]
    stale_days = note.stale_after_days if note.stale_after_days is not None else PROJECT_STALE_DAYS
    stale = as_of - modified > timedelta(days=stale_days)
    # Records naming the note by its ref or a name (resolved links only: an ambiguous name names
    # nothing) or naming an identity the note claims.
    named = {note.ref, *note.entities}
    newer = sorted({link.source for target in named for link in g.backlinks.get(target, ())
                    if link.source in brain.records
                    and (t := brain.records[link.source].time) is not None and modified < t <= as_of})
    linking = sorted({link.source for link in g.backlinks.get(note.ref, ())
                      if (t := _made(brain, link.source)) is not None and modified < t <= as_of})
    raised = [name for name, on in (("stale", stale), ("newer_evidence", newer), ("new_links", linking)) if on]
    return {
        "review": bool(raised), "signals": raised, "stale_after": _days(stale_days),
        "newer_evidence": [refs.uri(brain.name, r) for r in newer],
        "new_links": [refs.uri(brain.name, r) for r in linking],
    }


def all_reviews(brain: Brain, g: Graph, as_of: datetime) -> dict[str, dict]:
    """note ref → its signal fields, for every note that gets reminders."""
    return {ref: review(brain, g, note, as_of) for ref, note in brain.notes.items() if gets_reminders(note)}


def badge(signals: dict | None) -> dict:
    """What a listed item carries: `review` and the signal names, when the note gets reminders."""
    if signals is None:
        return {}
    return {"review": signals["review"], "signals": signals["signals"]}
