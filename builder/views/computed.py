"""Computed views (SPEC §4): home, listings, periods and relation pages, in one pass over the brain."""
from __future__ import annotations

from ..kernel.model import Brain
from ..kernel.times import from_rfc3339
from .coverage import all_coverage, records_by_source
from .graph import Graph
from .memo import Memos
from .home import home_view
from .lists import Ctx, folder_views, identity_views, source_views, tag_views
from .calendar import period_views, source_period_views, timeline
from .relations import relation_views
from .signals import all_reviews


def review_signals(brain: Brain, g: Graph, as_of: str) -> dict[str, dict]:
    """note ref → review signal fields, for every note that gets reminders (SPEC §4.3)."""
    return all_reviews(brain, g, from_rfc3339(as_of))


def computed_views(brain: Brain, g: Graph, as_of: str, reviews: dict[str, dict], items: dict | None = None,
                   memos: Memos | None = None) -> list:
    """`items`: the listed items of the last build in this process (lists.item), left holding this
    one's; `memos`: what else it made (views/memo.py)."""
    now = from_rfc3339(as_of)
    ctx = Ctx(brain=brain, g=g, as_of=as_of, now=now, reviews=reviews, coverage=all_coverage(brain, now),
              kept=items if items is not None else {}, memos=memos or Memos(None, ()))
    entries = timeline(ctx)
    by_source = records_by_source(brain)
    views = [home_view(ctx, entries), *folder_views(ctx), *tag_views(ctx), *identity_views(ctx),
             *source_views(ctx, by_source), *source_period_views(ctx, by_source), *period_views(ctx, entries),
             *relation_views(ctx)]
    if items is not None:
        items.clear()
        items.update(ctx.items)
    return views
