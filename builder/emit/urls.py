"""Where each page and reply lives in the site, and relative URLs between them."""
from __future__ import annotations

from .. import refs


def reply_path(brain: str, ref: str, *variant: str) -> str:
    return refs.ref_file(brain, ref, *variant)


def page_path(brain: str, ref: str, *variant: str) -> str:
    return refs.ref_file(brain, ref, *variant)[: -len(".json")] + ".html"


def attachment_path(brain: str, rel: str) -> str:
    return "/".join([refs.escape_segment(brain)] + [refs.escape_segment(p) for p in rel.split("/")])


def relative(from_page: str, to_path: str) -> str:
    """A URL from the page at site path `from_page` to the site path `to_path` ('#x' kept).

    Within the page's folder the URL is just the rest of the path; elsewhere it climbs to
    the site root and descends: not always the shortest URL, but exact, and it costs
    nothing per link (posixpath.relpath dominated page rendering)."""
    folder = from_page[: from_page.rfind("/") + 1]
    if folder and to_path.startswith(folder):
        return to_path[len(folder):] or "./"
    return "../" * from_page.count("/") + to_path
