"""Where each page and reply lives in the site, and relative URLs between them."""
from __future__ import annotations

from functools import lru_cache

from .. import refs


def reply_path(brain: str, ref: str, *variant: str) -> str:
    return refs.ref_file(brain, ref, *variant)


def page_path(brain: str, ref: str, *variant: str) -> str:
    return refs.ref_file(brain, ref, *variant)[: -len(".json")] + ".html"


def attachment_path(brain: str, rel: str) -> str:
    return "/".join([refs.escape_segment(brain)] + [refs.escape_segment(p) for p in rel.split("/")])


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
