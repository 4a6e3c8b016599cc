"""Where each page and reply lives in the site, and relative URLs between them."""
from __future__ import annotations

from collections.abc import Container
from functools import lru_cache
from urllib.parse import quote

from ..kernel import refs
from ..kernel.pageurls import page_file

def reply_path(brain: str, ref: str, *variant: str) -> str:
    return refs.ref_file(brain, ref, *variant)


def page_path(brain, ref: str) -> str:
    """The site path of `ref`'s page in `brain` (the model): readable (kernel/pageurls.py), or
    moved when it lost its path to another ref's (brain/pagenames.py); replies keep ref_file's."""
    return page_file(brain.name, ref, brain.moved)


def crumbs(brain, ref: str, title: str, known: Container[str] | None = None) -> list[tuple[str, str | None]]:
    """A page's breadcrumbs: home / each parent ref of `ref`, linked when it has a page (every
    parent, unless `known` holds the refs that do) / `title`, unlinked."""
    trail = [("home", page_path(brain, "home"))]
    parts = ref.split("/")
    for i in range(1, len(parts)):
        parent = "/".join(parts[:i])
        trail.append((parts[i - 1], page_path(brain, parent) if known is None or parent in known else None))
    return trail + [(title, None)]


def attachment_path(brain: str, rel: str) -> str:
    return "/".join([refs.escape_segment(brain)] + [refs.escape_segment(p) for p in rel.split("/")])


def absolute(site_url: str, path: str) -> str:
    """The absolute URL of site path `path` under the site URL (config.check_site_url: ends in "/");
    the root index.html is the site URL itself."""
    return site_url + ("" if path == "index.html" else quote(path, safe="/~#"))


def relative(from_page: str, to_path: str) -> str:
    """A URL from the page at site path `from_page` to the site path `to_path` ('#x' kept):
    up from the page's folder to the folder both share, then down. The climb is worked out
    once per pair of folders (posixpath.relpath per link dominated page rendering)."""
    folder = from_page[: from_page.rfind("/") + 1]
    if to_path.startswith(folder):
        return to_path[len(folder):] or "./"
    up, shared = _climb(folder, to_path[: to_path.rfind("/", 0, _path_end(to_path)) + 1])
    return up + to_path[shared:]


def _path_end(path: str) -> int:
    """Where the path part ends: a '#fragment' may hold '/'."""
    cut = path.find("#")
    return len(path) if cut < 0 else cut


@lru_cache(maxsize=4096)
def _climb(folder: str, target_folder: str) -> tuple[str, int]:
    """('../' per folder left below the shared one, length of the shared folder path)."""
    shared = 0
    for i, (a, b) in enumerate(zip(folder, target_folder)):
        if a != b:
            break
        if a == "/":
            shared = i + 1
    return "../" * folder.count("/", shared), shared


# --- where records are shown (docs/site.md#pages) -------------------------------------------------------
# A record has no page of its own: it is shown in full on its source's day page
# `memories/SOURCE/YYYY-MM-DD` (its placement day — event time, else observation — in the
# brain's timezone), or on `memories/SOURCE/undated` when it has neither, as the element whose
# id is `refs.record_anchor(ref)`. site/links.js computes the same URL in the browser.

def record_page_ref(rec, timezone: str) -> str:
    """The ref of the page showing record `rec`: `memories/SOURCE/YYYY-MM-DD` or `memories/SOURCE/undated`."""
    return _day_ref(rec.source, rec.placed, timezone)


@lru_cache(maxsize=1 << 17)
def _day_ref(source: str, placed, timezone: str) -> str:
    """record_page_ref's: the time zone's arithmetic once per record, not once per link to it."""
    day = placed.astimezone(_zone(timezone)).date().isoformat() if placed is not None else "undated"
    return f"memories/{source}/{day}"


@lru_cache(maxsize=64)
def _zone(name: str):
    from zoneinfo import ZoneInfo
    return ZoneInfo(name)


def record_url(brain, ref: str) -> str | None:
    """Site path of record `ref`'s anchor (`BRAIN/memories/SOURCE/DAY.html#ANCHOR`), None when
    `ref` is no record."""
    rec = brain.records.get(ref)
    if rec is None:
        return None
    return page_path(brain, record_page_ref(rec, brain.config.timezone)) + "#" + refs.record_anchor(ref)


def record_urls(brain) -> dict[str, str]:
    """record ref → site path of its anchor (record_url), for every record."""
    return {ref: record_url(brain, ref) for ref in brain.records}


def relation_anchor(relation: str, record: str | None = None) -> str:
    """The id of a relation's list on its target's page: `rel~cites` on a note or identity page,
    `RECORD_ANCHOR~~rel~cites` for a record on its day page (section slugs never hold "~")."""
    own = "rel~" + refs.escape_segment(relation)
    return own if record is None else refs.record_anchor(record) + "~~" + own
