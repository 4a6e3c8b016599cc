"""The site's own pages (docs/site.md#pages): search.html (pagefind's UI and the scoped JSON search)
and 404.html. Both sit at the site root; 404.html is served from any path, so its URLs are
base_url-absolute instead of relative."""
from __future__ import annotations

import posixpath
import re
from functools import cache

from ..kernel.bundle import MANIFEST
from ..kernel.model import Brain
from ..kernel.refs import escape_segment
from ..kernel.resources import resource_dir
from .html import render
from .pages import common
from .stage import SiteContext, Stage, paths
from .writer import Writer

PERIODS = ("today", "yesterday", "7d", "30d")
MAX_SUGGESTIONS = 400   # a datalist beyond this helps nobody and weighs on big brains


def scope_suggestions(brain: Brain) -> list[str]:
    """Scopes a person may want: memories, each source, folders, tags, identities, periods."""
    folders = {posixpath.dirname(ref) for ref in brain.notes} - {""}
    for folder in list(folders):
        while "/" in folder:
            folder = folder.rsplit("/", 1)[0]
            folders.add(folder)
    tags = {f"tags/{t}" for note in brain.notes.values() for t in note.tags}
    out = ["memories"] + [f"memories/{s}" for s in sorted(brain.sources)] + sorted(folders) + sorted(tags)
    out += sorted(brain.identities) + list(PERIODS)
    return out[:MAX_SUGGESTIONS]


# The modules the search page's scoped search imports: its own, and the engine bf.js imports on
# its first search. bf.js is the page's own module (base.html).
SEARCH_MODULES = ("searchpage.js", "engine/search.js")
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s+'(\.{1,2}/[^']+)'|^\s*import\s+'(\.{1,2}/[^']+)'""", re.M)
DYNAMIC_IMPORT = re.compile(r"""\bimport\('(\.{1,2}/[^']+)'\)""")   # searchpage.js imports the scoped search's so


@cache
def search_preloads() -> tuple[str, ...]:
    """SEARCH_MODULES and every module they import statically, transitively, and what they import
    at run time, as paths under _bf/ (site/), in order, but bf.js: what search.html's searchtab.js
    hints as modulepreload for the scoped search."""
    site, seen, todo = resource_dir("site"), set(), list(SEARCH_MODULES)
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        text = (site / rel).read_text(encoding="utf-8")
        for m in (*STATIC_IMPORT.finditer(text), *(DYNAMIC_IMPORT.finditer(text) if rel in SEARCH_MODULES else ())):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(rel), m.group(1) or m.group(2))))
    return tuple(sorted(seen - {"bf.js"}))


def search_fetches(brains: list[Brain], embeddings: bool) -> list[str]:
    """The files a scoped search reads first whatever its query (site/engine/search.js
    prefetch): the manifest, each brain's store and index meta, and the vector arm's when the
    build embeds. search.html holds them (data-fetches) and searchtab.js hints them as preload when the
    address asks for a scoped search, fetched with its modules rather than after."""
    out = [MANIFEST] + (["_bf/vectors/table.json"] if embeddings else [])
    for brain in brains:
        base = f"_bf/search/{escape_segment(brain.name)}"
        out += [f"{base}/meta.json", f"{base}/index/meta.json"] + ([f"{base}/vectors/meta.json"] if embeddings else [])
    return out


def _context(brain: Brain, as_of: str, title: str, description: str | None = None) -> dict:
    return common(brain, "home", {"title": title}, as_of, stamped=True) | {
        "json": None, "crumbs": None, "description": description, "ref": None}


def emit_site_pages(writer: Writer, brains: list[Brain], as_of: str, base_url: str | None, embeddings: bool = True) -> None:
    brain = brains[0]
    types = sorted({n.type for b in brains for n in b.notes.values() if n.type})
    writer.write("search.html", render("search.html", "search.html", **_context(
        brain, as_of, "Search", f"Search the notes and records of {brain.config.title}"),
                                       scopes=[s for b in brains for s in scope_suggestions(b)][:MAX_SUGGESTIONS],
                                       types=types, brains=[b.name for b in brains], preload=search_preloads(),
                                       fetches=search_fetches(brains, embeddings)), "site")
    prefix = "/" + (base_url or brain.config.base_url or "/").strip("/") + "/"
    prefix = "/" if prefix == "//" else prefix
    writer.write("404.html", render("404.html", "404.html", **_context(brain, as_of, "Not found", "Nothing lives at this address"),
                                    url=lambda path: prefix + path), "site")


@paths
def _stage(ctx: SiteContext) -> None:
    emit_site_pages(ctx.writer, list(ctx.brains), ctx.as_of, ctx.base_url, ctx.embeddings)


SITE_PAGES = Stage("site pages", "site", "render", _stage, beside=True)
