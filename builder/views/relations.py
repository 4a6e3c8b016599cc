"""Relation pages (SPEC §4.4): every item linking to a note, record or identity through one
relation, newest first, 50 a page. Only relations in use for a target get a file; any other
valid relation reads as an empty page (query/read.py)."""
from __future__ import annotations

from ..kernel import refs
from ..kernel.listing import newest_first, paged
from .items import title_of
from .view import View
from .lists import TEMPLATE, Ctx, item
from .reads import backlinks


def relation_views(ctx: Ctx) -> list[View]:
    brain = ctx.brain
    views = []
    for target in sorted(ctx.g.backlinks):
        if target not in brain.notes and target not in brain.records and target not in brain.identities:
            continue      # an attachment embedded somewhere: no page of its own
        by_relation: dict[str, dict[str, str]] = {}
        for b in backlinks(brain, ctx.g, target):
            # One item per linking item: its first link's line gives the excerpt.
            by_relation.setdefault(b["relation"], {}).setdefault(b["ref"], b["excerpt"])
        for relation, sources in sorted(by_relation.items()):
            base = {"page": "relation", "brain": brain.name, "ref": target, "uri": refs.uri(brain.name, target),
                    "title": title_of(brain, target), "relation": relation}
            items = newest_first([item(ctx, ref, timed=True, excerpt=excerpt) for ref, excerpt in sources.items()])
            views.append(View(brain.name, target, TEMPLATE, tuple(paged(base, items)), variant=("r", relation)))
    return views
