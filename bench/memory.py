"""A command's memory as the machine sees it: the sum of PSS (proportional set size: a page
shared by n processes counts 1/n in each) over the command and all its descendants, sampled
every INTERVAL seconds while it runs; the largest sum is its peak. RSS of the largest process
alone misses forked children beside it and counts pages they share twice (docs/performance.md)."""
from __future__ import annotations

import os
import threading

INTERVAL = 0.1
MB = 1024   # smaps_rollup is in kB


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc/*/stat (ppid is its fourth field)."""
    out: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        out.setdefault(int(fields[1]), []).append(int(name))
    return out


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
            for line in fh:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def tree_pss_mb(root: int) -> float:
    """The PSS of `root` and its descendants now, in MB."""
    children, total, stack = _children(), 0, [root]
    while stack:
        pid = stack.pop()
        total += _pss_kb(pid)
        stack.extend(children.get(pid, ()))
    return total / MB


class PeakPss:
    """Samples tree_pss_mb(pid) every INTERVAL until stop(); `.peak` is the largest sum (None
    where /proc has no smaps_rollup)."""

    def __init__(self, pid: int):
        self.pid, self.peak = pid, None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        if os.path.exists(f"/proc/{os.getpid()}/smaps_rollup"):
            self._thread.start()

    def _sample(self) -> None:
        while not self._done.is_set():
            now = tree_pss_mb(self.pid)
            self.peak = now if self.peak is None else max(self.peak, now)
            self._done.wait(INTERVAL)

    def stop(self) -> float | None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()
        return self.peak
