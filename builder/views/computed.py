"""Computed views (docs/replies.md#bf-read): home, listings, periods and relation pages, in one pass over the brain."""
from __future__ import annotations

from ..kernel.model import Brain
from ..kernel.times import from_rfc3339
from .coverage import coverage, records_by_source
from .graph import Graph
from .memo import Memos
from .home import home_view
from .lists import Ctx, folder_views, identity_views, tag_views
from .calendar import period_views, timeline
from .sources import orders, source_period_views, source_views
from .relations import relation_views
from .signals import all_reviews


def review_signals(brain: Brain, g: Graph, as_of: str) -> dict[str, dict]:
    """note ref → review signal fields, for every note that gets reminders (docs/replies.md#review-signals)."""
    return all_reviews(brain, g, from_rfc3339(as_of))


def computed_views(brain: Brain, g: Graph, as_of: str, reviews: dict[str, dict], items: dict | None = None,
                   memos: Memos | None = None, changed: set | None = None, dirty: set | None = None,
                   then: str | None = None) -> list:
    """`items`: the listed items of the last build in this process (lists.item), left holding this
    one's; `memos`: what else it made (views/memo.py); `changed`, `dirty`: what changed since
    (lists.Ctx), None when everything may have; `then`: its instant, when not `as_of`."""
    now = from_rfc3339(as_of)
    memos = memos or Memos(None, ())
    # the records by source change only with a record: none among the changed refs (or gone)
    same = changed is not None and not any(r in brain.records or r.partition("#")[0] not in brain.notes for r in changed)
    kept_sources = memos["by source"].keep("") if same else None
    by_source = memos["by source"]("", None, lambda: kept_sources or records_by_source(brain), True)
    # a source's coverage is a function of the source, its records and the instant
    cov = {name: memos["coverage"](name, (src, tuple(by_source[name]), now), lambda: coverage(brain, src, by_source[name], now))
           for name, src in sorted(brain.sources.items())}
    ctx = Ctx(brain=brain, g=g, as_of=as_of, now=now, reviews=reviews, coverage=cov,
              kept=items if items is not None else {}, memos=memos, changed=changed, dirty=dirty,
              then=from_rfc3339(then) if then else None)
    entries, moved = timeline(ctx)
    order = orders(ctx, by_source)
    views = [home_view(ctx, entries), *folder_views(ctx), *tag_views(ctx), *identity_views(ctx),
             *source_views(ctx, by_source, order), *source_period_views(ctx, by_source, order),
             *period_views(ctx, entries, moved),
             *relation_views(ctx)]
    if items is not None:
        if changed is None:       # a compute from scratch drops the items no view holds any more
            items.clear()
        items.update(ctx.items)
    return views
