"""Spread CPU-bound build work over the machine's cores with forked workers.

Workers are forked, so they inherit `state` (the parsed brain, the views, the writer)
without pickling it; only each call's small argument and result cross a pipe.
Small jobs (`parallel=False`) and one-core machines run everything in this process.
"""
from __future__ import annotations

import gc
import multiprocessing
import os

_STATE = None   # set only around a fork_map call, read by the forked workers


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _call(job):
    fn, arg = job
    return fn(_STATE, arg)


def fork_map(fn, args: list, state=None, *, parallel: bool = True) -> list:
    """[fn(state, arg) for arg in args], in forked workers when `parallel`; results in order."""
    global _STATE
    workers = min(cores(), len(args))
    if not parallel or workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [fn(state, arg) for arg in args]
    _STATE = state
    # Frozen objects are skipped by the workers' collector, which would otherwise
    # write to (and so copy) every page of the inherited heap.
    gc.freeze()
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(_call, [(fn, arg) for arg in args], chunksize=1)
    finally:
        gc.unfreeze()
        _STATE = None


def chunks(items: list, n: int) -> list[list]:
    """`items` dealt into n interleaved chunks (interleaving evens out big and small items)."""
    return [items[i::n] for i in range(n) if items[i::n]]


def fork_each(fn, items: list, state, parallel: bool) -> list:
    """[fn(state, item) for item in items], the items dealt over forked workers (fork_map) in
    one job per core rather than one per item."""
    k = max(1, min(cores() if parallel else 1, len(items)))
    parts = fork_map(_each, [(fn, items[i::k]) for i in range(k)], state, parallel=parallel)
    return [parts[i % k][i // k] for i in range(len(items))]


def _each(state, job):
    fn, items = job
    return [fn(state, item) for item in items]
