"""Walk a brain folder: notes, records, source status files and attachments, in sorted order.

Never follows symbolic links; special files, links and ignored paths never reach the parser.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

SKIP_DIRS = {"_site", ".bf-cache", "node_modules"}


@dataclass
class Found:
    notes: list[str] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    source_files: list[str] = field(default_factory=list)
    source_dirs: list[str] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)   # (path, kind, message)


class Ignore:
    """The subset of gitignore syntax people use: globs, '**', trailing '/', leading '/', '!' negation."""

    def __init__(self, lines: list[str]):
        self.rules = []
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            line = line[1:] if negate else line
            dir_only = line.endswith("/")
            line = line.strip("/") if dir_only else line.lstrip("/")
            anchored = raw.strip().lstrip("!").startswith("/") or "/" in line
            self.rules.append((_glob(line), negate, dir_only, anchored))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        result = False
        name = rel.rsplit("/", 1)[-1]
        for pattern, negate, dir_only, anchored in self.rules:
            if dir_only and not is_dir:
                continue
            if pattern.match(rel if anchored else name):
                result = not negate
        return result


def _glob(pattern: str) -> re.Pattern:
    """A gitignore glob as a regex: '*' and '?' stay within one path segment (fnmatch's would
    cross '/'), '**/' spans any folders, a trailing '/**' everything below."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2:]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1:end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def discover(root: Path, skip: set[Path] = frozenset()) -> Found:
    found = Found()
    ignore_file = root / ".bfignore"
    lines = []
    if ignore_file.is_file() and not ignore_file.is_symlink():
        lines = ignore_file.read_text(encoding="utf-8", errors="replace").splitlines()
    ignore = Ignore(lines)
    skip_resolved = {p.resolve() for p in skip}
    _walk(root, "", ignore, skip_resolved, found)
    return found


def _walk(root: Path, rel_dir: str, ignore: Ignore, skip: set[Path], found: Found) -> None:
    base = root / rel_dir if rel_dir else root
    try:
        entries = sorted(os.scandir(base), key=lambda e: e.name)
    except OSError as exc:
        found.skipped.append((rel_dir or ".", "unreadable", f"cannot list folder: {exc.strerror}"))
        return
    for entry in entries:
        name = entry.name
        rel = f"{rel_dir}/{name}" if rel_dir else name
        if name.startswith(".") or (not rel_dir and name in SKIP_DIRS):
            continue
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            # Such a ref could never be read back: bf read refuses control characters.
            found.skipped.append((rel, "bad_name", "file name holds control characters: skipped"))
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError as exc:
            found.skipped.append((rel, "unreadable", f"cannot stat: {exc.strerror}"))
            continue
        if stat.S_ISLNK(st.st_mode):
            found.skipped.append((rel, "symlink", "symbolic link: not followed"))
            continue
        is_dir = stat.S_ISDIR(st.st_mode)
        if ignore.ignored(rel, is_dir):
            continue
        if is_dir:
            if Path(entry.path).resolve() in skip:
                continue
            _walk(root, rel, ignore, skip, found)
            continue
        if not stat.S_ISREG(st.st_mode):
            found.skipped.append((rel, "special_file", "not a regular file (fifo, socket or device): skipped"))
            continue
        _classify(rel, found)


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
