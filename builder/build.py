"""bf build: the checklist (mkdocs-style). Gather everything, then write, then swap.

load the brains → per brain: its views, and the stages of scope "views" over them; its index
documents, and the stages of scope "index" over them → the site's stages → the content stages
(over the staged pages) → manifest → swap. The stages and their order: emit/emitters.py; where
each runs (here, forked beside, in a watch session's search worker): runner.py.
"""
from __future__ import annotations

import gc
import hashlib
import os
import threading
from dataclasses import dataclass, replace
from functools import partial
from operator import attrgetter
from datetime import datetime, timezone
from pathlib import Path

from . import BUNDLE_VERSION, MANIFEST, __version__, parsecache
from .brain import LoadMemo, load
from .kernel.times import parse_instant, rfc3339
from .kernel.config import site_urls
from .emit.entries import CameWent
from .emit.html import checked
from .emit.look import settled
from .emit.stage import Build, scoped
from .emit.state import BuildState
from .emit.spare import recover
from .emit.writer import Writer
from .kernel.errors import InvalidInput
from .kernel.fingerprint import CACHE_DIR
from .kernel.parallel import SERIAL, Spread
from .runner import BuildReport, Phases, Runner, run_stages, without_full_collections
from .searchworker import SearchLost, read_digest
from .views import ViewsMemo, compute
from .views.graph import graph
from .views.documents import index_input
from .views.memo import Changes

__all__ = ["BuildReport", "build", "cache_path", "parse_now"]

NO_SITE_URL = "feeds and sitemap skipped: need site URL (--site-url https://…, or site_url in brain.toml)"
PAGES_LIMIT = 1_000_000_000   # GitHub Pages publishes sites up to 1 GB (docs/site.md#sizes-a-host-takes)


@dataclass(frozen=True)
class Request:
    """What a build was asked (build()'s arguments)."""
    out: Path
    roots: list
    now: str | None
    base_url: str | None
    site_url: str | None
    theme: str | None
    pagefind: bool | str
    embeddings: bool
    progress: object
    changed: set[Path] | None
    stop: threading.Event | None


@dataclass(frozen=True)
class Load:
    """What the parse reads (sent to the search worker, which parses it too)."""
    roots: tuple
    skip: frozenset
    changed: frozenset | None
    site_url: str | None
    theme: str | None
    base_url: str | None


def parse_now(now: str | None) -> str:
    if now is None:
        return rfc3339(datetime.now(timezone.utc))
    parsed = parse_instant(now) if len(now) > 10 else None
    if parsed is None:
        raise InvalidInput("--now", f"expected an RFC 3339 instant like 2026-12-02T12:00:00Z, got {now!r}")
    return rfc3339(parsed)


def cache_path(out: Path) -> Path:
    """The parse cache (builder/parsecache.py: versioned JSON lines, never code) beside --out."""
    return out.parent / CACHE_DIR / f"{out.name}.parse.jsonl"


@without_full_collections
def build(roots: list[Path], out: Path, *, now: str | None = None, base_url: str | None = None,
          site_url: str | None = None, pagefind: bool | str = True, embeddings: bool = True, progress=None,
          state: BuildState | None = None, changed: set[Path] | None = None,
          stop: threading.Event | None = None, theme: str | None = None) -> BuildReport:
    """`state`: what the last build in this process left (emit/state.py; bf serve --watch keeps
    one), so this build recomputes only what changed where a stage knows how; its index side
    runs in a worker beside, which the state's first build forks (runner.py). `changed`: the
    paths file events named since that build (bf serve --watch), which the parse looks at
    instead of every file (brain/rediscover.py); None: it walks the brains. `pagefind="later"`
    takes the previous site's full-text bundles as they are (bf serve --watch publishes a
    rebuild's pages first, then builds again with pagefind: watch.WatchBuilds), and `stop`, once set,
    ends that second build early with a BuildError (a newer save made it moot). `theme`: a theme
    folder, instead of the first brain's (emit/look.py)."""
    request = Request(Path(out), roots, now, base_url, site_url, theme, pagefind, embeddings, progress, changed, stop)
    try:
        return _build(request, state, forks=True)
    except SearchLost:   # its worker died, or read other bytes: this process does its part afresh
        state.lose_search()
        return _build(request, state, forks=False)


def _build(req: Request, state: BuildState | None, forks: bool) -> BuildReport:
    """The checklist. `forks`: whether the build may fork (runner.py); not after a lost worker."""
    report = BuildReport(out=req.out, as_of=parse_now(req.now))
    phases = Phases(report, req.progress)
    cache_file = cache_path(req.out)
    recover(req.out, cache_file.parent)
    cache = _parse_cache(state, cache_file, report.notices)
    asked = Load(tuple(req.roots), frozenset({req.out, cache_file.parent}),
                 None if req.changed is None else frozenset(req.changed), req.site_url, req.theme, req.base_url)
    runner = Runner(phases, state, forks, partial(_load, cache=cache), index_side)
    tally = phases.tally if hasattr(req.progress, "tally") else None   # counts only for one who listens
    with runner.session(asked):
        brains, digests, (site_url, base_url) = phases.run("parse", runner.load, asked, digest=runner.remote is not None,
                                                            tally=tally)
        phases.count(f"parse: {sum(len(b.notes) for b in brains):,} notes, {sum(len(b.records) for b in brains):,} records")
        if site_url is None:
            report.notices.append(NO_SITE_URL)
        writer = Writer(req.out, cache_file.parent, state.spare if state is not None else None)
        build = Build(writer, tuple(brains), report.as_of, base_url, req.embeddings, req.pagefind, req.stop,
                      spread=runner.spread, tally=tally)
        beside = runner.begin(build)
        # The parsed brains (and a kept BuildState) live through the build: the collector need not
        # walk them again and again (it took a tenth of a rebuild at 10k notes). Unfrozen at the end,
        # but for a kept state: BuildState.settle collects what this build made, then freezes it too.
        gc.freeze()
        # Without a kept state the parse cache is saved beside the first brain's views, by its index
        # child or this process, whichever is done first (1 s of a 10k build's wall time otherwise).
        save = partial(parsecache.save, cache_file, cache)
        try:
            for brain in brains:
                with runner.index_of(brain, save if runner.beside and brain is brains[0] else None):
                    views_side(phases, runner, build, brain, beside)
                report.problems.extend(p.to_json() for p in brain.problems)
                report.withheld[brain.name] = dict(brain.withheld)
            runner.stages("site", scoped("site", build))
            runner.join(digests)   # the index side's worker, the content stages
            manifest = _manifest(brains, report, writer, base_url)
            writer.write_json(MANIFEST, manifest, "manifest")
            report.build_id = manifest["build_id"]
            phases.run("swap", writer.commit)
        except BaseException as exc:
            runner.abandon(exc)
            writer.abort()
            raise
        finally:
            if state is None:
                gc.unfreeze()
    report.brains, report.files, report.reused = [b.name for b in brains], len(writer.written), writer.reused
    # a one-shot build's (one a host will serve): a live preview's saves would each walk the site
    report.bytes = _size(req.out) if state is None else 0
    if report.bytes > PAGES_LIMIT:
        report.notices.append(f"the site holds {report.bytes / 1e9:.2f} GB, more than GitHub Pages' 1 GB: "
                              "see docs/site.md#sizes-a-host-takes for hosts of larger sites")
    if state is not None:   # saved by BuildState.settle, once the page is told
        state.unsaved = save
    elif not runner.beside:
        save()
    return report


def _size(folder: Path) -> int:
    """The bytes of every file below `folder` (a host counts what it serves: its files' sizes)."""
    total, stack = 0, [str(folder)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                else:
                    total += entry.stat(follow_symlinks=False).st_size
    return total


def views_side(phases: Phases, runner: Runner, build: Build, brain, beside: bool) -> None:
    """A brain's views, then the stages of scope "views" over them (freed when this returns).
    `beside`: its whole index side is computed beside (then the pages stage forks no workers)."""
    memo = runner.state.memo("views", "views", brain.name, ViewsMemo) if runner.state is not None else None
    g = phases.run("views", graph, brain, memo and memo.graph, memo.changes if memo else Changes())
    views = tuple(phases.run("views", compute, brain, build.as_of, g, memo))
    runner.stages("views", scoped("views", build, brain=brain, views=views, graph=g, beside=beside, came_went=CameWent()))


def index_side(phases: Phases, build: Build, brain, state: BuildState | None = None, save=None,
               spread: Spread = SERIAL) -> None:
    """A brain's index documents (pieces cut once for the index, the store and the vectors), then
    the stages of scope "index" over them; `save()` once they are done (runner.Runner.index_of).
    `spread`: the workers the runner allows (its stages get the build's)."""
    known = state.memo("index", "documents", brain.name, dict) if state is not None else None
    changes = Changes()   # index_input's answers, for the store's stage
    pieces, docs = phases.run("lunr", index_input, brain, known, changes, spread)
    run_stages(phases, "index", scoped("index", build, brain=brain, pieces=pieces, docs=tuple(docs), changes=changes), state)
    if save is not None:
        phases.run("parse", save)


def _parse_cache(state: BuildState | None, cache_file: Path, notices: list):
    """The parse cache: a kept state's, else read from beside --out (and kept by the state); why
    a file there was not read joins `notices`, said by the build that found it."""
    cache = state.parse if state is not None and state.parse is not None else parsecache.load(cache_file)
    if cache.unused is not None:
        notices.append(cache.unused)
        cache.unused = None
    if state is not None:
        state.parse = cache
    cache_file.with_suffix(".pickle").unlink(missing_ok=True)   # an older bf's pickle cache: never read
    return cache


def _load(request: Load, cache, digest: bool = True, spread: Spread = SERIAL, tally=None) -> tuple[list, list[int], tuple]:
    """Parse each brain of a build `request` (with `cache`, parsecache.Cache, updated in place),
    each with its config's site URL set (every page's og:url): the brains, what each parse read
    (searchworker.read_digest, when `digest`) and the build's (site URL, base_url). `tally`
    hears each brain's count of notes parsed (brain.load)."""
    roots, skip, changed, site_url, theme, base_url = (request.roots, request.skip, request.changed, request.site_url,
                                                       request.theme, request.base_url)
    brains, digests = [], []
    for root in roots:
        if not Path(root).is_dir():
            raise InvalidInput("brain", f"not a folder: {root}")
        key = str(Path(root).resolve())
        parsed = cache.notes.setdefault(key, {})
        brain = load(Path(root), skip=skip, cache=parsed, memo=cache.memos.setdefault(key, LoadMemo()), changed=changed,
                     spread=spread, tally=tally)
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
