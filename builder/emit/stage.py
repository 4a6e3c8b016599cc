"""One shape for every output of the build (Quartz's emitters): a Stage and the context of its scope.

A stage is a name, a scope, the stages it needs before it, `emit(ctx) → the site paths it
wrote` and, when a rebuild in the same process can do less, the memo it keeps (`memo()` makes
an empty one; the runner hands it back as `ctx.memo` on every build of a kept BuildState, and
a stage given a filled memo recomputes only what changed since); and `start`, work it begins in
its own workers as its scope begins, beside the stages before it. Scopes, each with its context:
- "views": once per brain while its views are alive (ViewsContext);
- "index": once per brain after its views are freed, over its index documents (IndexContext);
- "site": once, after every brain (SiteContext);
- "content": once, over the pages staged before it (ContentContext).
The runner (builder/runner.py) decides where each runs; emit/emitters.py lists them in order.
"""
from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import wraps
from types import MappingProxyType
from typing import Callable

from ..kernel.model import Brain
from ..kernel.parallel import SERIAL, Spread
from ..views import View
from ..views.graph import Graph
from ..views.memo import model_changes
from .entries import came_went
from .writer import Writer

SCOPES = ("views", "index", "site", "content")
NONE: Mapping = MappingProxyType({})


@dataclass(frozen=True)
class Build:
    """What every stage sees of the build."""
    writer: Writer
    brains: tuple[Brain, ...]
    as_of: str
    base_url: str | None = None
    embeddings: bool = True
    pagefind: bool | str = True                  # "later": the previous site's bundles (build.build)
    stop: threading.Event | None = None          # set: the build is moot (bf serve); pagefind's runs end
    memo: object = None                          # the stage's own memo (a kept BuildState's), else None
    needed: Mapping[str, object] = field(default_factory=lambda: NONE)   # the memos of the stages it needs, by name
    spread: Spread = SERIAL                      # the workers the runner allows the stage's own work
    started: object = None                       # what the stage's `start` began as its scope began
    tally: Callable | None = None                # tally(what, done, total): how far a stage is (runner.Phases.tally)


@dataclass(frozen=True)
class ViewsContext(Build):
    brain: Brain | None = None
    views: tuple[View, ...] = ()
    graph: Graph | None = None
    beside: bool = False                         # the brain's whole index side is computed beside: cores busy
    came_went: Callable = came_went              # entries.came_went, or one entries.CameWent its stages share


@dataclass(frozen=True)
class IndexContext(Build):
    brain: Brain | None = None
    pieces: dict | None = None                   # note ref → search pieces
    docs: tuple[dict, ...] = ()                  # its index documents
    changes: Callable[[dict, dict], set] = model_changes   # what index_input asked (views/memo.Changes)


@dataclass(frozen=True)
class SiteContext(Build):
    pass


@dataclass(frozen=True)
class ContentContext(Build):
    pass


CONTEXTS = MappingProxyType({"views": ViewsContext, "index": IndexContext, "site": SiteContext, "content": ContentContext})


def scoped(scope: str, build: Build, **kw) -> Build:
    """The context of `scope` over `build`, with the scope's own fields `kw`."""
    return CONTEXTS[scope](**{f.name: getattr(build, f.name) for f in fields(Build)}, **kw)


@dataclass(frozen=True)
class Stage:
    name: str
    scope: str                                   # one of SCOPES
    phase: str                                   # its timing bucket in BuildReport.timings (and the benchmark)
    emit: Callable[[Build], list[str]]
    needs: tuple[str, ...] = ()                  # stages whose files or memo it reads: they run first
    memo: Callable[[], object] | None = None     # makes the memo it keeps, per brain (per site: scopes site, content)
    when: str = ""                               # a Build flag that must be set: "embeddings", "pagefind"
    # work the stage may begin beside the stages before it in its scope, as the scope begins: start(ctx)
    # (the stage's context) → a context manager, left when the scope's stages are done; the stage
    # gets what it entered as `ctx.started`
    start: Callable[[Build], object] | None = None
    # a site stage that reads only the parsed brains, never another stage's files or memo: a
    # forking build runs it in the last brain's index child, beside the views (runner.py); the
    # others run in the build's process once the brains' stages are done
    beside: bool = False

    def __post_init__(self):
        if self.beside and (self.needs or self.scope != "site"):
            raise ValueError(f"stage {self.name!r}: only a site stage that needs no other runs beside")

    def wanted(self, ctx: Build) -> bool:
        return not self.when or bool(getattr(ctx, self.when))


def paths(emit):
    """emit(ctx) as a stage's emit: it returns the site paths the writer took from it, in order."""
    @wraps(emit)
    def stage(ctx: Build) -> list[str]:
        mark = len(ctx.writer.written)
        emit(ctx)
        return list(ctx.writer.written)[mark:]
    return stage
