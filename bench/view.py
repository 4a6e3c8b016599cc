"""The bytes a reader downloads for a note page's first view (issue 19), for bench/run.py: the
page, its stylesheets and scripts, the modules those import, and the modules bf.js imports as the
page loads, each gzip-compressed as a web server would send it (files already packed, `.gz`, as
they are). The local graph is counted apart: its module (site/graph.js) loads when the side
column nears the window, so a short note's first view includes it and a long one's not; it draws
1 step from the page's own lists. The navigation files it reads for "Show 2 steps" (and the
explorer) are `graph_data_bytes_gz`: fetched on demand, once per site, then cached.

Which modules bf.js imports on load is read from the page as bf.js reads it (site/bf.js): dates.js
for an instant in a <time>, contents.js for a table of contents, page.js for "Show more", the
JSON-reply button or 404.html's redirect. Previews, search and the explorer load on demand."""
from __future__ import annotations

import gzip
import json
import posixpath
import re
import sys
from pathlib import Path

from builder.kernel.pageurls import page_file

ASSET = re.compile(r'<(?:link rel="stylesheet"|script[^>]*?) (?:href|src)="([^"]+)"')
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s+'(\.{1,2}/[^']+)'|^\s*import\s+'(\.{1,2}/[^']+)'""", re.M)
ON_LOAD = [   # (module bf.js imports as the page loads, what in the page makes it)
    ("dates.js", re.compile(r'<time datetime="[^"]*T')), ("contents.js", re.compile(r'<nav class="outline toc"')),
    ("page.js", re.compile(r"data-bf-(more|json|moved)")),
]
GRAPH_DATA = ["_bf/explorer.json.gz", "_bf/graph.json.gz"]


def _sent(site: Path, rel: str) -> int:
    data = (site / rel).read_bytes()
    return len(data) if rel.endswith(".gz") else len(gzip.compress(data, 6, mtime=0))


def _with_imports(site: Path, modules: list[str]) -> set[str]:
    """`modules` (site paths) and every module they import statically, transitively; files the
    build has not (an older build's bf.js loads no dates.js) are left out."""
    seen, todo = set(), [m for m in modules if (site / m).is_file()]
    while todo:
        rel = todo.pop()
        if rel in seen or not rel.endswith(".js"):
            seen.add(rel)
            continue
        seen.add(rel)
        for m in STATIC_IMPORT.finditer((site / rel).read_text(encoding="utf-8")):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(rel), m.group(1) or m.group(2))))
    return seen


def first_view(site: Path, ref: str) -> dict:
    """`first_view_*` fields for note `ref` of the site's first brain (see the module's docstring)."""
    brain = json.loads((site / "_bf" / "manifest.json").read_bytes())["brains"][0]
    page = page_file(brain["name"], ref, brain.get("moved"))   # its page (emit/urls.py page_path)
    html = (site / page).read_text(encoding="utf-8")
    assets = [posixpath.normpath(posixpath.join(posixpath.dirname(page), a)) for a in ASSET.findall(html)]
    assets += [f"_bf/{module}" for module, pattern in ON_LOAD if pattern.search(html)]
    files = {page} | _with_imports(site, assets)
    graph = _with_imports(site, ["_bf/graph.js"]) - files
    first = sum(_sent(site, f) for f in files)
    return {"first_view_files": len(files), "first_view_bytes_gz": first,
            "first_view_html_bytes_gz": _sent(site, page),
            "first_view_with_graph_bytes_gz": first + sum(_sent(site, f) for f in graph),
            "graph_data_bytes_gz": sum(_sent(site, f) for f in GRAPH_DATA if (site / f).is_file())}


_OPENED: list[str] | None = None   # the files opened while opened_files listens
_HOOKED = False


def _listen(event: str, args: tuple) -> None:
    if event == "open" and _OPENED is not None and isinstance(args[0], (str, Path)):
        _OPENED.append(str(args[0]))


def opened_files(run) -> list[str]:
    """The paths of the files `run()` opens, by a Python audit hook (added once per process: a
    hook cannot be removed, so it listens only while _OPENED is a list)."""
    global _OPENED, _HOOKED
    if not _HOOKED:
        sys.addaudithook(_listen)
        _HOOKED = True
    _OPENED = []
    try:
        run()
    finally:
        opened, _OPENED = _OPENED, None
    return opened


def as_browser(run):
    """run() with the query engine ranking as the browser's does, by block bounds (Python
    weighs every hit: query/topk._BOUNDS), so the files it opens are those the browser fetches."""
    from builder.query import topk
    kept, topk._BOUNDS = topk._BOUNDS, True
    try:
        return run()
    finally:
        topk._BOUNDS = kept


def _rows_read(root: Path, rel: str, opens: int) -> int:
    """The bytes of a vector group's rows file a search reads: a row per open (each asked alone,
    by Range, in the browser: emit/vectors.py)."""
    return opens * json.loads((root / rel).parent.parent.joinpath("meta.json").read_bytes())["dims"]


def search_download(site: Path, queries: list[tuple[str, str | None]]) -> dict:
    """What a search's first download is in the browser (issue 17): the site files a fresh
    in-process `bf search` opens (default mode: hybrid on a site with vectors), as a web server
    sends them, but the brain's fingerprint (Python's staleness check; the browser asks only
    whether it exists). The query engine is the browser's twin file for file, so it reads the
    same files (tests/browser/test_parity.py checks it). `vectors`: the part under a vectors
    folder (the table's files, centres, maps, buckets)."""
    from builder.query.search import search
    from builder.query.site import open_site
    root, totals, vector = site.resolve(), [], []
    for query, scope in queries:
        opened = opened_files(lambda: as_browser(lambda: search(open_site(str(site)), query, scope=scope)))
        opens = [Path(p).resolve().relative_to(root).as_posix() for p in opened if Path(p).resolve().is_relative_to(root)]
        sizes = {rel: _sent(root, rel) if not rel.endswith("/rows.bin") else _rows_read(root, rel, opens.count(rel))
                 for rel in set(opens) if (root / rel).is_file() and "/fingerprint" not in rel}
        totals.append(sum(sizes.values()))
        vector.append(sum(b for rel, b in sizes.items() if "vectors/" in rel))
    totals.sort()
    vector.sort()
    return {"search_first_download_kb_p50": round(totals[len(totals) // 2] / 1000, 1),
            "search_first_download_kb_max": round(totals[-1] / 1000, 1),
            "search_first_download_vectors_kb_max": round(vector[-1] / 1000, 1)}
