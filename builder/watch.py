"""bf serve --watch: the operating system's file events (watchfiles) → one rebuild at a time.

Changes are grouped by watchfiles (a burst of saves within STEP_MS, at most DEBOUNCE_MS, is one
batch), then by the Rebuilder: any number of requests made while a build runs collapse into
exactly one more build, which reads the brain as it is once the running build ends.
WatchBuilds makes each build: its pages first, then their search bundles (docs/serve.md).
Native events are used where the platform gives them; polling only when they cannot start
(or with WATCHFILES_FORCE_POLLING=1, e.g. on network mounts that send no events).
"""
from __future__ import annotations

import sys
import threading
import traceback
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

import watchfiles

from .brain.discover import SKIP_DIRS
from .kernel.errors import BfError
from .kernel.fingerprint import CACHE_DIR
from .kernel.model import LEFT_OUT
from .kernel.times import rfc3339

STEP_MS = 100        # quiet time that ends a burst of saves
DEBOUNCE_MS = 1600   # a longer burst (a git checkout) still yields this often


class BrainFilter(watchfiles.DefaultFilter):
    """Keeps the changes a build can see: not the output folder, nor bf's cache, staging and
    old-site folders beside it, nor what discovery skips (dot files but `.bfignore`, SKIP_DIRS)."""

    def __init__(self, brains: list[Path], out: Path):
        super().__init__()
        self.brains = [Path(b).resolve() for b in brains]
        out = Path(out).resolve()
        self.owned = [out, out.parent / CACHE_DIR]
        self.siblings = (out.parent, f".{out.name}.")   # .NAME.building-PID, .NAME.old

    def __call__(self, change, path: str) -> bool:
        if not super().__call__(change, path):
            return False
        p = Path(path).resolve()
        if any(p.is_relative_to(o) for o in self.owned):
            return False
        parent, stem = self.siblings
        if p.is_relative_to(parent) and p.relative_to(parent).parts[0].startswith(stem):
            return False
        for root in self.brains:
            if p.is_relative_to(root) and p != root:
                parts = p.relative_to(root).parts
                if parts[0] in SKIP_DIRS:
                    return False
                return parts == (".bfignore",) or not any(part.startswith(".") for part in parts)
        return True


def watch_brains(brains: list[Path], out: Path, on_change: Callable[[set], None],
                 stop: threading.Event, log: Callable[[str], None]) -> None:
    """Call `on_change(changes)` for every batch of relevant changes until `stop` is set."""
    polling = None   # None: watchfiles decides (native events; WATCHFILES_FORCE_POLLING=1 forces polling)
    while not stop.is_set():
        try:
            for changes in watchfiles.watch(*brains, watch_filter=BrainFilter(brains, out), stop_event=stop,
                                            step=STEP_MS, debounce=DEBOUNCE_MS, force_polling=polling,
                                            raise_interrupt=False):
                on_change(changes)
            return
        except (OSError, RuntimeError) as exc:   # watchfiles' own error is a RuntimeError
            if polling:
                log(f"bf serve: cannot watch the brain ({exc}); rebuilds stopped")
                return
            log(f"bf serve: file events unavailable ({exc}); polling the brain instead")
            polling = True


class Rebuilder:
    """Runs `build(changed)` on one thread; `request()` during a build queues exactly one more.
    `later(stop)`, when given, is the rest of a good build's work (bf serve: indexing its pages
    with pagefind), itself a build reported like one: it runs after each good build unless a
    request is pending by then (the next build leaves its own later work). A request made while
    it runs queues one more build just the same, and sets `stop` (a threading.Event): a later
    build that then fails was stopped, not failed, and is neither reported nor shown.

    `changed`: the paths the requests' changes named since the last build began (a build reads
    those files again, not every one: build.build), or None to walk the brains: the first
    build, a request without changes, and the build after a failed one (which may have used
    its paths up before reading them). `build` returns a BuildReport; `on_done(report, error)`
    hears each outcome (error is None after a good build, the message after a failed one; the
    last good site stays in place)."""

    def __init__(self, build: Callable, on_done: Callable, log: Callable[[str], None] | None = None,
                 later: Callable | None = None):
        self.build, self.on_done, self.later = build, on_done, later
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.cond = threading.Condition()
        self.pending = self.running = self.stopped = False
        self.moot = threading.Event()   # `stop` of the later work running, set by a request
        self.builds = 0
        self.changed: set[Path] | None = None

    def first(self) -> bool:
        """The first build, which walks the brains (bf serve --watch runs it before run()): the
        paths file events name from its start on are what the next build looks at, not a walk
        of every file again (at 60k files that walk was on the first save's path)."""
        with self.cond:
            self.changed = set()
        return self.rebuild()

    def request(self, changes=None) -> None:
        """`changes`: watchfiles' {(change, path)}; None: look at everything."""
        with self.cond:
            if changes is None:
                self.changed = None
            elif self.changed is not None:
                self.changed |= {Path(path) for _, path in changes}
            self.pending = True
            self.moot.set()
            self.cond.notify_all()

    def stop(self) -> None:
        with self.cond:
            self.stopped = True
            self.moot.set()
            self.cond.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """True once no build runs or is queued (what a test waits for)."""
        with self.cond:
            return self.cond.wait_for(lambda: not (self.pending or self.running), timeout)

    def run(self) -> None:
        while True:
            with self.cond:
                self.cond.wait_for(lambda: self.pending or self.stopped)
                if self.stopped:
                    return
                self.pending, self.running = False, True
                changed, self.changed = self.changed, set()
            try:
                if self.rebuild(changed) and self.later is not None:
                    with self.cond:
                        idle = not (self.pending or self.stopped)
                        self.moot.clear()
                    if idle:
                        self._attempt(lambda: self.later(self.moot), "indexed")
            finally:
                with self.cond:
                    self.running = False
                    self.cond.notify_all()

    def rebuild(self, changed: set[Path] | None = None) -> bool:
        """One build now; True when it succeeded. Never raises: a preview outlives a bad edit."""
        first = self.builds == 0
        self.builds += 1
        return self._attempt(lambda: self.build(changed), "built" if first else "rebuilt")

    def _attempt(self, build: Callable, done: str) -> bool:
        try:
            report = build()
        except Exception as exc:
            if done == "indexed" and self.moot.is_set():
                return False      # stopped for a newer build, which leaves its own later work
            if isinstance(exc, BfError):
                return self._failed(exc.message)
            self.log(traceback.format_exc().rstrip())   # a bug in bf: keep serving, show it on the page and the terminal
            return self._failed(f"{type(exc).__name__}: {exc}")
        self.log(f"bf serve: {done} {report.files} files ({report.reused} unchanged), build {report.build_id}")
        if done != "indexed":   # the indexing build has the same problems as the build before it
            for line in left_out(getattr(report, "problems", ())):
                self.log(f"bf serve: left out: {line}")
        self.on_done(report, None)
        return True

    def _failed(self, message: str) -> bool:
        with self.cond:
            self.changed = None
        self.log(f"bf serve: build failed: {message}")
        self.on_done(None, message)
        return False


def left_out(problems) -> list[str]:
    """`PATH: MESSAGE` of each problem (a build's, as JSON) that left something out of the site."""
    return [f"{p['path']}: {p['message']}" for p in problems if p["kind"] in LEFT_OUT]


def watch_instant(clock: datetime | None = None) -> str:
    """A watch build's instant: the clock rounded up to the whole minute. The saves of one minute
    share it, so a rebuild does not render again every page computed against it (docs/decisions.md),
    and whatever was saved stamped with the clock is at or before it."""
    now = clock or datetime.now(timezone.utc)
    instant = now.replace(second=0, microsecond=0)
    return rfc3339(instant if instant == now else instant + timedelta(minutes=1))


class WatchBuilds:
    """The builds of one `bf serve --watch`, with the state each leaves for the next (emit/state.py).
    A rebuild publishes its pages with the previous site's full-text bundles (pagefind took most
    of a rebuild: 5-6 s at 10k notes); index() then builds again at its instant, nothing changed
    but pagefind run where the pages did. Each site it publishes last is `bf build --now INSTANT`'s."""

    def __init__(self, brains: list[Path], out: Path, base_url: str | None):
        from .emit.state import BuildState
        self.brains, self.out, self.base_url = brains, out, base_url
        self.state = BuildState()   # each rebuild recomputes only what changed where a stage knows how
        self.as_of: str | None = None

    def build(self, changed: set[Path] | None):
        report = self._build(watch_instant(), changed, "later" if self.as_of is not None else True)
        self.as_of = report.as_of
        return report

    def prepare(self) -> None:
        prepare_rebuilds(self.out, self.state)

    def index(self, stop: threading.Event):
        return self._build(self.as_of, set(), True, stop)

    def _build(self, now: str, changed: set[Path] | None, pagefind: bool | str, stop: threading.Event | None = None):
        from .build import build
        return build(self.brains, self.out, now=now, base_url=self.base_url, pagefind=pagefind,
                     state=self.state, changed=changed, stop=stop)


def prepare_rebuilds(out: Path, state) -> None:
    """After a watch session's first build (emit/state.BuildState `state`): a spare site to stage
    the first rebuild into (emit/spare.py), and the page templates compiled (that build rendered
    in forked workers: the first save would compile them, 0.1 s). The benchmark's rebuilds call
    it as bf serve --watch does."""
    from .build import cache_path
    from .emit.html import compile_templates
    from .emit.spare import stage_spare
    stage_spare(out, cache_path(out).parent, state.spare)
    compile_templates()
