"""Discovery after file events (bf serve --watch): the last walk's Found, brought up to date
with the paths the operating system said changed, instead of a stat of every file.

What comes out is what discover() finds now as long as every change was named: a changed path
is forgotten with all below it and looked at again as the walk would (its folder's rules: dot
names, SKIP_DIRS, .bfignore, links, the site's own folder), a path below a folder the walk
never knew is looked at from that folder, and the folders above a changed path are stat'ed again
(their mtime, size and links are what the fingerprint signs). The lists keep the walk's order.
A changed .bfignore, a path that cannot be looked at, or many paths: None, and the caller walks.
A plain `bf build` always walks: an event the watcher missed costs at most one wrong preview.
"""
from __future__ import annotations

import os
import stat
from bisect import insort
from dataclasses import fields
from pathlib import Path

from .discover import SKIP_DIRS, Found, _ignore, _visit

MAX_PATHS = 500      # more changed paths than this (a checkout): walking is as quick
LISTS = ("notes", "records", "source_files", "attachments")   # in the walk's order


class _Entry:
    """An os.DirEntry of one path an event named."""

    def __init__(self, root: Path, rel: str, st: os.stat_result):
        self.name, self.path, self._st = rel.rpartition("/")[2], str(root / rel), st

    def stat(self, follow_symlinks: bool = False) -> os.stat_result:
        return self._st


def _order(rel: str) -> list[str]:
    """The walk's order: each folder's entries by name, a folder's contents where it stands."""
    return rel.split("/")


def rediscover(root: Path, skip: set[Path], last: Found, changed: set[str]) -> Found | None:
    """`last` (what discover(root, skip) found) with the brain-relative paths `changed` looked
    at again; None when the brain must be walked instead."""
    if ".bfignore" in changed or len(changed) > MAX_PATHS or "" in changed:
        return None
    found = Found(**{f.name: type(getattr(last, f.name))(getattr(last, f.name)) for f in fields(Found)})
    ignore, skip = _ignore(root), {p.resolve() for p in skip}
    for rel in sorted(changed, key=_order):
        top = _looked_at(rel, found)
        if top is not None:
            _forget(found, top)
            try:
                st = os.lstat(root / top)
            except FileNotFoundError:
                st = None                      # gone: forgotten is all
            except OSError:
                return None
            if st is not None:
                part = Found()
                _visit(root, top.rpartition("/")[0], _Entry(root, top, st), ignore, skip, part)
                _merge(found, part)
        parts = (top or rel).split("/")
        for depth in range(1, len(parts)):   # the folders above it that the walk saw: their stat moved
            folder = "/".join(parts[:depth])
            if folder in found.others:
                try:
                    st = os.lstat(root / folder)
                except OSError:
                    return None
                found.others[folder] = (stat.S_ISDIR(st.st_mode), st.st_size, st.st_mtime_ns, st.st_nlink)
    if any(rel.startswith("memories/") for rel in changed):
        found.source_dirs = list(dict.fromkeys(rel.split("/", 2)[1] for rel in found.records))
    return found


def _looked_at(rel: str, found: Found) -> str | None:
    """The path to look at again for a change at `rel`: itself, or the highest folder above it
    the walk did not know (a folder made with its files); None when the walk does not go there."""
    parts = rel.split("/")
    unread = set(found.unread)
    for depth in range(1, len(parts)):
        folder, name = "/".join(parts[:depth]), parts[depth - 1]
        if name.startswith(".") or (depth == 1 and name in SKIP_DIRS):
            return None
        seen = found.others.get(folder)
        if seen is None:
            return folder
        if not seen[0] or folder in unread:   # a link, a file, or a folder not entered
            return None
    return rel


def _forget(found: Found, top: str) -> None:
    """`top` and everything below it, out of `found`."""
    below = top + "/"
    if (found.others.get(top) or (False,))[0] or top in found.unread:
        for name in (*LISTS, "unread"):
            setattr(found, name, [r for r in getattr(found, name) if r != top and not r.startswith(below)])
        found.stats = {r: v for r, v in found.stats.items() if not r.startswith(below)}
        found.others = {r: v for r, v in found.others.items() if not r.startswith(below)}
    else:
        for name in (*LISTS, "unread"):
            if top in getattr(found, name):
                getattr(found, name).remove(top)
    found.stats.pop(top, None)
    found.others.pop(top, None)
    found.skipped = [s for s in found.skipped if s[0] != top and not s[0].startswith(below)]


def _merge(found: Found, part: Found) -> None:
    for name in LISTS:
        mine = getattr(found, name)
        for rel in getattr(part, name):
            insort(mine, rel, key=_order)
    found.unread += part.unread
    found.skipped += part.skipped
    found.stats.update(part.stats)
    found.others.update(part.others)
