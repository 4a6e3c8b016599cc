"""Lookups derived once from a Brain: backlinks, their excerpts, outgoing links. Pure; no I/O."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import count, groupby
from operator import attrgetter

from ..kernel.model import Brain, Link
from ..kernel.text import cut, plain
from ..kernel.stretch import differing
from .memo import changed_keys, model_changes

BACKLINK_CHARS = 160   # a backlink's excerpt: the link in its context, as Obsidian's backlinks pane shows it
BACKLINK_LEAD = 40     # of which at most this much before the link


@dataclass(frozen=True)
class Graph:
    backlinks: dict[str, tuple[Link, ...]]      # target ref → resolved links to it
    outgoing: dict[str, tuple[Link, ...]]       # source ref → its links
    excerpts: dict[Link, str]                   # a backlink → what its source says around it


def graph(brain: Brain, known: dict | None = None, changes=model_changes) -> Graph:
    """`known`: the last graph in this process and the links, notes and records it was made of
    (emit/state.py), left holding this one's. An excerpt is a function of its source's object,
    so only the sources whose object or links changed are worked out again; an unchanged
    source's outgoing tuple and an unchanged target's backlinks tuple stay the same objects
    (views/delta.py finds what changed by identity). `changes`: memo.model_changes, or its
    caller's memo.Changes."""
    last = known.get("graph") if known else None
    if last is None:
        out = _group(brain.links)
        changed, back, excerpts = set(out), {}, {}
    else:
        old_out = last.outgoing
        out = _regroup(brain.links, known["links"], old_out) or _group(brain.links)
        differ = changed_keys(out, old_out)
        for source in differ:
            if source in out and out[source] == old_out.get(source):
                out[source] = old_out[source]
        objects = changes(brain.notes, known["notes"]) | changes(brain.records, known["records"])
        changed = {s for s in differ if out.get(s) is not old_out.get(s)} | {s for s in objects if s in out or s in old_out}
        back, excerpts = dict(last.backlinks), dict(last.excerpts)
        for source in changed:
            for link in old_out.get(source, ()):
                excerpts.pop(link, None)
    g = Graph(backlinks=back, outgoing=out, excerpts=excerpts)
    _relink(brain, g, last, changed)
    if known is not None:
        known.update(graph=g, links=brain.links, notes=brain.notes, records=brain.records)
    return g


def _group(links: tuple[Link, ...]) -> dict[str, tuple[Link, ...]]:
    """Each source's links, sources in the order brain.links lists them."""
    runs = [(source, tuple(run)) for source, run in groupby(links, attrgetter("source"))]
    out = dict(runs)
    if len(out) < len(runs):          # a source's links in several runs: joined, in order
        out = {}
        for source, run in runs:
            out[source] = out.get(source, ()) + run
    return out


def changed_runs(new: tuple[Link, ...], old: tuple[Link, ...]) -> tuple[set[str], int, int]:
    """The sources of the links in the stretch of `new` (brain.links) that differs from `old` by
    identity (kernel/stretch.py: the parse keeps an unchanged item's links), and the span
    new[lo:hi] of their whole runs (a source's links are one run: resolve_links)."""
    head, new_end, old_end = differing(new, old)
    sources = {link.source for link in new[head:new_end]} | {link.source for link in old[head:old_end]}
    lo, hi = head, new_end
    while lo > 0 and new[lo - 1].source in sources:
        lo -= 1
    while hi < len(new) and new[hi].source in sources:
        hi += 1
    return sources, lo, hi


def _regroup(new: tuple[Link, ...], old: tuple[Link, ...], old_out: dict) -> dict | None:
    """The last outgoing links with only the sources regrouped whose links lie in the stretch of
    brain.links that differs from the last (by identity: the parse keeps an unchanged item's
    links); None when one source's links are split. A source the stretch brings in takes its
    place in brain.links' order (a new record's links lie between other sources')."""
    sources, lo, hi = changed_runs(new, old)
    runs = [(source, tuple(run)) for source, run in groupby(new[lo:hi], attrgetter("source"))]
    found = dict(runs)
    if len(found) < len(runs):
        return None
    out = dict(old_out)
    for source in sources | found.keys():
        if source in found:
            out[source] = found[source]
        else:
            out.pop(source, None)
    if not found.keys() <= old_out.keys():   # in brain.links' order, as _group makes it
        out = {source: out[source] for source in dict.fromkeys(map(attrgetter("source"), new))}
    # every link in exactly one run: else some source's links were not in one run
    return out if sum(map(len, out.values())) == len(new) else None


def _backward(links) -> list[Link]:
    return [link for link in links if link.status == "resolved" and link.ref != link.source]


def _relink(brain: Brain, g: Graph, last: Graph | None, changed: set[str]) -> None:
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
    order = dict(zip(g.outgoing, count()))
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
    # by source as brain.links lists them, each's as written: a line linking several notes is
    # excerpted around its first link, in a full and a partial pass alike (not in set order)
    for source in sorted(changed & order.keys(), key=order.__getitem__):
        for link in _backward(g.outgoing[source]):
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
    if link.source in brain.records:   # one excerpt whichever note it links: one card in listings
        return cut(plain(brain.records[link.source].text), BACKLINK_CHARS)
    text = lines.get(link.source)
    if text is None:   # once per note: setdefault would split its text again for each link
        text = lines[link.source] = brain.notes[link.source].text.splitlines()
    if 0 < link.line <= len(text):
        return around(plain(text[link.line - 1]), link.target)   # the name as written, without #heading or |label
    return f"{link.relation}: {link.target}"


def around(text: str, needle: str, limit: int = BACKLINK_CHARS) -> str:
    """`text` cut to `limit` characters around the first `needle` (case-insensitive): from the
    word that starts at most BACKLINK_LEAD characters before it, '…' marking each cut; without
    the needle, its first `limit` characters."""
    text = text.strip()
    at = text.lower().find(needle.lower()) if needle else -1
    if len(text) <= limit or at <= BACKLINK_LEAD:
        return cut(text, limit)
    start = text.find(" ", at - BACKLINK_LEAD, at) + 1 or at
    return "…" + cut(text[start:], limit - 1)
