"""bf serve --watch: the brains' search side (the stages of scope "index": search index, store,
vectors, attachments, fingerprint) in a process of its own, beside the views side of each rebuild.

A full build forks its search side anew (runner.Runner.index_of); a watch rebuild cannot, because the
search side's part of the kept BuildState (the memos of scope "index", and its own parse cache)
must outlive the build. So the state's first build forks one worker (runner._fork_search), which keeps
that part for the session; this process drops its own copy. Each build, in one `Session`:

1. the worker parses the paths the file events named with its own copy of the parse cache while
   this process parses them too: no model crosses the pipe;
2. emit(): once this process has its writer, the worker writes the search side's files into the
   same staging folder through a part of it (Writer.plan), while this process runs the views side;
3. result(): what the worker wrote (merged into this process's writer), its timings, and a
   digest of what its parse read (`read_digest`), which must equal this process's. A file saved
   between the two reads would otherwise put two versions of the brain into one site: then, and
   when the worker died, result() raises SearchLost, and build() runs the build again in this
   process with the search side's state made fresh (the next build forks a new worker).
"""
from __future__ import annotations

import gc
import signal
import weakref
from contextlib import contextmanager
from typing import Callable

from .kernel.parallel import send_reply


class SearchLost(Exception):
    """The worker died, or its parse read other bytes than this process's."""


def read_digest(brain, parsed: dict) -> int:
    """What a load of `brain` read, as one number: the parse cache's keys (each file's path and
    the sha256 of its bytes), the notes' times, and the small inputs read beside. Equal reads give
    equal numbers in this process and in the worker forked from it (they share str hashes' seed)."""
    return hash((frozenset(parsed), frozenset(brain.modified.items()),
                 repr((brain.config, sorted(brain.sources.items()), brain.attachments, brain.problems))))


class SearchWorker:
    """The forked worker: `process` runs `serve` (the runner forks it: kernel/parallel.served),
    and `conn` is this side of their pipe."""

    def __init__(self, process, conn):
        self._process, self._conn = process, conn
        self.built = False   # True once it has computed a build's search side: then it keeps one
        # a state dropped without lose_search (a test's) ends its worker too, as does this
        # process's exit (before multiprocessing's own exit handler would wait for it)
        self.close = weakref.finalize(self, _end, self._process, self._conn)

    def session(self, request) -> "Session":
        return Session(self, request)

    @contextmanager
    def settling(self):
        """The worker's BuildState.settle, run while this process's runs (a watch session calls it
        between builds: the collection after a session's first build takes seconds, which would
        otherwise delay the worker's part of the next build); leaving waits for it to be done."""
        try:
            self.send(SETTLE)
            yield
            self.recv()
        except SearchLost:   # the next build finds it gone
            pass

    def send(self, message) -> None:
        try:
            self._conn.send(message)
        except (OSError, ValueError) as exc:   # a closed or broken pipe: the worker is gone
            raise SearchLost(f"the search worker is gone ({exc})") from None

    def recv(self):
        try:
            return self._conn.recv()
        except (EOFError, OSError) as exc:
            raise SearchLost(f"the search worker died (exit code {self._process.exitcode})") from None


def _end(process, conn) -> None:
    """End the worker (SearchWorker.close: a SearchLost, or its state is gone)."""
    if process.is_alive():
        process.terminate()
    process.join()
    conn.close()


class Session:
    """One build's exchange with the worker: begun with the load request, then emit(plan) once,
    then result(). Leaving it early (a build that failed or was stopped) waits for the worker to
    be done with the staging folder, which the build then drops; Ctrl-C ends the worker."""

    def __init__(self, worker: SearchWorker, request):
        self.worker, self.state = worker, "loading"
        worker.send(request)

    def emit(self, plan) -> None:
        self.worker.send(plan)
        self.state = "emitting"

    def result(self, digests: list[int]):
        """What the worker wrote, its timings and counts: runner.Runner.merge's arguments."""
        ok, value = self._reply()
        if not ok:
            raise value
        result, theirs = value
        if theirs != digests:
            raise SearchLost("a brain file changed between this process's parse and the search worker's")
        self.worker.built = True
        return result

    def _reply(self):
        self.state = "done"
        return self.worker.recv()

    def end(self, wait: bool = True) -> None:
        """Leave the exchange: wait for the worker to be done (a build that failed or was stopped),
        or (not `wait`: Ctrl-C) end the worker at once."""
        if self.state == "done":
            return
        if not wait:
            self.state = "done"
            self.worker.close()
            return
        try:
            if self.state == "loading":
                self.worker.send(None)   # no plan: the build ended before its writer was made
            self._reply()
        except SearchLost:   # the build raises its own error; the next one finds the worker gone
            pass

    def __enter__(self):
        return self

    def __exit__(self, kind, *exc):
        self.end(kind is None or issubclass(kind, Exception))


SETTLE = "settle"


def serve(conn, load: Callable, side: Callable, settle: Callable) -> None:
    """The worker's loop: a load request, then a plan (None: the build ended early), then the
    reply (ok, (side's result, the digests)) or (False, the exception). `load(request)` →
    (brains, digests, urls) parses as the build does, `side(brains, plan)` → (record, timings,
    emitted) runs the index side (both from the runner), and `settle()` is its BuildState's,
    run when this process's is (settle())."""
    # Ctrl-C in bf serve's terminal reaches the whole process group: the server ends it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()   # the heap it was forked with is shared with the parent: never walked (copied)
    while True:
        try:
            request = conn.recv()
        except EOFError:   # the parent is gone
            return
        if request == SETTLE:
            settle()
            conn.send(True)
            continue
        try:
            loaded, error = load(request), None
        except BaseException as exc:   # the parent's parse did not fail (or no plan would come)
            loaded, error = None, SearchLost(f"the search worker's parse failed: {exc}")
        plan = conn.recv()
        if plan is None:
            reply = (True, None)
        elif error is not None:
            reply = (False, error)
        else:
            brains, digests, _ = loaded
            try:
                reply = (True, (side(brains, plan), digests))
            except BaseException as exc:
                reply = (False, exc)
        send_reply(conn, reply)
