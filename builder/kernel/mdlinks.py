"""Where a relative Markdown link in a note points (docs/brain.md, "Links"), for the parse
(brain/notes.py) and the page's rendering (emit/html.py) alike.

`[x](other.md#part)` is the note at that path relative to the linking note. A link whose last
segment has no extension, `[TextFileView](TextFileView)` or `[save](TextFileView/save)`, is
a note link as Obsidian reads it: resolved like `[[TextFileView]]` (the path from the brain's
root, else by file name, the nearest of several), or, written `./x` or `../x`, relative to the
linking note. Absolute paths, anchors and links with a scheme are ordinary links. A link whose
last segment has another extension, `![d](attachments/d.svg)`, is a file the brain must hold.
"""
from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

SCHEME = re.compile(r"^[a-zA-Z][\w+.-]*:")


def joined(base: str, path: str) -> str:
    """The brain-relative path of `path` (unquoted, no `#…`) as written in a note of folder
    `base`; it starts with `..` when it climbs above the brain's root."""
    return posixpath.normpath(posixpath.join(base, path))


def _relative(href: str) -> bool:
    return bool(href) and not SCHEME.match(href) and not href.startswith(("/", "#"))


def md_target(base: str, href: str) -> tuple[str, str, bool] | None:
    """(target, heading, by_name) of a relative note link in a note of folder `base`: the
    brain-relative path of a `.md` link (by_name False), or the target to resolve as a wikilink
    (by_name True); None for any other href."""
    if not _relative(href):
        return None
    path, _, frag = href.partition("#")
    path = unquote(path).split("?")[0]
    if path.endswith(".md"):
        at = joined(base, path)
        return None if at.startswith("..") else (at, frag, False)
    name = posixpath.basename(path)
    if not name or "." in name:
        return None
    if path.startswith(("./", "../")):
        path = joined(base, path)
        if path.startswith(".."):
            return None
    return path, frag, True


def md_file(href: str) -> str | None:
    """The path, as written and unquoted, of a relative Markdown link or image to a file that is
    not a note (its last segment has an extension other than `.md`); None for any other href.
    The page links it where the note's folder joined with it is a file (emit/html.py)."""
    if not _relative(href):
        return None
    path = unquote(href.partition("#")[0])
    name = posixpath.basename(path)
    return path if "." in name.strip(".") and not path.endswith(".md") else None
