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


def graph(brain: Brain) -> Graph:
    back: dict[str, list[Link]] = {}
    out: dict[str, list[Link]] = {}
    for link in brain.links:
        out.setdefault(link.source, []).append(link)
        if link.status == "resolved" and link.ref != link.source:
            back.setdefault(link.ref, []).append(link)
    return Graph(
        backlinks={k: tuple(v) for k, v in back.items()},
        outgoing={k: tuple(v) for k, v in out.items()},
        excerpts=_excerpts(brain, [link for links in back.values() for link in links]),
    )


def _excerpts(brain: Brain, links: list[Link]) -> dict[Link, str]:
    """Each backlink's excerpt, worked out once per build: a record's whole text (flattened), a
    note's line holding the link, else "RELATION: TARGET". `made` shares the work between links
    of one record or one line (a busy note's line links to several targets)."""
    made: dict[tuple[str, int], str] = {}
    lines: dict[str, list[str]] = {}
    out = {}
    for link in links:
        key = (link.source, -1 if link.source in brain.records else link.line)
        if key[1] == 0:                     # no line: the excerpt names the link itself
            out[link] = _excerpt(brain, link, lines)
            continue
        if key not in made:
            made[key] = _excerpt(brain, link, lines)
        out[link] = made[key]
    return out


def _excerpt(brain: Brain, link: Link, lines: dict[str, list[str]]) -> str:
    if link.source in brain.records:
        return cut(" ".join(brain.records[link.source].text.split()))
    if link.line:
        text = lines.setdefault(link.source, brain.notes[link.source].text.splitlines())
        if 0 < link.line <= len(text):
            return cut(plain(text[link.line - 1]))
    return f"{link.relation}: {link.target}"
