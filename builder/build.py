"""bf build: the phase checklist (mkdocs-style). Gather everything, then write, then swap.

load brains → compute views → emit replies, pages, assets, index → pagefind → manifest → swap.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from . import BUNDLE_VERSION, MANIFEST, __version__, parsecache
from .brain import load
from .times import parse_instant, rfc3339
from .config import site_urls
from .emit.data import emit_data
from .emit.feeds import emit_feeds
from .emit.navigation import emit_navigation
from .emit.assets import emit_assets, emit_attachments
from .emit.pages import emit_item_pages, emit_replies
from .emit.listings import emit_listing_pages
from .emit.search_index import emit_search
from .emit.vectors import emit_doc_vectors, emit_table
from .emit.site_pages import emit_site_pages
from .emit.urls import attachment_path
from .emit.writer import Writer, recover
from .errors import InvalidInput
from .fingerprint import fingerprint_records, recorded
from .parallel import cores, fork_map
from .views import compute
from .views.graph import graph

@dataclass
class BuildReport:
    out: Path
    build_id: str = ""
    as_of: str = ""
    brains: list[str] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    files: int = 0
    reused: int = 0
    notices: list[str] = field(default_factory=list)   # said once on stderr by the CLI (progress.py)


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


def _cache_path(out: Path) -> Path:
    """The parse cache (builder/parsecache.py: versioned JSON lines, never code) beside --out."""
    return out.parent / ".bf-cache" / f"{out.name}.parse.jsonl"


def build(roots: list[Path], out: Path, *, now: str | None = None, base_url: str | None = None,
          site_url: str | None = None, pagefind: bool = True, embeddings: bool = True, progress=None) -> BuildReport:
    out = Path(out)
    report = BuildReport(out=out, as_of=parse_now(now))
    phases = Phases(report, progress)
    cache_file = _cache_path(out)
    recover(out, cache_file.parent)
    cache = parsecache.load(cache_file)
    cache_file.with_suffix(".pickle").unlink(missing_ok=True)   # an older bf's pickle cache: never read
    skip = {out, cache_file.parent}

    brains = []
    for root in roots:
        if not Path(root).is_dir():
            raise InvalidInput("brain", f"not a folder: {root}")
        parse_cache = cache.notes.setdefault(str(Path(root).resolve()), {})
        brains.append(phases.run("parse", load, Path(root), skip=skip, cache=parse_cache))
    names = [b.name for b in brains]
    if len(set(names)) != len(names):
        raise InvalidInput("brain", f"two brains share the name {sorted(n for n in names if names.count(n) > 1)[0]!r}; set `name` in brain.toml")
    site_url, base_url = site_urls(site_url, base_url, brains[0].config)
    brains = [replace(b, config=replace(b.config, site_url=site_url)) for b in brains]   # every page's og:url
    if site_url is None:
        report.notices.append(NO_SITE_URL)

    writer = Writer(out, cache_file.parent)
    try:
        for brain in brains:
            g = phases.run("views", graph, brain)
            views = phases.run("views", compute, brain, report.as_of, g)
            phases.run("render", _emit_views, writer, brain, views, brain is brains[0])
            phases.run("render", emit_attachments, writer, brain.name, Path(brain.root), brain.attachments, attachment_path)
            vectors = (lambda docs, name=brain.name: phases.run("vectors", emit_doc_vectors, writer, name, docs)) if embeddings else None
            phases.run("lunr", emit_search, writer, brain, report.as_of, vectors)
            _emit_fingerprint(writer, brain)
            report.problems.extend(p.to_json() for p in brain.problems)
        phases.run("render", emit_site_pages, writer, brains, report.as_of, base_url)
        phases.run("render", emit_navigation, writer, brains, report.as_of)   # before the sitemap lists pages
        phases.run("feeds", emit_feeds, writer, brains, report.as_of)
        phases.run("assets", emit_assets, writer)
        if embeddings:
            phases.run("vectors", emit_table, writer)
        if pagefind:
            from .emit.pagefind import emit_pagefind
            phases.run("pagefind", emit_pagefind, writer, brains)
        manifest = _manifest(brains, report, writer, base_url)
        writer.write_json(MANIFEST, manifest, "manifest")
        report.build_id = manifest["build_id"]
        phases.run("swap", writer.commit)
    except BaseException:
        writer.abort()
        raise
    report.brains = names
    report.files = len(writer.written)
    report.reused = writer.reused
    parsecache.save(cache_file, cache)
    return report


def _emit_views(writer: Writer, brain, views: list, root: bool) -> None:
    """Replies and pages of every view, spread over the cores (each worker takes every n-th view)."""
    n = cores() * 2
    state = (writer, brain, views, root, n)
    for record in fork_map(_emit_chunk, list(range(n)), state, parallel=len(views) > 500):
        writer.merge(*record)
    emit_data(writer, brain.name, views)


def _emit_chunk(state, index: int):
    writer, brain, views, root, n = state
    part = writer.part()
    chunk = views[index::n]
    emit_replies(part, chunk)
    emit_item_pages(part, brain, chunk)
    emit_listing_pages(part, brain, chunk, root=root, all_views=views)
    return part.record()


def _emit_fingerprint(writer: Writer, brain) -> None:
    """What staleness compares against (builder/fingerprint.py): the brain's files, and each source
    folder's files apart, in `_bf/BRAIN/fingerprint/` (read only when that folder changed). A site
    built inside its brain (`--out docs`) is not the brain's: the previous site must not count."""
    root = Path(brain.root)
    try:
        skip = [writer.out.resolve().relative_to(root).as_posix()]
    except ValueError:
        skip = []
    main, records = recorded(root, skip)
    writer.write_json(f"_bf/{brain.name}/fingerprint.json", main, brain.name)
    for folder, files in records.items():
        writer.write_json(fingerprint_records(brain.name, folder), files, brain.name)


def _manifest(brains, report: BuildReport, writer: Writer, base_url: str | None) -> dict:
    digest = hashlib.sha256()
    for path in sorted(writer.written):
        digest.update(path.encode("utf-8"))
        digest.update(writer.digests.get(path, b""))
    return {
        "bundle_version": BUNDLE_VERSION, "bf_version": __version__, "build_id": digest.hexdigest()[:16],
        "as_of": report.as_of,
        "brains": [{"name": b.name, "title": b.config.title, "root": b.root, "timezone": b.config.timezone,
                    "base_url": base_url or b.config.base_url, "sources": sorted(b.sources),
                    "relations": sorted({l.relation for l in b.links} | {"links"})} for b in brains],
    }
