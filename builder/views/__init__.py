"""compute(brain, as_of) → every precomputed read, as View objects. Pure: nothing is written here.

A View holds the reply pages of one read (page 0 first, then each later page by its
offset) and says which template shows it. Emitters turn Views into files.
"""
from __future__ import annotations

from ..kernel.model import Brain
from .computed import computed_views, review_signals
from .graph import Graph, graph
from .paging import paginate
from .memo import Memos
from .reads import back_stamp, claims_stamp, note_reply, record_reply, section_reply
from .view import View

__all__ = ["View", "compute"]


def compute(brain: Brain, as_of: str, g: Graph | None = None, paged: dict | None = None,
            items: dict | None = None, kept: dict | None = None) -> list[View]:
    """`paged`: ref → (reply, its pages) of the last compute in this process (bf serve --watch
    keeps it, emit/state.py); a reply equal to the last one keeps its pages (the same objects:
    paging is a function of the reply), and `paged` is left holding this compute's. `items`: the
    listed items of the last compute (views/lists.item), likewise. `kept`: what else the last
    compute made (views/memo.py), likewise."""
    g = g or graph(brain)
    memos = Memos(kept, (brain.name, brain.config, brain.sources, frozenset(brain.identities)))
    reviews = review_signals(brain, g, as_of)
    last = dict(paged or {})
    paged = {} if paged is None else paged
    paged.clear()

    def pages(ref: str, reply: dict, *how, **kw) -> tuple[dict, ...]:
        old = last.get(ref)
        if old is None or old[0] is not reply and old[0] != reply:
            old = (reply, tuple(paginate(reply, *how, **kw)))
        paged[ref] = old
        return old[1]

    problems: dict[str, list] = {}
    for p in brain.problems:
        problems.setdefault(p.path, []).append(p)
    views = []
    for ref, note in brain.notes.items():
        back = back_stamp(brain, g, ref)
        stamp = (note, brain.modified[ref], g.outgoing.get(ref), back, claims_stamp(brain, note),
                 problems.get(ref), reviews.get(ref))
        reply = memos["notes"](ref, stamp, lambda: note_reply(brain, g, note, reviews.get(ref)))
        views.append(View(brain.name, ref, "note.html", pages(ref, reply, divided=bool(note.sections))))
        for section in note.sections:
            sreply = memos["sections"](section.ref, (note, brain.modified[ref], back),
                                       lambda: section_reply(brain, g, note, section))
            views.append(View(brain.name, section.ref, None, pages(section.ref, sreply, divided=bool(sreply["outline"]))))
    for ref, rec in brain.records.items():
        stamp = (rec, g.outgoing.get(ref), back_stamp(brain, g, ref), problems.get(rec.path))
        reply = memos["records"](ref, stamp, lambda: record_reply(brain, g, rec))
        views.append(View(brain.name, ref, "record.html", pages(ref, reply, ("record", "text"))))
    views += computed_views(brain, g, as_of, reviews, items, memos)
    memos.done()
    return views
