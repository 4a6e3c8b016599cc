"""compute(brain, as_of) → every precomputed read, as View objects. Pure: nothing is written here.

A View holds the reply pages of one read (page 0 first, then each later page by its
offset) and says which template shows it. Emitters turn Views into files.
"""
from __future__ import annotations

from ..kernel.model import Brain
from .computed import computed_views, review_signals
from .delta import Last, changed_items, changed_replies
from .graph import Graph, graph
from .paging import paginate
from .memo import Memos
from .reads import back_stamp, claims_stamp, note_reply, problems_by_path, record_reply, section_reply
from .view import View

__all__ = ["View", "compute"]


def compute(brain: Brain, as_of: str, g: Graph | None = None, paged: dict | None = None,
            items: dict | None = None, kept: dict | None = None) -> list[View]:
    """`paged`: ref → (reply, its pages) of the last compute in this process (bf serve --watch
    keeps it, emit/state.py); a reply equal to the last one keeps its pages (the same objects:
    paging is a function of the reply), and `paged` is left holding this compute's. `items`: the
    listed items of the last compute (views/lists.item), likewise. `kept`: what else the last
    compute made (views/memo.py, views/delta.Last), likewise: the note, section and record
    views no change reaches are kept as they were (the same View objects)."""
    g = g or graph(brain)
    memos = Memos(kept, (brain.name, brain.config, brain.sources, frozenset(brain.identities)))
    last: Last | None = kept.get("last") if kept is not None else None
    reviews = review_signals(brain, g, as_of)
    before = dict(paged or {})
    paged = {} if paged is None else paged
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
        changed = changed_items(brain, last, reviews)
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
            stamp = (rec, g.outgoing.get(ref), back_stamp(brain, g, ref), problems.get(rec.path))
            reply = memos["records"](ref, stamp, lambda: record_reply(brain, g, rec, problems.get(rec.path, ())))
            replies[ref] = (View(brain.name, ref, "record.html", pages(ref, reply, ("record", "text"))),)
            continue
        back = back_stamp(brain, g, ref)
        stamp = (note, brain.modified[ref], g.outgoing.get(ref), back, claims_stamp(brain, note),
                 problems.get(ref), reviews.get(ref))
        reply = memos["notes"](ref, stamp, lambda: note_reply(brain, g, note, reviews.get(ref), problems.get(ref, ())))
        made = [View(brain.name, ref, "note.html", pages(ref, reply, divided=bool(note.sections)))]
        for section in note.sections:
            sreply = memos["sections"](section.ref, (note, brain.modified[ref], back),
                                       lambda: section_reply(brain, g, note, section))
            made.append(View(brain.name, section.ref, None, pages(section.ref, sreply, divided=bool(sreply["outline"]))))
        replies[ref] = tuple(made)
    if dirty is not None and any(ref not in last.replies for ref in todo):
        replies = {ref: replies[ref] for ref in (*brain.notes, *brain.records)}   # a new item: in its place
    views = [view for made in replies.values() for view in made]
    then = last.as_of if last is not None and last.as_of != as_of else None
    views += computed_views(brain, g, as_of, reviews, items, memos, changed, dirty, then)
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
