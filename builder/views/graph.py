"""Lookups derived once from a Brain: backlinks, mentions of identities, claims. Pure; no I/O."""
from __future__ import annotations

from dataclasses import dataclass

from ..model import Brain, Link


@dataclass(frozen=True)
class Graph:
    backlinks: dict[str, tuple[Link, ...]]      # target ref → resolved links to it
    outgoing: dict[str, tuple[Link, ...]]       # source ref → its links


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
    )
