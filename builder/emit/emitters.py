"""The build's stages, in order (Quartz's emitter list): the runner (builder/runner.py) runs each
scope's in this order, and knows none of them. The stage shape and its scopes: emit/stage.py.
"""
from __future__ import annotations

from operator import itemgetter

from ..kernel.fingerprint import write_fingerprint
from ..kernel.parallel import Counted
from .assets import ASSETS, ATTACHMENTS
from .data import DATA
from .feeds import FEEDS
from .listing_pages import DAY_TEMPLATE, TEMPLATES, ItemLists, SiteViews, emit_listing_pages
from .navigation import NAVIGATION
from .pagefind import PAGEFIND
from .pages import emit_item_pages, emit_replies
from .reuse import PageMemo
from .search_index import INDEX, STORE
from .site_pages import SITE_PAGES
from .stage import IndexContext, Stage, ViewsContext, paths
from .vectors import DOC_VECTORS, TABLE


SHOWN_PARTS = 20   # a serial render's parts when it is long enough to watch
PAGE_TEMPLATES = (*TEMPLATES, DAY_TEMPLATE)


@paths
def pages(ctx: ViewsContext) -> None:
    """Reply files, item pages and listing pages, spread over the cores when there are many
    (each worker takes every n-th view), unless a whole search side is computed beside (a full
    build's, a watch session's first build's): the cores are busy then, and workers that copy
    the heap they touch cost more than they gave (a 10k build's CPU 8 s more, its wall 3 s
    longer: docs/code.md)."""
    root = ctx.brain is ctx.brains[0]
    memo = ctx.memo
    site = memo.site_views(ctx.views, ctx.came_went) if memo else SiteViews(ctx.views)   # before the fork: every worker shares it
    todo, kept = ctx.views, set()
    if memo:       # a rebuild in the same process: pages whose inputs are unchanged are kept (reuse.py)
        memo.begin(ctx.brain, site, ctx.as_of, ctx.base_url, root)
        todo, kept = memo.reuse(ctx.writer, ctx.brain, ctx.graph, site, ctx.views, root, ctx.as_of, ctx.came_went)
    worth = len(todo) > 500 and not ctx.beside
    k = ctx.spread.workers(worth)
    # in this process alone, parts only so that a person sees the count move (progress.py)
    n = 2 * k if k > 1 else min(len(todo), SHOWN_PARTS) if ctx.tally and len(todo) > SHOWN_PARTS * 10 else 1
    told = Counted(ctx.tally, "pages", _pages_of(todo), size=itemgetter(0)) if ctx.tally else None
    items = ItemLists(ctx.brain)   # each item's fragment once in this process (forked: once a worker)
    for _, record in ctx.spread.map(_pages_part, list(range(n)), (ctx, site, n, todo, kept, root, items),
                                    worth=worth, each=told):
        ctx.writer.merge(*record)
    if memo:
        memo.remember(ctx.writer)


def _pages_part(state, index: int):
    ctx, site, n, todo, kept, root, items = state
    part = ctx.writer.part()
    chunk = todo[index::n]
    emit_replies(part, chunk, kept)
    emit_item_pages(part, ctx.brain, ctx.graph, chunk, ctx.as_of, kept)
    emit_listing_pages(part, ctx.brain, chunk, site, ctx.as_of, root=root, skip=kept, item_lists=items,
                        outgoing=ctx.graph.outgoing)
    return _pages_of(chunk), part.record()


def _pages_of(views) -> int:
    """The HTML pages of `views` (a note's, a listing's first, a day's) that a person counts:
    their replies and further listing pages go with them."""
    return sum(v.template == "note.html" or (not v.variant and v.template in PAGE_TEMPLATES) for v in views)


@paths
def fingerprint(ctx: IndexContext) -> None:
    write_fingerprint(ctx.writer, ctx.brain)


PAGES = Stage("pages", "views", "render", pages, memo=PageMemo)
FINGERPRINT = Stage("fingerprint", "index", "fingerprint", fingerprint)

EMITTERS: tuple[Stage, ...] = (
    PAGES, DATA,
    ATTACHMENTS, INDEX, DOC_VECTORS, STORE, FINGERPRINT,
    SITE_PAGES, NAVIGATION, FEEDS, ASSETS, TABLE,
    PAGEFIND,
)
