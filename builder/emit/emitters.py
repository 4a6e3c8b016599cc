"""The build's emitters, in order (Quartz's emitter list; mkdocs' checklist runs them: build.py).

Each emitter takes the build `Context` and returns the site paths it wrote, in order; the one
write path (emit/writer.py) refuses a file two emitters claim. Scopes:
- "views": once per brain, while its views are alive (replies, pages, compact data);
- "brain": once per brain after its views are freed — the search index is the build's peak of
  memory — with its index documents computed once for the index, store and vectors;
- "site": once, after every brain (site pages, feeds, assets, the token table, pagefind).
`phase` is the timing bucket BuildReport.timings (and the benchmark) reports it under.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import Callable

from ..kernel.fingerprint import write_fingerprint
from ..kernel.model import Brain
from ..kernel.parallel import cores, fork_map
from ..views import View
from ..views.graph import Graph
from .assets import emit_assets, emit_attachments
from .data import DataMemo, emit_data
from .feeds import emit_feeds
from .listing_pages import SiteViews, emit_listing_pages
from .navigation import emit_navigation
from .pagefind import emit_pagefind
from .reuse import PageMemo
from .pages import emit_item_pages, emit_replies
from .search_index import emit_index, emit_store
from .site_pages import emit_site_pages
from .state import BuildState
from .urls import attachment_path
from .vectors import emit_doc_vectors, emit_table
from .writer import Writer


@dataclass(frozen=True)
class Context:
    writer: Writer
    brains: tuple[Brain, ...]
    as_of: str
    base_url: str | None = None
    embeddings: bool = True
    pagefind: bool | str = True          # "later": the previous site's bundles (build.build)
    brain: Brain | None = None           # scopes "views" and "brain": the brain being emitted
    views: tuple[View, ...] = ()         # scope "views": its views
    graph: Graph | None = None           # scope "views": its link graph
    beside: bool = False                 # scope "views": the brain's whole search side is computed beside
    pieces: dict = field(default_factory=dict)   # scope "brain": note ref → search pieces
    docs: tuple[dict, ...] = ()                  # scope "brain": its index documents
    state: BuildState | None = None              # what the last build in this process left (state.py)
    stop: threading.Event | None = None          # set: the build is moot (bf serve); pagefind's runs end


@dataclass(frozen=True)
class Emitter:
    name: str
    scope: str                                    # "views" | "brain" | "site" | "content" (build.ContentSide)
    phase: str
    run: Callable[[Context], list[str]]
    wanted: Callable[[Context], bool] = lambda ctx: True


def _paths(run):
    """run(ctx) as an emitter: it returns the site paths the writer took from it, in order."""
    @wraps(run)
    def emitter(ctx: Context) -> list[str]:
        mark = len(ctx.writer.written)
        run(ctx)
        return list(ctx.writer.written)[mark:]
    return emitter


@_paths
def pages(ctx: Context) -> None:
    """Reply files, item pages and listing pages, spread over the cores when there are many
    (each worker takes every n-th view), unless a whole search side is computed beside (a full
    build's, a watch session's first build's): the cores are busy then, and workers that copy
    the heap they touch cost more than they gave (a 10k build's CPU 8 s more, its wall 3 s
    longer: docs/code.md)."""
    root = ctx.brain is ctx.brains[0]
    memo = ctx.state.pages.setdefault(ctx.brain.name, PageMemo()) if ctx.state else None
    site = memo.site_views(ctx.views) if memo else SiteViews(ctx.views)   # before the fork: every worker shares it
    todo, kept = ctx.views, set()
    if memo:       # a rebuild in the same process: pages whose inputs are unchanged are kept (reuse.py)
        memo.begin(ctx.brain, site, ctx.as_of, ctx.base_url, root)
        todo, kept = memo.reuse(ctx.writer, ctx.brain, ctx.graph, site, ctx.views, root, ctx.as_of)
    parallel = len(todo) > 500 and not ctx.beside
    n = cores() * 2 if parallel else 1
    for record in fork_map(_pages_part, list(range(n)), (ctx, site, n, todo, kept, root), parallel=parallel):
        ctx.writer.merge(*record)
    if memo:
        memo.remember(ctx.writer)


def _pages_part(state, index: int):
    ctx, site, n, todo, kept, root = state
    part = ctx.writer.part()
    chunk = todo[index::n]
    emit_replies(part, chunk, kept)
    emit_item_pages(part, ctx.brain, ctx.graph, chunk, ctx.as_of, kept)
    emit_listing_pages(part, ctx.brain, chunk, site, ctx.as_of, root=root, skip=kept)
    return part.record()


EMITTERS = (
    Emitter("pages", "views", "render", pages),
    Emitter("data", "views", "render", _paths(lambda c: emit_data(
        c.writer, c.brain.name, c.views, c.state and c.state.data.setdefault(c.brain.name, DataMemo())))),
    Emitter("attachments", "brain", "render", _paths(lambda c: emit_attachments(
        c.writer, c.brain.name, Path(c.brain.root), c.brain.attachments, attachment_path))),
    Emitter("search index", "brain", "lunr", _paths(lambda c: emit_index(
        c.writer, c.brain.name, c.docs, c.state and c.state.index_of(c.brain.name)))),
    Emitter("document vectors", "brain", "vectors", _paths(lambda c: emit_doc_vectors(
        c.writer, c.brain.name, c.docs, c.state and c.state.vectors.setdefault(c.brain.name, {}),
        c.state and c.state.related.setdefault(c.brain.name, {}),
        c.state and c.state.index_of(c.brain.name).arranged)),   # the index's doc ids: arranged once
            lambda c: c.embeddings),
    Emitter("search store", "brain", "lunr", _paths(lambda c: emit_store(
        c.writer, c.brain, c.as_of, c.pieces, c.state and c.state.store.setdefault(c.brain.name, {})))),
    Emitter("fingerprint", "brain", "fingerprint", _paths(lambda c: write_fingerprint(c.writer, c.brain))),
    Emitter("site pages", "site", "render", _paths(lambda c: emit_site_pages(c.writer, list(c.brains), c.as_of, c.base_url))),
    Emitter("navigation", "site", "render", _paths(lambda c: emit_navigation(
        c.writer, list(c.brains), c.as_of, c.state and c.state.navigation))),
    Emitter("feeds", "site", "feeds", _paths(lambda c: emit_feeds(c.writer, list(c.brains), c.as_of))),
    Emitter("assets", "site", "assets", _paths(lambda c: emit_assets(c.writer, list(c.brains)))),
    Emitter("token table", "site", "vectors", _paths(lambda c: emit_table(c.writer)), lambda c: c.embeddings),
    Emitter("pagefind", "content", "pagefind", _paths(lambda c: emit_pagefind(c.writer, list(c.brains), c.pagefind == "later", c.stop)),
            lambda c: c.pagefind),
)
