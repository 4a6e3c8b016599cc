"""Walk a brain folder: notes, records, source status files and attachments, in sorted order.

Never follows symbolic links; special files, links and ignored paths never reach the parser.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

import pathspec

from ..kernel.fingerprint import CACHE_DIR

SKIP_DIRS = frozenset({"_site", CACHE_DIR, "node_modules"})
CONTROL = re.compile("[\x00-\x1f\x7f]")   # characters no ref may hold


@dataclass
class Found:
    notes: list[str] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    source_files: list[str] = field(default_factory=list)
    source_dirs: list[str] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)   # (path, kind, message)
    stats: dict[str, tuple] = field(default_factory=dict)   # path → what its stat says (brain.load)
    # For the fingerprint (kernel/fingerprint.listing), which lists what the walk leaves out too:
    others: dict[str, tuple] = field(default_factory=dict)  # any other entry: (folder?, size, mtime, links)
    unread: list[str] = field(default_factory=list)          # entries not looked at or into, but dot files

    def holds(self, path: str) -> bool:
        """Whether the walk met a file at `path`: read, or skipped (a problem of its own)."""
        return path in self.stats or any(rel == path for rel, _, _ in self.skipped)


class Ignore:
    """A `.bfignore`: gitignore syntax, matched by pathspec as the walk meets each entry, so a
    folder it ignores is never entered (as in git, nothing inside can be re-included)."""

    def __init__(self, lines: list[str]):
        # A trailing '/**' becomes '/*': in a walk that prunes ignored folders the two ignore the
        # same paths, but pathspec reports 'X/**' as ignoring the folder X itself, which git does
        # not, and that would lose a later '!X/keep.md'.
        self.spec = pathspec.GitIgnoreSpec.from_lines(
            line.rstrip()[:-1] if line.rstrip().endswith("/**") else line for line in lines)
        self.active = any(p.include is not None for p in self.spec.patterns)   # blank lines and comments: none

    def ignored(self, rel: str, is_dir: bool) -> bool:
        return self.active and self.spec.match_file(rel + "/" if is_dir else rel)


def discover(root: Path, skip: set[Path] = frozenset()) -> Found:
    found = Found()
    _walk(root, "", _ignore(root), {p.resolve() for p in skip}, found)
    return found


def _ignore(root: Path) -> Ignore:
    ignore_file = root / ".bfignore"
    lines = []
    if ignore_file.is_file() and not ignore_file.is_symlink():
        lines = ignore_file.read_text(encoding="utf-8", errors="replace").splitlines()
    return Ignore(lines)


def _walk(root: Path, rel_dir: str, ignore: Ignore, skip: set[Path], found: Found) -> None:
    base = root / rel_dir if rel_dir else root
    try:
        entries = sorted(os.scandir(base), key=attrgetter("name"))
    except OSError as exc:
        found.skipped.append((rel_dir or ".", "unreadable", f"cannot list folder: {exc.strerror}"))
        return
    for entry in entries:
        _visit(root, rel_dir, entry, ignore, skip, found)


def _visit(root: Path, rel_dir: str, entry, ignore: Ignore, skip: set[Path], found: Found) -> None:
    """One entry (an os.DirEntry, or an _Entry) of the folder `rel_dir`, and what is inside it."""
    name = entry.name
    rel = f"{rel_dir}/{name}" if rel_dir else name
    if name.startswith("."):
        return
    if not rel_dir and name in SKIP_DIRS:
        found.unread.append(rel)
        return
    if CONTROL.search(name):
        # Such a ref could never be read back: bf read refuses control characters.
        found.skipped.append((rel, "bad_name", "file name holds control characters: skipped"))
        found.unread.append(rel)
        return
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError as exc:
        found.skipped.append((rel, "unreadable", f"cannot stat: {exc.strerror}"))
        return
    is_dir = stat.S_ISDIR(st.st_mode)
    if not stat.S_ISREG(st.st_mode):
        found.others[rel] = (is_dir, st.st_size, st.st_mtime_ns, st.st_nlink)
    if stat.S_ISLNK(st.st_mode):
        found.skipped.append((rel, "symlink", "symbolic link: not followed"))
        return
    if ignore.ignored(rel, is_dir):
        if is_dir:
            found.unread.append(rel)
        else:
            found.others[rel] = (False, st.st_size, st.st_mtime_ns, st.st_nlink)
        return
    if is_dir:
        if Path(entry.path).resolve() in skip:
            found.unread.append(rel)
            return
        _walk(root, rel, ignore, skip, found)
        return
    if not stat.S_ISREG(st.st_mode):
        found.skipped.append((rel, "special_file", "not a regular file (fifo, socket or device): skipped"))
        return
    _classify(rel, found)
    found.stats[rel] = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def _classify(rel: str, found: Found) -> None:
    if rel == "brain.toml":
        return
    parts = rel.split("/")
    if parts[0] == "memories":
        if len(parts) == 3 and parts[2] == "_source.json":
            found.source_files.append(rel)
        elif len(parts) == 3 and parts[2].endswith(".json"):
            found.records.append(rel)
            if parts[1] not in found.source_dirs:
                found.source_dirs.append(parts[1])
        elif len(parts) >= 3 and rel.endswith(".md"):
            found.skipped.append((rel, "misplaced", "a note inside memories/ is not a record: skipped"))
        else:
            found.attachments.append(rel)
        return
    if rel.endswith(".md"):
        found.notes.append(rel)
    else:
        found.attachments.append(rel)
