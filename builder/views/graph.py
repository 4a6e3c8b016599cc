"""Lookups derived once from a Brain: backlinks, their excerpts, outgoing links. Pure; no I/O."""
from __future__ import annotations

from dataclasses import dataclass

from ..kernel.model import Brain, Link
from ..kernel.text import cut, plain


@dataclass(frozen=True)
class Graph:
    backlinks: dict[str, tuple[Link, ...]]      # target ref → resolved links to it
    outgoing: dict[str, tuple[Link, ...]]       # source ref → its links
    excerpts: dict[Link, str]                   # a backlink → what its source says around it


def graph(brain: Brain, known: dict | None = None) -> Graph:
    """`known`: what the last graph in this process made of each backlink's source (emit/state.py),
    left holding this one's: an excerpt is a function of its source's text, so a source object
    unchanged since keeps its excerpts."""
    back: dict[str, list[Link]] = {}
    out: dict[str, list[Link]] = {}
    for link in brain.links:
        out.setdefault(link.source, []).append(link)
        if link.status == "resolved" and link.ref != link.source:
            back.setdefault(link.ref, []).append(link)
    return Graph(
        backlinks={k: tuple(v) for k, v in back.items()},
        outgoing={k: tuple(v) for k, v in out.items()},
        excerpts=_excerpts(brain, [link for links in back.values() for link in links], known),
    )


def _excerpts(brain: Brain, links: list[Link], known: dict | None) -> dict[Link, str]:
    """Each backlink's excerpt, worked out once per source and line: a record's whole text
    (flattened), a note's line holding the link, else "RELATION: TARGET". `made` (source ref →
    (its object, {line: excerpt})) shares the work between links of one record or one line (a busy
    note's line links to several targets), and with the next build through `known`."""
    last = known if known is not None else {}
    made: dict[str, tuple[object, dict[int, str]]] = {}
    lines: dict[str, list[str]] = {}
    out = {}
    for link in links:
        is_record = link.source in brain.records
        line = -1 if is_record else link.line
        if line == 0:                       # no line: the excerpt names the link itself
            out[link] = _excerpt(brain, link, lines)
            continue
        source = made.get(link.source)
        if source is None:
            obj = brain.records[link.source] if is_record else brain.notes.get(link.source)
            old = last.get(link.source) if obj is not None else None
            source = made[link.source] = old if old is not None and old[0] is obj else (obj, {})
        if line not in source[1]:
            source[1][line] = _excerpt(brain, link, lines)
        out[link] = source[1][line]
    if known is not None:
        known.clear()
        known.update(made)
    return out


def _excerpt(brain: Brain, link: Link, lines: dict[str, list[str]]) -> str:
    if link.source in brain.records:
        return cut(" ".join(brain.records[link.source].text.split()))
    if link.line:
        text = lines.setdefault(link.source, brain.notes[link.source].text.splitlines())
        if 0 < link.line <= len(text):
            return cut(plain(text[link.line - 1]))
    return f"{link.relation}: {link.target}"
