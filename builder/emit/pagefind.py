"""Full-text search bundles: pagefind over the content pages, in several bundles.

What is indexed: note pages (their sections are anchors on them) and the pages showing
records in full — each source's day pages and undated page, one sub-result per record —
never listing, period, tag or home pages. Pages mark what pagefind reads
(``data-pagefind-body`` on the content, ``data-pagefind-filter`` type/tag/source/folder,
``data-pagefind-meta`` title/date/excerpt); this module picks which pages it sees, and
`EXCLUDED` names what it skips inside them.

Why several bundles: pagefind's memory grows with the pages of one run, and one run over a
10k-note + 50k-record site needs gigabytes (docs/decisions.md#full-text-search-in-bundles), so each brain's pages are split into bundles of at most ~3,000 notes or
~10,000 records (records by source; sources under 1,000 records share one bundle), a
page's bundle within its group chosen by a hash of its path so that adding a page
disturbs one bundle only. Each bundle is built by its own pagefind process over a
working copy holding only its pages (hard links, so no ``--glob`` walk over the whole
site), two processes at a time (pagefind 1.5.2 keeps about one core busy).

Languages: every page declares one (``<html lang>``: the brain's ``language``, or a note's
``lang:``), and pagefind writes one index per language inside a bundle; its extended build
(``pagefind[extended]``) is the one that segments Chinese and Japanese. pagefind's JS searches
one language by default (the page's), so bundles.json lists each bundle's languages with
their page counts and the search page merges every (bundle, language) index (site/fulltext.js).

Layout: ``pagefind/<brain>/<bundle>/`` per bundle, ``pagefind/bundles.json`` listing
them, and ``pagefind/pagefind-ui.{js,css}`` for the search page, whose PagefindUI searches
one index of the first bundle and merges the others (``mergeIndex``; merged indexes reuse
the first one's wasm, and their filters are merged).

Incremental: bundles.json records, per bundle, a hash of its input — the bytes of its
pages (without the spans marked ``data-bf-asof``: the footer's build instant, which is on every
page, and due badges, all outside what pagefind indexes; the same instant anywhere else, say in
a note's text, is indexed and stays in), the
pagefind version, `PAGEFIND_FORMAT` and `CODE`. A bundle whose input hash
equals the previous site's is copied from it through the Writer (which hard-links the
identical files) instead of re-running pagefind.

Every bundle is made byte-deterministic by `pagefind_canon.canonicalize` (index_pages returns
the files it could not fix). pagefind runs in a temporary working
directory without ``PAGEFIND_*`` variables, so a stray ``pagefind.yml`` or environment
cannot change the output.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

from ..kernel.errors import BuildError
from ..kernel.formats import PAGEFIND_FORMAT
from ..kernel.refs import escape_segment
from .pagefind_canon import canonicalize
from .stage import ContentContext, Stage, paths
from .urls import page_path, record_page_ref
from .writer import Writer

__all__ = ["PagefindError", "Bundle", "plan_bundles", "emit_pagefind", "index_pages",
           "pagefind_executable", "BUNDLE_DIR", "BUNDLES_JSON"]

BUNDLE_DIR = "pagefind"
BUNDLES_JSON = f"{BUNDLE_DIR}/bundles.json"
UI_FILES = ("pagefind-ui.js", "pagefind-ui.css")
ENGINE = "pagefind_bin_extended"   # the wheel holding the binary; its version is pagefind's
#: The code that makes a bundle (this module: which pages, pagefind's flags; pagefind_canon.py):
#: any change to it rebuilds every bundle, as the parse cache does, without relying on a PAGEFIND_FORMAT bump.
CODE = hashlib.sha256(b"".join(Path(__file__).with_name(name).read_bytes()
                               for name in ("pagefind.py", "pagefind_canon.py"))).hexdigest()[:16]
NOTES_PER_BUNDLE = 3000      # a run's memory grows with its pages: about half a GB each (docs/limits.md#the-site)
RECORDS_PER_BUNDLE = 10000
SMALL_SOURCE = 1000          # sources below this share the brain's "records-other" bundles
PARALLEL = 2


class PagefindError(BuildError):
    """pagefind failed; the message carries its stderr (or stdout). A failed build: exit 1,
    code ``build_failed``, the previous site kept."""


@dataclass
class Bundle:
    folder: str                    # under pagefind/, ends with "/"
    pages: list[str] = field(default_factory=list)
    input: str = ""


def pagefind_executable() -> Path:
    """pagefind's extended binary, installed by the ``pagefind_bin_extended`` wheel."""
    try:
        import pagefind_bin_extended
    except ImportError as exc:  # pragma: no cover - dependency is required
        raise PagefindError("pagefind_bin_extended is not installed (pip install 'pagefind[extended]==1.5.2')") from exc
    try:
        return Path(pagefind_bin_extended.get_executable()).absolute()
    except FileNotFoundError as exc:  # pragma: no cover
        raise PagefindError(f"pagefind binary not found: {exc}") from exc


# --- which pages go to which bundle ----------------------------------------------------


def plan_bundles(groups: dict[str, list[str]], per_bundle: dict[str, int]) -> list[Bundle]:
    """Split each group (folder prefix → page paths) into ceil(n / cap) bundles by path hash.

    `per_bundle` maps a group to its cap. Bundles come out sorted by folder, pages sorted."""
    bundles = []
    for group, pages in sorted(groups.items()):
        if not pages:
            continue
        n = -(-len(pages) // per_bundle[group])
        parts: list[list[str]] = [[] for _ in range(n)]
        for page in pages:
            parts[int(hashlib.sha256(page.encode("utf-8")).hexdigest()[:8], 16) % n].append(page)
        bundles += [Bundle(f"{group}-{i}/", sorted(p)) for i, p in enumerate(parts) if p]
    return sorted(bundles, key=lambda b: b.folder)


def _content_groups(brains, writer: Writer) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Note pages, and the pages showing records in full: each source's day pages and its undated
    page (a record has no page of its own). A day page is one result filtered by its source, each
    record a sub-result (its heading carries the record's anchor). Record bundles are capped by
    records, so a group's cap in pages is its pages per `RECORDS_PER_BUNDLE` records."""
    groups: dict[str, list[str]] = {}
    caps: dict[str, int] = {}
    for brain in brains:
        b = escape_segment(brain.name)
        notes = f"{b}/notes"
        groups[notes], caps[notes] = [], NOTES_PER_BUNDLE
        for ref in brain.notes:
            groups[notes].append(page_path(brain, ref))
        by_source: dict[str, dict[str, int]] = {}     # source → its pages → records on each
        for rec in brain.records.values():
            page = page_path(brain, record_page_ref(rec, brain.config.timezone))
            pages = by_source.setdefault(rec.source, {})
            pages[page] = pages.get(page, 0) + 1
        records: dict[str, int] = {}
        for source, pages in sorted(by_source.items()):
            n = sum(pages.values())
            name = f"{b}/records-{escape_segment(source)}" if n >= SMALL_SOURCE else f"{b}/records-other"
            groups.setdefault(name, []).extend(pages)
            records[name] = records.get(name, 0) + n
        for name, n in records.items():
            bundles = -(-n // RECORDS_PER_BUNDLE)
            caps[name] = max(1, -(-len(groups[name]) // bundles))
    # a page not written (none today) is simply not indexed
    return {g: [p for p in pages if writer.staged(p)] for g, pages in groups.items()}, caps


# --- the build phase ----------------------------------------------------------------------


def emit_pagefind(writer: Writer, brains, later: bool = False, stop: threading.Event | None = None) -> list[Bundle]:
    """Index the staged content pages of `brains` into pagefind bundles, through `writer`.
    `later`: take the previous site's bundles as they are, when it has some (a watch rebuild
    publishes its pages first and indexes them in a second build: watch.WatchBuilds); none are returned.
    `stop`, once set, ends the pagefind runs with a PagefindError (a newer save made them moot)."""
    if later and _keep_previous(writer):
        return []
    groups, caps = _content_groups(brains, writer)
    bundles = plan_bundles(groups, caps)
    engine = version(ENGINE)
    for bundle in bundles:
        bundle.input = _input_hash(writer.stage, bundle.pages, engine)
    previous = _previous(writer.previous, engine)
    entries: dict[str, dict] = {}   # folder → {"files": n}
    stale = []
    for bundle in bundles:
        old = previous.get(bundle.folder)
        reused = _copy_previous(writer, bundle, old) if old and old.get("input") == bundle.input else 0
        if reused:
            entries[bundle.folder] = {"files": reused}
        else:
            stale.append(bundle)
    if stale:
        with tempfile.TemporaryDirectory(prefix=".bf-pagefind-", dir=writer.stage.parent) as tmp:
            def run(bundle: Bundle) -> tuple[Path, list[str]]:
                out = Path(tmp) / bundle.folder.replace("/", "_")
                return out, index_pages(writer.stage, bundle.pages, out, stop=stop)
            with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
                for bundle, (out, _) in zip(stale, pool.map(run, stale)):
                    files = sorted(p for p in out.rglob("*") if p.is_file())
                    for path in files:
                        writer.link(path, f"{BUNDLE_DIR}/{bundle.folder}{path.relative_to(out).as_posix()}")
                    entries[bundle.folder] = {"files": len(files)}
                    shutil.rmtree(out)
    if bundles:
        for name in UI_FILES:  # the same in every bundle; the search page loads them from here
            writer.copy(writer.stage / BUNDLE_DIR / bundles[0].folder / name, f"{BUNDLE_DIR}/{name}")
    writer.write_json(BUNDLES_JSON, {
        "format": PAGEFIND_FORMAT, "pagefind": engine,
        "bundles": [{"path": b.folder, "pages": len(b.pages), "input": b.input, **entries[b.folder],
                     "languages": _languages(writer.stage / BUNDLE_DIR / b.folder)} for b in bundles]}, "pagefind")
    return bundles


def _languages(bundle: Path) -> dict[str, int]:
    """A bundle's language indexes → their page counts, from its pagefind-entry.json (sorted by
    `pagefind_canon`): what the search page needs to merge every one of them."""
    entry = json.loads((bundle / "pagefind-entry.json").read_bytes())
    return {lang: index["page_count"] for lang, index in entry["languages"].items()}


#: Words that follow the build instant (due badges: "tomorrow"; the footer's "as of"), outside
#: what pagefind indexes.
ASOF_SPANS = re.compile(rb"<span [^>]*data-bf-asof[^>]*>.*?</span>", re.S)


def _input_hash(stage: Path, pages: list[str], engine: str) -> str:
    digest = hashlib.sha256(f"{PAGEFIND_FORMAT}\0{CODE}\0{engine}\0".encode("utf-8"))
    for page in pages:
        data = ASOF_SPANS.sub(b"", (stage / page).read_bytes())
        digest.update(f"{page}\0{len(data)}\0".encode("utf-8"))
        digest.update(data)
    return digest.hexdigest()


def _previous(site: Path | None, engine: str) -> dict[str, dict]:
    """The previous build's bundles (folder → entry) when they can be reused."""
    try:
        data = json.loads((site / BUNDLES_JSON).read_bytes()) if site else {}
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != PAGEFIND_FORMAT or data.get("pagefind") != engine:
        return {}
    return {b["path"]: b for b in data.get("bundles", []) if isinstance(b, dict) and "path" in b}


def _copy_previous(writer: Writer, bundle: Bundle, old: dict) -> int:
    """Copy a bundle folder of the previous site through `writer`: its file count, 0 if incomplete."""
    folder = writer.previous / BUNDLE_DIR / bundle.folder
    files = _files_under(folder) if folder.is_dir() else []
    if not files or len(files) != old.get("files"):
        return 0
    for rel in files:
        _take(writer, folder, rel, f"{BUNDLE_DIR}/{bundle.folder}{rel}")
    return len(files)


def _keep_previous(writer: Writer) -> bool:
    """The previous site's whole pagefind folder through `writer`; False when it has no bundles."""
    folder = writer.previous / BUNDLE_DIR if writer.previous is not None else None
    if folder is None or not (folder / "bundles.json").is_file():
        return False
    for rel in _files_under(folder):
        _take(writer, folder, rel, f"{BUNDLE_DIR}/{rel}")
    return True


def _files_under(folder: Path) -> list[str]:
    """The files under `folder`, as sorted POSIX paths relative to it (strings from os.walk:
    Path.rglob makes a Path per file, and a 10k-note site has 11k of them)."""
    out = []
    for where, _, names in os.walk(folder):
        rel = os.path.relpath(where, folder)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        out.extend(prefix + name for name in names)
    return sorted(out)


def _take(writer: Writer, folder: Path, rel: str, path: str) -> None:
    """The previous site's file `rel` of `folder` at `path`: kept without reading it when the
    writer's file index vouches for its bytes (11k files, 67 MB at 10k notes), else copied."""
    known = writer.index.get(path)
    if known is None or not writer.keep(path, known[0], "pagefind"):
        writer.copy(folder / rel, path)


# --- one pagefind run -----------------------------------------------------------------------


# What pagefind skips inside an indexed page's body: the lines of dates, authors, fields, tags,
# links and backlinks around a record or note, due badges, and embedded notes (indexed on their own
# page). One selector list here instead of a data-pagefind-ignore attribute on each element, which
# a day page would repeat for each of its records (docs/site.md#page-weight-what-pages-leave-out).
EXCLUDED = ", ".join(("p.meta", "p.tags", "p.refs", "p.origin", "dl.fields", "nav.period-nav",
                      "section.backlinks", "section.listed", "span.due", "div.embed-body"))


def index_pages(site_dir: Path, pages: list[str], out: Path, *, quiet: bool = True,
                stop: threading.Event | None = None) -> list[str]:
    """Run pagefind over `pages` (paths relative to `site_dir`), bundle into `out`.

    pagefind sees a working copy holding only those pages (hard links where possible), so
    result URLs are the pages' site paths. Returns the bundle files left nondeterministic
    (relative to `out`). Raises `PagefindError` when pagefind fails."""
    site_dir, out = Path(site_dir).absolute(), Path(out).absolute()   # pagefind runs in another cwd
    if out.exists():
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory(prefix=".bf-pagefind-pages-", dir=out.parent) as tmp:
        work = Path(tmp)
        copy = work / "site"
        for page in pages:
            target = copy / page
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(site_dir / page, target)
            except OSError:  # another file system: copy instead
                shutil.copyfile(site_dir / page, target)
        copy.mkdir(exist_ok=True)
        cmd = [str(pagefind_executable()), "--site", str(copy), "--output-path", str(out),
               "--exclude-selectors", EXCLUDED, *(["--quiet"] if quiet else [])]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAGEFIND_")}
        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stdout, stderr = _communicate(proc, stop)
    if not quiet and stdout:
        sys.stderr.write(stdout)
    if proc.returncode != 0 or not (out / "pagefind-entry.json").is_file():
        detail = stderr.strip() or stdout.strip() or "(no output)"
        raise PagefindError(f"build failed, previous site kept: pagefind failed (exit {proc.returncode}) "
                            f"on {len(pages)} page(s) of {site_dir}:\n{detail}")
    return canonicalize(out)


def _communicate(proc: subprocess.Popen, stop: threading.Event | None) -> tuple[str, str]:
    """pagefind's output once it ends; killed as soon as `stop` is set."""
    while stop is None or not stop.is_set():
        try:
            return proc.communicate(timeout=None if stop is None else 0.02)
        except subprocess.TimeoutExpired:
            pass
    proc.kill()
    proc.communicate()
    raise PagefindError("pagefind stopped: a newer build replaces this one")


@paths
def _stage(ctx: ContentContext) -> None:
    emit_pagefind(ctx.writer, list(ctx.brains), ctx.pagefind == "later", ctx.stop)


PAGEFIND = Stage("pagefind", "content", "pagefind", _stage, needs=("pages",), when="pagefind")
