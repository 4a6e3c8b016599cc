"""Relation pages (docs/replies.md#relations): every item linking to a note, record or identity through one
relation, newest first, 50 a page. Only relations in use for a target get a file; any other
valid relation reads as an empty page (query/read.py)."""
from __future__ import annotations

from ..kernel import refs
from ..kernel.listing import newest_first, paged
from .items import title_of
from .view import View
from .lists import TEMPLATE, Ctx, item


def relation_views(ctx: Ctx) -> list[View]:
    """A target's pages are made again when its reply may have changed (Ctx.dirty: its backlinks,
    their sources' items and excerpts, its title), else kept as the last compute made them."""
    memo, views = ctx.memos["relations"], []
    for target in sorted(ctx.g.backlinks):
        kept = memo.keep(target) if ctx.dirty is not None and target not in ctx.dirty else None
        views += kept if kept is not None else _target_views(ctx, target)
    return views


def _target_views(ctx: Ctx, target: str) -> list[View]:
    brain = ctx.brain
    if target not in brain.notes and target not in brain.records and target not in brain.identities:
        return []      # an attachment embedded somewhere: no page of its own
    by_relation: dict[str, dict[str, str]] = {}
    # One item per linking item: its first link's line gives the excerpt (reads.backlinks' order).
    for link in sorted(ctx.g.backlinks[target], key=lambda l: (l.relation, l.source, l.line or 0)):
        by_relation.setdefault(link.relation, {}).setdefault(link.source, ctx.g.excerpts[link])
    title = title_of(brain, target)
    listed = tuple((relation, tuple(item(ctx, ref, timed=True, excerpt=excerpt) for ref, excerpt in sources.items()))
                   for relation, sources in sorted(by_relation.items()))
    return ctx.memos["relations"](target, (title, listed),
                                  lambda: [_relation_view(ctx, target, title, relation, items) for relation, items in listed])


def _relation_view(ctx: Ctx, target: str, title: str, relation: str, items: tuple[dict, ...]) -> View:
    brain = ctx.brain
    base = {"page": "relation", "brain": brain.name, "ref": target, "uri": refs.uri(brain.name, target),
            "title": title, "relation": relation}
    return View(brain.name, target, TEMPLATE, tuple(paged(base, newest_first(list(items)))), variant=("r", relation))
