"""A cheap fingerprint of a brain folder (size and mtime of every file) to tell a reply is stale (SPEC §6.6).

Shared by the build (which records it) and the query engine (which compares it); it never parses files.

The cold path of a query must not stat every record file (50,000 of them cost 0.34 s), so the
build records, besides every file, each source folder's own signature (mtime and size of the
folder, whether it holds a subfolder). A query stats every authored file and `memories/`, and lists
a source folder only when its signature changed, it changed in the last `RECENT_NS`, or it holds a
subfolder: collectors rename records into place, which always changes their folder's mtime.
What this cannot see until the next build is written in docs/site.md ("Staleness").
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from .refs import escape_segment

FORMAT = 2
MEMORIES = "memories"
RECENT_NS = 5_000_000_000   # a folder changed this recently may still change within its mtime tick


def fingerprint_main(brain: str) -> str:
    """Site path (before packing: a pack file, `….json.gz`) of the brain's fingerprint."""
    return f"_bf/{brain}/fingerprint.json"   # unescaped, as site/engine/site.js looks for it


def fingerprint_records(brain: str, folder: str) -> str:
    """Site path (before packing) of the build's file list of one source folder (`memories/SOURCE`)."""
    return f"_bf/{escape_segment(brain)}/fingerprint/{escape_segment(folder.split('/', 1)[1])}.json"


def _walk(root: Path, rel_dir: str, files: dict, dirs: dict | None, skip: frozenset = frozenset()) -> None:
    """Every file below `rel_dir` into `files`; with `dirs`, stop at source folders and sign them.
    `skip`: brain-relative folders left out (a site built inside its brain, `--out docs`)."""
    stack = [rel_dir]
    while stack:
        rel_dir = stack.pop()
        try:
            entries = list(os.scandir(root / rel_dir if rel_dir else root))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or (not rel_dir and entry.name in ("_site", ".bf-cache")):
                continue
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if rel in skip:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not entry.is_dir(follow_symlinks=False):
                files[rel] = f"{st.st_size}:{st.st_mtime_ns}"
            elif dirs is not None and rel_dir == MEMORIES:
                dirs[rel] = _signature(st)
            else:
                stack.append(rel)


def _signature(st: os.stat_result) -> str:
    """mtime:size of a source folder, ":sub" when it may hold a folder (whose changes its mtime does
    not show). A folder's link count is 2 + its subfolders on POSIX file systems; any other count
    (some report 1) is treated as "may hold one", without listing it."""
    return f"{st.st_mtime_ns}:{st.st_size}" + ("" if st.st_nlink == 2 else ":sub")


def recorded(root: Path, skip: list[str] = ()) -> tuple[dict, dict[str, dict]]:
    """What a build records: {format, files (all but records), dirs (source folders' signatures),
    skip (the site's own folder when it is inside the brain: its files are the build's, not the
    brain's)}, and per source folder its files — kept apart, so a query loads only the folders it lists."""
    root = Path(root)
    files: dict[str, str] = {}
    dirs: dict[str, str] = {}
    _walk(root, "", files, dirs, frozenset(skip))
    records = {}
    for folder in dirs:
        inside: dict[str, str] = {}
        _walk(root, folder, inside, None, frozenset(skip))
        records[folder] = dict(sorted(inside.items()))
    main = {"format": FORMAT, "files": dict(sorted(files.items())), "dirs": dict(sorted(dirs.items()))}
    if skip:
        main["skip"] = sorted(skip)
    return main, records


def changed_since(root: Path, before: dict, records_of) -> int:
    """How many files were added, removed or modified since the build recorded `before`;
    `records_of(folder)` gives the build's files of a source folder (read only when listed)."""
    root = Path(root)
    files: dict[str, str] = {}
    dirs: dict[str, str] = {}
    skip = frozenset(before.get("skip", ()))
    _walk(root, "", files, dirs, skip)
    n = changed(before.get("files", {}), files)
    old_dirs = before.get("dirs", {})
    now = time.time_ns()
    for folder in sorted(old_dirs.keys() | dirs.keys()):
        sign = dirs.get(folder)
        if sign == old_dirs.get(folder) and not sign.endswith(":sub") and now - int(sign.split(":")[0]) > RECENT_NS:
            continue
        inside: dict[str, str] = {}
        if sign is not None:
            _walk(root, folder, inside, None, skip)
        n += changed((records_of(folder) or {}) if folder in old_dirs else {}, inside)
    return n


def changed(before: dict[str, str], now: dict[str, str]) -> int:
    """How many files were added, removed or modified."""
    return sum(1 for k in before.keys() | now.keys() if before.get(k) != now.get(k))


def write_fingerprint(writer, brain) -> None:
    """Through `writer` (emit/writer.py): what staleness compares against, the brain's files and
    each source folder's files apart (read only when that folder changed), as pack files: a path
    and its stat signature compress 4× (3 of 4 MB at 10k notes + 50k records).
    A site built inside its brain (`--out docs`) is not the brain's: the previous site must not count."""
    root = Path(brain.root)
    try:
        skip = [writer.out.resolve().relative_to(root).as_posix()]
    except ValueError:
        skip = []
    main, records = recorded(root, skip)
    writer.write_json(fingerprint_main(brain.name), main, brain.name, packed=True)
    for folder, files in records.items():
        writer.write_json(fingerprint_records(brain.name, folder), files, brain.name, packed=True)
