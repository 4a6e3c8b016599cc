"""A cheap fingerprint of a brain folder (size and mtime of every file) to tell a reply is stale (SPEC §6.6).

Shared by the build (which records it) and the query engine (which compares it); it never parses files.
"""
from __future__ import annotations

import os
from pathlib import Path


def fingerprint(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    stack = [""]
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
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append(rel)
            else:
                out[rel] = f"{st.st_size}:{st.st_mtime_ns}"
    return dict(sorted(out.items()))


def changed(before: dict[str, str], now: dict[str, str]) -> int:
    """How many files were added, removed or modified."""
    return sum(1 for k in before.keys() | now.keys() if before.get(k) != now.get(k))
