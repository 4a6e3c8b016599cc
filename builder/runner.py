"""Where each stage of a build runs: in this process, in a child forked beside it, or in the
search worker a watch session keeps (searchworker.py). The one module that starts processes for
a build (tests/test_module_state.py): the checklist (build.py) says what runs in which order,
this module where, and runs the stages of a scope in emit/emitters.py's order knowing none.

- `bf build` on two or more cores: each brain's index side (its index documents and the stages
  of scope "index") runs in a child forked as its views are computed, writing through
  `Writer.part()` into the same staging folder; the parent merges what it wrote. The last
  brain's child then runs the site's stages that need only the parsed brains. The content
  stages start in a second child once the last brain's stages they need are done, and are
  joined after the site's stages (they see the pages staged before them: `Writer.staged`).
- A build that keeps a BuildState (bf serve --watch) cannot fork its index side anew, as the
  index's memos must outlive the build: the state's first build forks a worker that keeps them
  and runs the index side of every build after (searchworker.py). Its server has threads: the
  content stages run here, after the site's.
- One core, or no fork: everything here, in the checklist's order.
- A stage's own workers (kernel/parallel.Spread, `ctx.spread`): allowed wherever the machine
  forks and has the cores; the stage says whether its job is big enough.
"""
from __future__ import annotations

import gc
import time
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from functools import partial, wraps
from pathlib import Path

from .emit.emitters import EMITTERS
from .emit.stage import Build, Stage, scoped
from .emit.state import BuildState
from .emit.writer import Writer
from .kernel.errors import BuildError
from .kernel.parallel import Forked, Once, Spread, can_fork, cores, served
from .searchworker import SearchWorker, serve


@dataclass
class BuildReport:
    out: Path
    build_id: str = ""
    as_of: str = ""
    brains: list[str] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)   # phase → seconds
    emitted: dict[str, int] = field(default_factory=dict)     # stage → files it wrote
    files: int = 0
    reused: int = 0
    bytes: int = 0    # the site's files' sizes, together (0 for a build that keeps its state: bf serve --watch)
    notices: list[str] = field(default_factory=list)   # said once on stderr by the CLI (progress.py)
    withheld: dict[str, dict] = field(default_factory=dict)   # brain → rule → items it kept out (brain/publish.py)


class Phases:
    """Times each phase; `progress` (a callable) hears about each one as it starts."""

    def __init__(self, report: BuildReport, progress=None):
        self.report, self.progress = report, progress

    def run(self, name: str, fn, *args, **kwargs):
        return self.run_as(name, name, fn, *args, **kwargs)

    def run_as(self, name: str, step: str, fn, *args, **kwargs):
        """fn(*args, **kwargs) timed as phase `name`, told as `step`."""
        self.tell(step)
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        self.report.timings[name] = self.report.timings.get(name, 0.0) + time.perf_counter() - start
        return result

    def tell(self, step: str) -> None:
        """`progress` hears that `step` runs now (a phase, or a wait for one run beside)."""
        if self.progress:
            self.progress(step)

    def count(self, text: str) -> None:
        """`progress` hears what the step running did, when it listens (progress.Progress.count)."""
        if self.progress and hasattr(self.progress, "count"):
            self.progress.count(text)

    def tally(self, what: str, done: int, total: int) -> None:
        """`progress` hears how far the step running is, when it listens (progress.Progress.tally)."""
        if self.progress and hasattr(self.progress, "tally"):
            self.progress.tally(what, done, total)


NO_FULL_COLLECTION = 1_000_000   # young collections between full ones: none in a build


def without_full_collections(run):
    """No full collection while a build piles up brains, views and pages that stay alive to its
    end: each walked all of them and freed next to nothing (a quarter of a watch rebuild).
    Young generations are still collected; the old one once the build is over."""
    @wraps(run)
    def quiet(*args, **kwargs):
        thresholds = gc.get_threshold()
        gc.set_threshold(thresholds[0], thresholds[1], NO_FULL_COLLECTION)
        try:
            return run(*args, **kwargs)
        finally:
            gc.set_threshold(*thresholds)
    return quiet


def run_stages(phases: Phases, scope: str, ctx: Build, state: BuildState | None, done=None, select=None) -> None:
    """Every stage of `scope` in order over `ctx` (those `select(stage)` takes, when given), each
    given its memo and those of the stages it needs when `state` keeps them, and what its `start`
    began as the scope began; `done(stage)` hears of each once it ran."""
    brain = getattr(ctx, "brain", None)
    stages = [s for s in EMITTERS if s.scope == scope and (select is None or select(s))]
    own = {s.name: _own(ctx, state, s, brain) for s in stages if s.wanted(ctx)}
    with ExitStack() as begun:
        started = {s.name: begun.enter_context(s.start(own[s.name])) for s in stages if s.start and s.name in own}
        for stage in stages:
            if ctx.stop is not None and ctx.stop.is_set():
                raise BuildError("build stopped: a newer build replaces it")
            if stage.name in own:
                paths = phases.run_as(stage.phase, stage.name, stage.emit, replace(own[stage.name], started=started.get(stage.name)))
                phases.count(f"{stage.name}: {len(paths):,} files")
                phases.report.emitted[stage.name] = phases.report.emitted.get(stage.name, 0) + len(paths)
            if done is not None:
                done(stage)


def _own(ctx: Build, state: BuildState | None, stage: Stage, brain) -> Build:
    """`ctx` as `stage` gets it: with its memo and those of the stages it needs, when `state` keeps them."""
    memos = {} if state is None else {s.name: _memo(state, s, brain) for s in EMITTERS
                                      if s.memo is not None and (s is stage or s.name in stage.needs)}
    return replace(ctx, memo=memos.pop(stage.name, None), needed=memos)


def _memo(state: BuildState, stage: Stage, brain) -> object:
    return state.memo(stage.scope, stage.name, brain.name if brain is not None else "", stage.memo)


class Runner:
    """One build's placement of its stages. `forks`: whether this machine may fork the build's
    children; `load(request)` and `index_side(phases, build, brain, state=None, save=None)` are
    the checklist's parse and index side, which the search worker runs too."""

    def __init__(self, phases: Phases, state: BuildState | None, forks: bool, load, index_side):
        self.phases, self.state, self.index_side = phases, state, index_side
        # a stage's own workers: on any machine that forks and has the cores (kernel/parallel.Spread)
        self.spread = Spread(cores() > 1 and can_fork())
        forks = forks and self.spread.forks
        self.beside = forks and state is None   # children forked anew for this build alone
        self.load = partial(load, spread=self.spread)
        if state is not None and state.search is None and forks:
            _fork_search(state, self.load, index_side, self.spread)
        self.worker = state.search if state is not None else None
        self.remote = self.build = self.content = None
        self.pending: set[str] = set()

    @contextmanager
    def session(self, request):
        """The build's exchange with the search worker, which parses `request` as this process does."""
        with self.worker.session(request) if self.worker is not None else nullcontext() as self.remote:
            yield self

    def begin(self, build: Build) -> bool:
        """The build's parse is done: the worker writes its index side into `build`'s writer from
        now on. Whether the whole index side is computed beside (its cores are busy)."""
        self.build = build
        if self.remote is not None:
            self.remote.emit((build.writer.plan(), build.as_of, build.base_url, build.embeddings))
        wanted = [s for s in EMITTERS if s.scope == "content" and s.wanted(build)]
        self.pending = {name for s in wanted for name in s.needs} if wanted and self.beside else set()
        return self.beside or (self.remote is not None and not self.worker.built)

    @contextmanager
    def index_of(self, brain, save=None):
        """The brain's index side: in a child forked now, beside the views the `with` block
        computes, in the search worker, or here once they are done and freed (the views and the
        search index would be the build's peak of memory). `save()`: run once, by the child when
        its stages are done or here when the views are, whichever comes first (the index side
        of a long multilingual brain ends last, a small vault's first)."""
        save = Once(save) if save is not None and self.beside else save
        run = partial(self.index_side, brain=brain, save=save, spread=self.spread)
        site = None
        if self.beside and brain is self.build.brains[-1]:
            site = Once(_alone_site)
            run = partial(_then_site, run, site)
        side = Forked(_in_child, (run, self.phases, self.build)) if self.beside else None
        with side or nullcontext():
            yield
            if side is not None:
                if save is not None:
                    self.phases.run_as("parse", "saving the parse cache", save)
                if site is not None:
                    site(self.phases, self.build)
                self.phases.tell("lunr")   # waits for the index side beside (a long brain's last seconds)
                self.merge(*side.get())
            elif self.remote is None:
                run(self.phases, self.build, state=self.state)

    def stages(self, scope: str, ctx: Build) -> None:
        """The stages of `scope` over `ctx`; the content stages start beside once the last brain's
        stages they need have run. The site's that run beside (`Stage.beside`) are the last index
        child's when one is forked."""
        select = _after_pages if scope == "site" and self.beside else None   # the others: index_of's child
        last = getattr(ctx, "brain", None) is self.build.brains[-1]
        run_stages(self.phases, scope, ctx, self.state, partial(self._ran, last) if self.pending else None, select)

    def _ran(self, last: bool, stage: Stage) -> None:
        if last and stage.name in self.pending:
            self.pending.discard(stage.name)
            if not self.pending:
                content = scoped("content", self.build)
                self.content = Forked(_in_child, (_content, self.phases, content))

    def join(self, digests: list[int]) -> None:
        """What the search worker and the content child wrote, merged; the content stages run
        here when no child ran them. The report counts each stage's files in EMITTERS' order,
        wherever it ran."""
        if self.remote is not None:
            self.phases.tell("lunr")
            self.merge(*self.remote.result(digests))
        if self.content is None:
            run_stages(self.phases, "content", scoped("content", self.build), self.state)
        else:
            self.phases.tell("content")
            with self.content:
                self.merge(*self.content.get())
        emitted = self.phases.report.emitted
        self.phases.report.emitted = {s.name: emitted[s.name] for s in EMITTERS if s.name in emitted}

    def merge(self, record: tuple, timings: dict, emitted: dict) -> None:
        """What a child wrote, timed and counted, into this process's writer and report."""
        self.build.writer.merge(*record)
        for report, kept in ((self.phases.report.timings, timings), (self.phases.report.emitted, emitted)):
            for key, value in kept.items():
                report[key] = report.get(key, 0) + value

    def abandon(self, exc: BaseException) -> None:
        """The build failed: the worker done with the staging folder before it goes, the content
        child ended."""
        if self.remote is not None:
            self.remote.end(isinstance(exc, Exception))
        if self.content is not None:
            self.content.__exit__(type(exc), exc, None)


def _then_site(index_side, site: Once, phases: Phases, build: Build) -> None:
    """The last brain's index side, then `site` (_alone_site, once): in whichever of its child
    and the build's process is done first. That is the child on a small brain, whose critical
    path the views side is, and the build's process on a long one, whose critical path the
    index side is."""
    index_side(phases, build)
    site(phases, build)


def _alone_site(phases: Phases, build: Build) -> None:
    """The site's stages that say they run beside (`Stage.beside`: they read only the parsed
    brains). The others (the feeds: they list every page) run in the build's process once the
    pages are written (Runner.stages)."""
    run_stages(phases, "site", scoped("site", build), None, select=_beside)


def _beside(stage: Stage) -> bool:
    return stage.beside


def _after_pages(stage: Stage) -> bool:
    return not stage.beside


def _content(phases: Phases, ctx: Build) -> None:
    run_stages(phases, "content", ctx, None)


def _fork_search(state: BuildState, load, index_side, spread: Spread) -> None:
    """The worker of a kept state's index side (searchworker.py), forked as a session's first
    build starts: the two processes grow heaps of their own (forked from a grown heap, both copied
    the pages they touched: the first rebuild after took 2.9 s instead of 1.9 at 10k notes).
    Whatever the index side kept in this process is dropped: the worker's copy lives on."""
    jobs = (without_full_collections(load), without_full_collections(partial(_remote_side, state, index_side, spread)),
            state.settle)
    worker = SearchWorker(*served(serve, jobs))
    state.lose_search()   # the worker's copy is the live one now
    state.search = worker


def _remote_side(state: BuildState, index_side, spread: Spread, brains: list, plan: tuple) -> tuple:
    """In the worker: the index side of every brain of a build, written through a part of the
    build's writer (Writer.plan): what it wrote, its timings and counts."""
    writer_plan, as_of, base_url, embeddings = plan
    part = Writer.from_plan(writer_plan, state.spare)

    def every_brain(phases: Phases, build: Build) -> None:
        for brain in brains:
            index_side(phases, build, brain=brain, state=state, spread=spread)
    result = _through(every_brain, Build(part, tuple(brains), as_of, base_url, embeddings, spread=spread))
    state.spare.packs = part.packed
    return result


def _in_child(job) -> tuple:
    """run(phases, build) in a forked child, writing through a part of the parent's writer (which
    sees what the parent staged before the fork): what it wrote (to merge), its timings and counts."""
    run, phases, build = job
    return _through(run, replace(build, writer=build.writer.part(), tally=None))   # the parent's display is not the child's


def _through(run, build: Build) -> tuple:
    """run(phases, build), its writer a part of a build's (in another process): what it wrote
    (to merge), its timings and counts (Runner.merge's arguments)."""
    report = BuildReport(out=build.writer.out)
    run(Phases(report), build)
    return build.writer.record(), report.timings, report.emitted
