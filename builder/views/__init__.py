"""compute(brain, as_of) → every precomputed read, as View objects. No file is written here.

A View holds the reply pages of one read (page 0 first, then each later page by its
offset) and says which template shows it. Emitters turn Views into files.
"""
from __future__ import annotations

from ..kernel.model import Brain
from .computed import computed_views, review_signals
from .delta import Last, changed_items, changed_replies
from .graph import Graph, graph
from .paging import paginate
from .memo import Memos, ViewsMemo, model_changes
from .reads import (note_reply, note_stamp, problems_by_path, record_reply, record_stamp, section_reply,
                    section_stamp)
from .view import View

__all__ = ["View", "ViewsMemo", "compute"]


def compute(brain: Brain, as_of: str, g: Graph | None = None, memo: ViewsMemo | None = None) -> list[View]:
    """`memo`: what the last compute of this brain in this process made (bf serve --watch keeps
    it, emit/state.py), left holding this compute's: a reply equal to the last one keeps its
    pages (the same objects: paging is a function of the reply), a listed item its dict
    (views/lists.item), and the note, section and record views no change reaches are kept as
    they were (the same View objects: views/memo.py, views/delta.Last)."""
    g = g or graph(brain, memo and memo.graph, memo.changes if memo else model_changes)
    kept = memo.kept if memo is not None else None
    memos = Memos(kept, (brain.name, brain.config, brain.sources, frozenset(brain.identities)))
    last: Last | None = kept.get("last") if kept is not None else None
    reviews = review_signals(brain, g, as_of)
    paged = memo.paged if memo is not None else {}
    before = dict(paged)
    paged.clear()

    def pages(ref: str, reply: dict, *how, **kw) -> tuple[dict, ...]:
        old = before.get(ref)
        if old is None or old[0] is not reply and old[0] != reply:
            old = (reply, tuple(paginate(reply, *how, **kw)))
        paged[ref] = old
        return old[1]

    problems = problems_by_path(brain)
    changed = dirty = None
    if last is not None:
        changed = changed_items(brain, last, reviews, memo.changes)
        dirty = changed_replies(brain, g, last, changed, problems)
    if dirty is None:
        replies: dict[str, tuple[View, ...]] = {}
        todo = [*brain.notes, *brain.records]
    else:
        replies = _carry(brain, last, dirty, memos, before, paged)
        todo = [ref for ref in dirty if ref in brain.notes or ref in brain.records]
    for ref in todo:
        note = brain.notes.get(ref)
        if note is None:
            rec = brain.records[ref]
            stamp = record_stamp(brain, g, rec, problems.get(rec.path))
            reply = memos["records"](ref, stamp, lambda: record_reply(brain, g, rec, problems.get(rec.path, ())))
            replies[ref] = (View(brain.name, ref, "record.html", pages(ref, reply, ("record", "text"))),)
            continue
        stamp = note_stamp(brain, g, note, reviews.get(ref), problems.get(ref))
        reply = memos["notes"](ref, stamp, lambda: note_reply(brain, g, note, reviews.get(ref), problems.get(ref, ())))
        made = [View(brain.name, ref, "note.html", pages(ref, reply, divided=bool(note.sections)))]
        sections = section_stamp(stamp) if note.sections else None
        for section in note.sections:
            sreply = memos["sections"](section.ref, sections, lambda: section_reply(brain, g, note, section))
            made.append(View(brain.name, section.ref, None, pages(section.ref, sreply, divided=bool(sreply["outline"]))))
        replies[ref] = tuple(made)
    if dirty is not None and any(ref not in last.replies for ref in todo):
        replies = {ref: replies[ref] for ref in (*brain.notes, *brain.records)}   # a new item: in its place
    views = [view for made in replies.values() for view in made]
    then = last.as_of if last is not None and last.as_of != as_of else None
    views += computed_views(brain, g, as_of, reviews, memo and memo.items, memos, changed, dirty, then)
    memos.done()
    if kept is not None:
        kept["last"] = Last(brain, g, as_of, reviews, problems, replies)
    return views


def _carry(brain: Brain, last: Last, dirty: set[str], memos: Memos, before: dict, paged: dict) -> dict:
    """The note, section and record views of the last compute, with their memos and pages, but
    for those of the `dirty` refs (made again by the caller, in their places, or gone)."""
    stale = {view.ref for ref in dirty for view in last.replies.get(ref, ())}
    for family in ("notes", "sections", "records"):
        memos[family].carry(stale)
    paged.update(before)
    for ref in stale:
        paged.pop(ref, None)
    replies = dict(last.replies)
    for ref in dirty & replies.keys():
        if ref not in brain.notes and ref not in brain.records:
            del replies[ref]
    return replies
