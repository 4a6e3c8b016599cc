"""What changed since the last compute in this process (bf serve --watch), found by
identity: the parse keeps the same immutable objects for unchanged files and views/graph.py the
same link tuples for unchanged sources and targets, so a pass of pointer checks finds the few
refs an edit reaches. Views then make again only what those refs reach; the rest is kept."""
from __future__ import annotations

from dataclasses import dataclass
from operator import is_not, ne

from ..kernel.model import Brain
from .graph import Graph
from .memo import changed_keys, model_changes


@dataclass(frozen=True)
class Last:
    """What the last compute was made of (its brain, graph, instant, review signals, problems by
    path) and its note, section and record views by item ref."""
    brain: Brain
    g: Graph
    as_of: str
    reviews: dict[str, dict]
    problems: dict[str, list]
    replies: dict[str, tuple]


def changed_items(brain: Brain, last: Last, reviews: dict[str, dict], changes=model_changes) -> set[str]:
    """Refs whose listed item (views/lists.item) may differ: added, removed, another object,
    modification time or review signals."""
    old = last.brain
    out = changes(brain.notes, old.notes) | changes(brain.records, old.records)
    out |= changed_keys(brain.modified, old.modified, ne)
    out |= changed_keys(reviews, last.reviews, ne)
    # a section's item is made of its note
    return out | {s.ref for ref in out for note in (brain.notes.get(ref), old.notes.get(ref)) if note for s in note.sections}


def changed_replies(brain: Brain, g: Graph, last: Last, items: set[str], problems: dict[str, list]) -> set[str]:
    """Refs whose reply (views/reads.py) may differ: `items`, the sources whose links changed,
    every target those sources or `items` link or linked to (their backlinks show the source's
    links, excerpts and title), the notes whose claimed names changed holders, and the items
    whose problems changed."""
    lg = last.g
    sources = changed_keys(g.outgoing, lg.outgoing, is_not)
    out = items | sources
    for source in sources | items:
        for links in (g.outgoing.get(source, ()), lg.outgoing.get(source, ())):
            out.update(link.ref for link in links if link.ref)
    names = changed_keys(brain.names, last.brain.names, ne)
    if names:
        for name in names:
            out.update(brain.names.get(name, ()), last.brain.names.get(name, ()))
        out.update(ref for ref, note in brain.notes.items() if not names.isdisjoint(note.entities))
    paths = changed_keys(problems, last.problems, ne)
    if paths - brain.notes.keys():
        out.update(ref for ref, rec in brain.records.items() if rec.path in paths)
    return out | paths
