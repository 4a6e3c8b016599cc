"""Where each page and reply lives in the site, and relative URLs between them."""
from __future__ import annotations

import posixpath

from .. import refs


def reply_path(brain: str, ref: str, *variant: str) -> str:
    return refs.ref_file(brain, ref, *variant)


def page_path(brain: str, ref: str, *variant: str) -> str:
    return refs.ref_file(brain, ref, *variant)[: -len(".json")] + ".html"


def attachment_path(brain: str, rel: str) -> str:
    return "/".join([refs.escape_segment(brain)] + [refs.escape_segment(p) for p in rel.split("/")])


def relative(from_page: str, to_path: str) -> str:
    """A URL from the page at site path `from_page` to the site path `to_path` ('#x' kept)."""
    target, hash_, frag = to_path.partition("#")
    rel = posixpath.relpath(target, posixpath.dirname(from_page) or ".")
    return rel + (hash_ + frag if hash_ else "")
