"""Spread CPU-bound build work over the machine's cores with forked workers: the means of the
runner (builder/runner.py), the one module that decides where work runs. A stage never forks of
its own accord: it is handed a `Spread` (its context's `spread`; SERIAL when none) and asks it.

Workers are forked, so they inherit `state` (the parsed brain, the views, the writer)
without pickling it; only each call's small argument and result cross a pipe.
Small jobs (`worth=False`), SERIAL and one-core machines run everything in this process.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from contextlib import contextmanager
from dataclasses import dataclass

_STATE = None   # set only around a fork_map call, read by the forked workers


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _call(job):
    fn, arg = job
    return fn(_STATE, arg)


def fork_map(fn, args: list, state=None, *, parallel: bool = True, each=None) -> list:
    """[fn(state, arg) for arg in args], in forked workers when `parallel`; results in order,
    each heard by `each` as it comes (mapped)."""
    with mapped(fn, args, state, parallel=parallel, each=each) as results:
        return results()


@contextmanager
def mapped(fn, args: list, state=None, *, parallel: bool = True, each=None):
    """fork_map whose workers run while the `with` block runs in this process: yields a
    results() that waits for them (serially, it computes them then). `each(result)` hears of
    each result in order as results() takes it (a build's counts: progress.py)."""
    global _STATE

    def heard(result):
        if each is not None:
            each(result)
        return result
    workers = min(cores(), len(args))
    if not parallel or workers <= 1 or not can_fork():
        yield lambda: [heard(fn(state, arg)) for arg in args]
        return
    _STATE = state
    try:
        with _frozen(), multiprocessing.get_context("fork").Pool(workers, initializer=die_with_parent) as pool:
            pending = pool.imap(_call, [(fn, arg) for arg in args], chunksize=1)   # dispatched now
            yield lambda: list(map(heard, pending))
    finally:
        _STATE = None


class Counted:
    """mapped's `each` for a count: `tally(what, done, total)` hears of it as each part (a
    result) adds its `size(part)` to `done`, and once as it begins."""

    def __init__(self, tally, what: str, total: int, done: int = 0, size=len):
        self.tally, self.what, self.total, self.done, self.size = tally, what, total, done, size
        tally(what, done, total)

    def __call__(self, part) -> None:
        self.done += self.size(part)
        self.tally(self.what, self.done, self.total)


@contextmanager
def _frozen():
    """The heap frozen while children are forked: frozen objects are skipped by a child's
    collector, which would otherwise write to (and so copy) every page of the inherited heap.
    Unfrozen after, unless something was frozen before (a build freezes its parsed brains until
    its end)."""
    before = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if not before:
            gc.unfreeze()


def die_with_parent() -> None:
    """In a forked child that ends before the call that forked it returns: end when the build is
    killed (Linux's PR_SET_PDEATHSIG, sent when the forking thread dies), rather than write on
    into a staging folder the next build recovers from."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):   # no prctl (not Linux): the child may outlive a killed build
        pass


def can_fork() -> bool:
    """Whether this platform starts processes by fork (workers inherit state without pickling)."""
    return "fork" in multiprocessing.get_all_start_methods()


def chunks(items: list, n: int) -> list[list]:
    """`items` dealt into n interleaved chunks (interleaving evens out big and small items)."""
    return [items[i::n] for i in range(n) if items[i::n]]


def fork_each(fn, items: list, state, parallel: bool) -> list:
    """[fn(state, item) for item in items], the items dealt into one job per core rather than
    one per item: this process computes the first job while forked workers compute the others.
    A worker costs the copies of the heap pages it touches and the pickling of its results:
    one fewer took a 10k-note build's search side from 2.2 to 1.4 million page faults, its
    CPU about 5 s lower (docs/decisions.md)."""
    k = max(1, min(cores() if parallel else 1, len(items)))
    jobs = [(fn, items[i::k]) for i in range(k)]
    with mapped(_each, jobs[1:], state, parallel=parallel) as rest:
        parts = [_each(state, jobs[0]), *rest()]
    return [parts[i % k][i // k] for i in range(len(items))]


def _each(state, job):
    fn, items = job
    return [fn(state, item) for item in items]


class Forked:
    """fn(state) started in a forked child beside this process's own work; get() waits for its
    result or raises its exception. Not a pool worker: the child may fork workers of its own.
    Leaving the `with` block ends a child still running (an interrupted build)."""

    def __init__(self, fn, state):
        ctx = multiprocessing.get_context("fork")
        self._result, send = ctx.Pipe(duplex=False)
        self._child = ctx.Process(target=_forked, args=(fn, state, send))
        self._child.start()
        send.close()

    def get(self):
        try:
            ok, value = self._result.recv()   # before join: a large result fills the pipe
        except EOFError:
            raise ChildProcessError(f"a build worker died (exit code {self._child.exitcode})") from None
        finally:
            self._child.join()
        if not ok:
            raise value
        return value

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._child.is_alive():
            self._child.terminate()
            self._child.join()


def _forked(fn, state, send) -> None:
    die_with_parent()
    try:
        result = (True, fn(state))
    except BaseException as exc:   # re-raised by the parent's get()
        result = (False, exc)
    send_reply(send, result)


class Begun:
    """[fn(state, item) for item in items] begun now in forked children, one per core, each taking
    every k-th item, all of it beside this process (which goes on with other work); get() waits
    for them, in the order of `items`. Not parallel: computed by get(). Leaving the `with` block ends children still running."""

    def __init__(self, fn, items: list, state, parallel: bool):
        self._job, self.items = (fn, state), items
        k = min(cores(), len(items)) if parallel and can_fork() else 0
        self._children = [Forked(_slice, (fn, state, items[i::k])) for i in range(k)] if k > 1 else []

    def get(self) -> list:
        fn, state = self._job
        if not self._children:
            return [fn(state, item) for item in self.items]
        parts, k = [child.get() for child in self._children], len(self._children)
        return [parts[i % k][i // k] for i in range(len(self.items))]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for child in self._children:
            child.__exit__(*exc)


def _slice(job) -> list:
    fn, state, items = job
    return [fn(state, item) for item in items]


class Aside:
    """fn(state) begun now in one forked child beside this process's own work, at a lower
    priority (`NICE`): it takes what the busy cores leave, and a whole core once one is free;
    get() waits for its result. Not parallel: computed by get(). Leaving the `with` block ends a
    child still running."""

    def __init__(self, fn, state, parallel: bool):
        self._job, self._child = (fn, state), None
        if parallel and can_fork():
            with _frozen():
                self._child = Forked(_niced, self._job)

    def get(self):
        if self._child is None:
            fn, state = self._job
            return fn(state)
        return self._child.get()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._child is not None:
            self._child.__exit__(*exc)


NICE = 10   # CFS gives a nice-10 process about a tenth of a nice-0 one's share of a busy core


def _niced(job):
    os.nice(NICE)
    fn, state = job
    return fn(state)


class Once:
    """fn(*args) for whichever of a process and the children it forks after this comes to it
    first, with that one's arguments; the other skips it (a flag in shared memory, taken under
    its lock)."""

    def __init__(self, fn):
        self._fn = fn
        self._taken = multiprocessing.get_context("fork").Value("b", 0)

    def __call__(self, *args) -> None:
        with self._taken.get_lock():
            if self._taken.value:
                return
            self._taken.value = 1
        self._fn(*args)


_SERVED = None   # set only while a served child forks: the process object here never holds it


def served(loop, jobs: tuple) -> tuple:
    """loop(conn, *jobs) in a long-lived forked child (not a daemon: it may fork workers of its
    own): the child's process and this side's end of their duplex pipe."""
    global _SERVED
    ctx = multiprocessing.get_context("fork")
    conn, child = ctx.Pipe(duplex=True)
    process = ctx.Process(target=_served, args=(loop, child))
    _SERVED = jobs
    try:
        process.start()
    finally:
        _SERVED = None
    child.close()
    return process, conn


def _served(loop, conn) -> None:
    # not die_with_parent: the signal follows the forking *thread*, and a watch session's
    # builds run in threads that end before the worker should; the session ends it (_end)
    loop(conn, *_SERVED)


def send_reply(conn, reply: tuple) -> None:
    """Send (ok, value) over `conn`; a value or exception that does not pickle: its text, at least."""
    try:
        conn.send(reply)
    except Exception:
        conn.send((False, RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}")))


@dataclass(frozen=True)
class Spread:
    """What the runner allows a stage's own work: forked workers that end before the stage does
    (`forks`), or this process alone. `worth`: whether this job is big enough for workers."""
    forks: bool

    def workers(self, worth: bool = True) -> int:
        return cores() if self.forks and worth else 1

    def each(self, fn, items: list, state, *, worth: bool = True) -> list:
        """fork_each, when allowed and worth it."""
        return fork_each(fn, items, state, self.forks and worth)

    def map(self, fn, args: list, state, *, worth: bool = True, each=None) -> list:
        """fork_map, when allowed and worth it."""
        return fork_map(fn, args, state, parallel=self.forks and worth, each=each)

    def mapped(self, fn, args: list, state, *, worth: bool = True, each=None):
        """mapped (workers run while the `with` block does), when allowed and worth it."""
        return mapped(fn, args, state, parallel=self.forks and worth, each=each)

    def begin(self, fn, items: list, state, *, worth: bool = True) -> Begun:
        """Begun (workers run beside this process until its get()), when allowed and worth it."""
        return Begun(fn, items, state, self.forks and worth)

    def aside(self, fn, state, *, worth: bool = True) -> Aside:
        """Aside (one child at a lower priority, beside this process until its get()), when
        allowed and worth it."""
        return Aside(fn, state, self.forks and worth)


SERIAL = Spread(False)
