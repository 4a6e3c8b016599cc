"""bf build: the phase checklist (mkdocs-style). Gather everything, then write, then swap.

load brains → per brain: compute views, run the emitters of its views, compute its index
documents, run theirs → run the site's emitters (emit/emitters.py, in order) → manifest → swap.
The emitters of staged content pages (pagefind) start once the last brain's pages are written,
in a forked child beside the rest when they can (ContentSide).
"""
from __future__ import annotations

import gc
import hashlib
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from functools import wraps
from operator import attrgetter
from datetime import datetime, timezone
from pathlib import Path

from . import BUNDLE_VERSION, MANIFEST, __version__, parsecache
from .brain import LoadMemo, load
from .kernel.times import parse_instant, rfc3339
from .kernel.config import site_urls
from .emit.emitters import EMITTERS, Context, Emitter
from .emit.html import checked
from .emit.look import settled
from .emit.state import BuildState
from .emit.spare import recover
from .emit.writer import Writer
from .emit.urls import use_pages
from .kernel.errors import BuildError, InvalidInput
from .kernel.parallel import Forked, can_fork, cores
from .searchworker import SearchLost, SearchWorker, read_digest
from .views import compute
from .views.graph import graph
from .views.documents import index_input


@dataclass
class BuildReport:
    out: Path
    build_id: str = ""
    as_of: str = ""
    brains: list[str] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)   # phase → seconds
    emitted: dict[str, int] = field(default_factory=dict)     # emitter → files it wrote
    files: int = 0
    reused: int = 0
    notices: list[str] = field(default_factory=list)   # said once on stderr by the CLI (progress.py)


NO_FULL_COLLECTION = 1_000_000   # young collections between full ones: none in a build

NO_SITE_URL = ("feeds and sitemap skipped: they need the site's absolute URL; "
               "pass --site-url https://… or set site_url in the first brain's brain.toml")


class Phases:
    """Times each phase; `progress` (a callable) hears about each one as it starts."""

    def __init__(self, report: BuildReport, progress=None):
        self.report, self.progress = report, progress

    def run(self, name: str, fn, *args, **kwargs):
        if self.progress:
            self.progress(name)
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        self.report.timings[name] = self.report.timings.get(name, 0.0) + time.perf_counter() - start
        return result


def parse_now(now: str | None) -> str:
    if now is None:
        return rfc3339(datetime.now(timezone.utc))
    parsed = parse_instant(now) if len(now) > 10 else None
    if parsed is None:
        raise InvalidInput("--now", f"expected an RFC 3339 instant like 2026-12-02T12:00:00Z, got {now!r}")
    return rfc3339(parsed)


def cache_path(out: Path) -> Path:
    """The parse cache (builder/parsecache.py: versioned JSON lines, never code) beside --out."""
    return out.parent / ".bf-cache" / f"{out.name}.parse.jsonl"


def _without_full_collections(run):
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


@_without_full_collections
def build(roots: list[Path], out: Path, *, now: str | None = None, base_url: str | None = None,
          site_url: str | None = None, pagefind: bool | str = True, embeddings: bool = True, progress=None,
          state: BuildState | None = None, changed: set[Path] | None = None,
          stop: threading.Event | None = None, theme: str | None = None) -> BuildReport:
    """`state`: what the last build in this process left (emit/state.py; bf serve --watch keeps
    one), so this build recomputes only what changed where a stage knows how; its search side
    runs in a worker beside, which the state's first build forks (searchworker.py). `changed`: the
    paths file events named since that build (bf serve --watch), which the parse looks at
    instead of every file (brain/rediscover.py); None: it walks the brains. `pagefind="later"`
    takes the previous site's full-text bundles as they are (bf serve --watch publishes a
    rebuild's pages first, then builds again with pagefind: watch.WatchBuilds), and `stop`, once set,
    ends that second build early with a BuildError (a newer save made it moot). `theme`: a theme
    folder, instead of the first brain's (emit/look.py)."""
    args = Path(out), roots, now, base_url, (site_url, theme), pagefind, embeddings, progress, state, changed, stop
    try:
        return _build(*args, fork=True)
    except SearchLost:   # its worker died, or read other bytes: this process does its part afresh
        state.lose_search()
        return _build(*args, fork=False)


def _build(out: Path, roots, now, base_url, flags, pagefind, embeddings, progress, state, changed, stop,
           fork: bool) -> BuildReport:
    """build(); `flags`: its site URL and theme; `fork`: a kept state without a search worker
    forks one (searchworker.py)."""
    report = BuildReport(out=out, as_of=parse_now(now))
    phases = Phases(report, progress)
    cache_file = cache_path(out)
    recover(out, cache_file.parent)
    cache = state.parse if state is not None and state.parse is not None else parsecache.load(cache_file)
    if state is not None:
        state.parse = cache
        if state.search is None and fork and cores() > 1 and can_fork():
            _fork_search(state)
    worker = state.search if state is not None else None
    cache_file.with_suffix(".pickle").unlink(missing_ok=True)   # an older bf's pickle cache: never read
    skip = {out, cache_file.parent}
    request = (roots, skip, changed, flags, base_url)
    with worker.session(request) if worker is not None else nullcontext() as remote:
        brains, digests, (site_url, base_url) = phases.run("parse", _load, request, cache, remote is not None)
        names = [b.name for b in brains]
        use_pages(brains)
        if site_url is None:
            report.notices.append(NO_SITE_URL)
        writer = Writer(out, cache_file.parent, state.spare if state is not None else None)
        ctx = Context(writer, tuple(brains), report.as_of, base_url, embeddings, pagefind, state=state, stop=stop,
                      beside=remote is not None and not worker.built)   # its whole search side: both cores busy
        if remote is not None:
            remote.emit((writer.plan(), report.as_of, base_url, embeddings))
        # The parsed brains (and a kept BuildState) live through the build: the collector need not
        # walk them again and again (it took a tenth of a rebuild at 10k notes). Unfrozen at the end,
        # but for a kept state: BuildState.settle collects what this build made, then freezes it too.
        gc.freeze()
        # Without a kept state the parse cache is saved by the first brain's search child, which
        # ends seconds before the views side (1 s of a 10k build's wall time otherwise).
        save = partial(parsecache.save, cache_file, cache)
        early = state is None and _fork_beside(ctx)
        try:
            with ContentSide(phases, ctx) as content:
                for brain in brains:
                    _emit_brain(phases, replace(ctx, brain=brain), content.start if brain is brains[-1] else None,
                                save if early and brain is brains[0] else None, remote is None)
                    report.problems.extend(p.to_json() for p in brain.problems)
                for emitter in EMITTERS:
                    if emitter.scope == "site":
                        _run(phases, emitter, ctx)
                if remote is not None:
                    _merge(phases, writer, *remote.result(digests))
                content.finish()
            manifest = _manifest(brains, report, writer, base_url)
            writer.write_json(MANIFEST, manifest, "manifest")
            report.build_id = manifest["build_id"]
            phases.run("swap", writer.commit)
        except BaseException as exc:
            if remote is not None:   # the worker done with the staging folder before it goes
                remote.end(isinstance(exc, Exception))
            writer.abort()
            raise
        finally:
            if state is None:
                gc.unfreeze()
    report.brains = names
    report.files = len(writer.written)
    report.reused = writer.reused
    if state is not None:   # saved by BuildState.settle, once the page is told
        state.unsaved = save
    elif not early:
        save()
    return report


def _load(request: tuple, cache, digest: bool = True) -> tuple[list, list[int], tuple]:
    """Parse each brain of a build `request` (with `cache`, parsecache.Cache, updated in place),
    each with its config's site URL set (every page's og:url): the brains, what each parse read
    (searchworker.read_digest, when `digest`) and the build's (site URL, base_url)."""
    roots, skip, changed, (site_url, theme), base_url = request
    brains, digests = [], []
    for root in roots:
        if not Path(root).is_dir():
            raise InvalidInput("brain", f"not a folder: {root}")
        key = str(Path(root).resolve())
        parsed = cache.notes.setdefault(key, {})
        brain = load(Path(root), skip=skip, cache=parsed, memo=cache.memos.setdefault(key, LoadMemo()), changed=changed)
        brains.append(brain)
        if digest:
            digests.append(read_digest(brain, parsed))
    names = [b.name for b in brains]
    if len(set(names)) != len(names):
        raise InvalidInput("brain", f"two brains share the name {sorted(n for n in names if names.count(n) > 1)[0]!r}; set `name` in brain.toml")
    urls = site_urls(site_url, base_url, brains[0].config)
    site = settled(brains[0].config.site, brains[0].root, theme)   # the first brain's look, as its URL
    checked(site.theme, site.digest)
    return [replace(b, config=replace(b.config, site_url=urls[0], site=site)) for b in brains], digests, urls


def _fork_search(state: BuildState) -> None:
    """The worker of a kept state's search side (searchworker.py), forked as a session's first
    build starts: the two processes grow heaps of their own (forked from a grown heap, both copied
    the pages they touched: the first rebuild after took 2.9 s instead of 1.9 at 10k notes).
    Whatever the search side kept in this process is dropped: the worker's copy lives on."""
    worker = SearchWorker(_without_full_collections(partial(_load, cache=state.parse)),
                          _without_full_collections(partial(_remote_side, state)), state.settle)
    state.lose_search()   # the worker's copy is the live one now
    state.search = worker


def _remote_side(state: BuildState, brains: list, plan: tuple) -> tuple:
    """In the worker: the search side of every brain of a build, written through a part of the
    build's writer (Writer.plan): what it wrote, its timings and counts."""
    writer_plan, as_of, base_url, embeddings = plan
    part = Writer.from_plan(writer_plan, state.spare)

    def every_brain(phases: Phases, ctx: Context) -> None:
        for brain in brains:
            _search_side(phases, replace(ctx, brain=brain))
    result = _through(every_brain, Context(part, tuple(brains), as_of, base_url, embeddings, state=state))
    state.spare.packs = part.packed
    return result


def _emit_brain(phases: Phases, ctx: Context, pages_staged=None, save_cache=None, search: bool = True) -> None:
    """The brain's emitters: those of its views, then (the views freed: they and the search index
    would be the build's peak of memory together) those of its index documents. Without a kept
    state the search side runs in a forked child beside the views side instead, whose views are
    computed on one core: the two overlap (their phase timings then add up to more than the wall).
    Not `search`: a kept state's worker runs the search side (searchworker.py).
    `pages_staged()` is called once its pages emitter is done; `save_cache()` by the search side's
    child once its emitters are done."""
    side = Forked(_in_child, (partial(_search_side, save_cache=save_cache), phases, ctx)) if _fork_beside(ctx) else None
    with side or nullcontext():
        excerpts = ctx.state.excerpts.setdefault(ctx.brain.name, {}) if ctx.state else None
        g = phases.run("views", graph, ctx.brain, excerpts)
        paged = ctx.state.paged.setdefault(ctx.brain.name, {}) if ctx.state else None
        items = ctx.state.items.setdefault(ctx.brain.name, {}) if ctx.state else None
        kept = ctx.state.views.setdefault(ctx.brain.name, {}) if ctx.state else None
        scoped = replace(ctx, views=tuple(phases.run("views", compute, ctx.brain, ctx.as_of, g, paged, items, kept)), graph=g,
                         beside=side is not None or ctx.beside)
        for emitter in EMITTERS:
            if emitter.scope == "views":
                _run(phases, emitter, scoped)
                if emitter.name == "pages" and pages_staged:
                    pages_staged()
        del scoped
        if side is None:
            if search:
                _search_side(phases, ctx)
            return
        record, timings, emitted = side.get()
    _merge(phases, ctx.writer, record, timings, emitted)


def _merge(phases: Phases, writer: Writer, record: tuple, timings: dict, emitted: dict) -> None:
    """What a forked child wrote, timed and counted, into this process's writer and report."""
    writer.merge(*record)
    for report, kept in ((phases.report.timings, timings), (phases.report.emitted, emitted)):
        for key, value in kept.items():
            report[key] = report.get(key, 0) + value


class ContentSide:
    """The emitters of scope "content" (pagefind), which read the staged note and day pages.
    Without a kept state (a watch rebuild's server has threads: no fork there) they run in a
    forked child from the moment the last brain's pages are staged, beside its data emitter and
    search side; otherwise, and on one core, in this process at finish()."""

    def __init__(self, phases: Phases, ctx: Context):
        self.phases, self.ctx = phases, ctx
        self.emitters = [e for e in EMITTERS if e.scope == "content" and e.wanted(ctx)]
        self.child: Forked | None = None

    def start(self) -> None:
        if self.emitters and _fork_beside(self.ctx):
            self.child = Forked(_in_child, (self._run_all, self.phases, self.ctx))

    def _run_all(self, phases: Phases, ctx: Context) -> None:
        for emitter in self.emitters:
            _run(phases, emitter, ctx)

    def finish(self) -> None:
        if self.child is None:
            self._run_all(self.phases, self.ctx)
        else:
            _merge(self.phases, self.ctx.writer, *self.child.get())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.child is not None:
            self.child.__exit__(*exc)


def _fork_beside(ctx: Context) -> bool:
    """Whether a side of the build runs in a forked child: not in a watch rebuild (its kept state
    must outlive the build, and its server has threads), not on one core."""
    return ctx.state is None and cores() > 1 and can_fork()


def _search_side(phases: Phases, ctx: Context, save_cache=None) -> None:
    """The emitters of the brain's index documents (the search index, store and vectors)."""
    known = ctx.state.pieces.setdefault(ctx.brain.name, {}) if ctx.state else None
    pieces, docs = phases.run("lunr", index_input, ctx.brain, known)
    scoped = replace(ctx, pieces=pieces, docs=tuple(docs))
    for emitter in EMITTERS:
        if emitter.scope == "brain":
            _run(phases, emitter, scoped)
    if save_cache is not None:
        phases.run("parse", save_cache)


def _in_child(state) -> tuple:
    """run(phases, ctx) in a forked child, writing through a part of the parent's writer (which
    sees what the parent staged before the fork): what it wrote (to merge), its timings and counts."""
    run, phases, ctx = state
    return _through(run, replace(ctx, writer=ctx.writer.part()))


def _through(run, ctx: Context) -> tuple:
    """run(phases, ctx), ctx's writer a part of a build's (in another process): what it wrote
    (to merge), its timings and counts (_merge's arguments)."""
    report = BuildReport(out=ctx.writer.out)
    run(Phases(report), ctx)
    return ctx.writer.record(), report.timings, report.emitted


def _run(phases: Phases, emitter: Emitter, ctx: Context) -> None:
    if ctx.stop is not None and ctx.stop.is_set():
        raise BuildError("build stopped: a newer build replaces it")
    if emitter.wanted(ctx):
        paths = phases.run(emitter.phase, emitter.run, ctx)
        phases.report.emitted[emitter.name] = phases.report.emitted.get(emitter.name, 0) + len(paths)


def _manifest(brains, report: BuildReport, writer: Writer, base_url: str | None) -> dict:
    digests = writer.digests   # one hash of every (path, digest), joined: 29k update calls took 0.08 s
    digest = hashlib.sha256(b"".join([path.encode("utf-8") + digests.get(path, b"") for path in sorted(writer.written)]))
    return {
        "bundle_version": BUNDLE_VERSION, "bf_version": __version__, "build_id": digest.hexdigest()[:16],
        "as_of": report.as_of,
        "brains": [{"name": b.name, "title": b.config.title, "root": b.root, "timezone": b.config.timezone,
                    "base_url": base_url or b.config.base_url, "sources": sorted(b.sources),
                    "relations": sorted(set(map(attrgetter("relation"), b.links)) | {"links"}),
                    **({"moved": b.moved} if b.moved else {})} for b in brains],
    }
