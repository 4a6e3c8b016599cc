"""Lookups derived once from a Brain: backlinks, their excerpts, outgoing links. Pure; no I/O."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from operator import attrgetter

from ..kernel.model import Brain, Link
from ..kernel.text import cut, plain


@dataclass(frozen=True)
class Graph:
    backlinks: dict[str, tuple[Link, ...]]      # target ref → resolved links to it
    outgoing: dict[str, tuple[Link, ...]]       # source ref → its links
    excerpts: dict[Link, str]                   # a backlink → what its source says around it


def graph(brain: Brain, known: dict | None = None) -> Graph:
    """`known`: the last graph in this process and the link sources' objects it was made of
    (emit/state.py), left holding this one's. An excerpt is a function of its source's object,
    so only the sources whose object or links changed are worked out again; an unchanged
    source's outgoing tuple and an unchanged target's backlinks tuple stay the same objects
    (views/delta.py finds what changed by identity)."""
    out: dict[str, tuple[Link, ...]] = {}
    for source, links in groupby(brain.links, attrgetter("source")):   # a source's links are one run
        out[source] = out.get(source, ()) + tuple(links)
    objects = {s: brain.notes.get(s) or brain.records.get(s) for s in out}
    last = known.get("graph") if known else None
    if last is None:
        changed, back, excerpts = list(out), {}, {}
    else:
        old_out, old_objects = last.outgoing, known["objects"]
        for source, links in out.items():
            old = old_out.get(source)
            if old is not None and old == links:
                out[source] = old
        changed = [s for s in out.keys() | old_out.keys()
                   if out.get(s) is not old_out.get(s) or objects.get(s) is not old_objects.get(s)]
        back, excerpts = dict(last.backlinks), dict(last.excerpts)
        for source in changed:
            for link in old_out.get(source, ()):
                excerpts.pop(link, None)
    g = Graph(backlinks=back, outgoing=out, excerpts=excerpts)
    _relink(brain, g, last, set(changed), objects)
    if known is not None:
        known.update(graph=g, objects=objects)
    return g


def _backward(links) -> list[Link]:
    return [link for link in links if link.status == "resolved" and link.ref != link.source]


def _relink(brain: Brain, g: Graph, last: Graph | None, changed: set[str], objects: dict) -> None:
    """Backlinks and excerpts of the targets the `changed` sources link or linked to, in the
    order a whole pass makes: by source, as brain.links lists them (within one, as written)."""
    fresh: dict[str, list[Link]] = {}
    touched = set()
    for source in changed:
        for link in _backward(g.outgoing.get(source, ())):
            fresh.setdefault(link.ref, []).append(link)
        if last is not None:
            touched.update(link.ref for link in _backward(last.outgoing.get(source, ())))
    touched.update(fresh)
    order = {s: i for i, s in enumerate(g.outgoing)}
    for target in touched:
        links = [l for l in g.backlinks.get(target, ()) if l.source not in changed] + fresh.get(target, [])
        links.sort(key=lambda l: order[l.source])
        old = g.backlinks.get(target)
        if not links:
            g.backlinks.pop(target, None)
        elif old is None or old != tuple(links):
            g.backlinks[target] = tuple(links)
    lines: dict[str, list[str]] = {}
    made: dict[tuple[str, int], str] = {}
    for links in fresh.values():
        for link in links:
            if link.source in brain.records:
                key = (link.source, -1)
            elif link.line:
                key = (link.source, link.line)
            else:                     # no line: the excerpt names the link itself
                g.excerpts[link] = f"{link.relation}: {link.target}"
                continue
            if key not in made:       # one record, or one line of a busy note, serves several links
                made[key] = _excerpt(brain, link, lines)
            g.excerpts[link] = made[key]


def _excerpt(brain: Brain, link: Link, lines: dict[str, list[str]]) -> str:
    if link.source in brain.records:
        return cut(" ".join(brain.records[link.source].text.split()))
    text = lines.setdefault(link.source, brain.notes[link.source].text.splitlines())
    if 0 < link.line <= len(text):
        return cut(plain(text[link.line - 1]))
    return f"{link.relation}: {link.target}"
