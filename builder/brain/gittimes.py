"""Last commit time of every file under a folder, from one `git log` pass (not one process per file)."""
from __future__ import annotations

import subprocess
from datetime import datetime, timezone
from pathlib import Path


def commit_times(root: Path) -> dict[str, datetime]:
    """Brain-relative path → time of the newest commit touching it; {} when not a git work tree."""
    try:
        # Outside a work tree (or without git) this one process fails, which means "no git times".
        log = subprocess.run(
            ["git", "-C", str(root), "-c", "core.quotepath=off", "log", "--format=%x00%ct",
             "--name-only", "--no-renames", "--relative", "--", "."],
            capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if log.returncode != 0:
        return {}
    times: dict[str, datetime] = {}
    current = None
    for line in log.stdout.splitlines():
        if line.startswith("\x00"):
            current = datetime.fromtimestamp(int(line[1:]), timezone.utc)
        elif line and current is not None:
            times.setdefault(line, current)   # newest first: keep the first seen
    return times
