"""Fixtures for hostile-input and fault tests (issue 9).

- `hostile` (session): the hostile brain of tests/support/hostile_brain.py, built once with
  `--now NOW --no-pagefind`: {"brain": Path, "site": Path, "expected": {...}, "report": BuildReport}.
  Shared: read it, never write into it.
- `opened` (session): an audit-hook recorder. `with opened.record() as seen:` collects every path
  Python opens, lists or scans while the block runs (in this thread, or any with all_threads=True); `opened.outside(seen, allowed)` lists the
  ones under none of `allowed` (Python's own code and time zone data always allowed) or,
  for folder listings, of `listed`.
- `chromium`, `browser_context`, `page`, `serve_site`: tests/browser/conftest.py's, reused.
- `small_brain(tmp_path)`: a few notes and records, for fault tests that build many times.
"""
from __future__ import annotations

import contextlib
import os
import sys
import sysconfig
import threading
import zoneinfo
from pathlib import Path

import pytest

SUPPORT = Path(__file__).resolve().parents[1] / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))

from hostile_brain import write_hostile_brain  # noqa: E402


def _browser_fixtures():
    """tests/browser/conftest.py's fixtures (chromium, browser_context, page, serve_site), shared
    here without a top-level conftest: loaded by path, under a name of its own."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("browser_conftest", Path(__file__).parents[1] / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.chromium, module.browser_context, module.page, module.serve_site


chromium, browser_context, page, serve_site = _browser_fixtures()

NOW = "2026-12-02T12:00:00Z"
ROOT = Path(__file__).resolve().parents[2]


class Opened:
    """sys.addaudithook cannot be removed, so one hook per session records only while a
    `record()` block of the recording thread is open."""

    EVENTS = {"open", "os.listdir", "os.scandir", "shutil.copyfile", "os.rename", "os.remove"}

    def __init__(self):
        self._sink: list | None = None
        self._thread = None
        sys.addaudithook(self._hook)
        self.code_dirs = sorted({str(Path(p).resolve()) for p in sys.path if p}
                                | {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
                                | {str(ROOT / "builder"), str(ROOT / "templates"), str(ROOT / "site"), str(ROOT / "schemas")}
                                | {str(Path(p)) for p in zoneinfo.TZPATH}
                                | {"/dev/null", "/dev/urandom", "/proc/self"})

    def _hook(self, event, args):
        sink = self._sink
        if sink is None or event not in self.EVENTS or self._thread not in (None, threading.get_ident()):
            return
        path = args[0] if args else None
        if isinstance(path, int) or path is None:
            return
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        sink.append((event, os.path.abspath(os.fspath(path))))

    @contextlib.contextmanager
    def record(self, all_threads: bool = False):
        seen: list[tuple[str, str]] = []
        self._sink, self._thread = seen, None if all_threads else threading.get_ident()
        try:
            yield seen
        finally:
            self._sink = None

    def outside(self, seen, allowed, listed=()) -> list[tuple[str, str]]:
        """Events touching a path under none of `allowed` (or, for listings only, of `listed`)."""
        roots = [os.path.abspath(str(a)) for a in allowed] + self.code_dirs
        lists = roots + [os.path.abspath(str(a)) for a in listed]
        return [(e, p) for e, p in seen
                if not any(p == r or p.startswith(r.rstrip("/") + "/")
                           for r in (lists if e in ("os.scandir", "os.listdir") else roots))]


@pytest.fixture(scope="session")
def opened() -> Opened:
    return Opened()


@pytest.fixture(scope="session")
def hostile(tmp_path_factory) -> dict:
    from builder.build import build
    base = tmp_path_factory.mktemp("hostile")
    expected = write_hostile_brain(base / "brain")
    report = build([base / "brain"], base / "site", now=NOW, pagefind=False)
    return {"brain": base / "brain", "site": base / "site", "expected": expected, "report": report,
            "outside": base / "outside-secret"}


SMALL = {
    "index.md": "---\ntitle: Home\n---\nWelcome. [[Plan]]\n",
    "projects/plan.md": "---\ntitle: Plan\nstatus: active\n---\n# Plan\n\n## Goal\n\nShip it. #launch\n\n- [ ] write copy\n",
    "concepts/idea.md": "# Idea\n\nAn idea that [[Plan]] needs.\n",
    "memories/chat/m1.json": '{"text": "about [[Plan]]", "time": "2026-12-01T09:00:00Z", "refs": ["projects/plan.md"]}',
    "memories/chat/m2.json": '{"text": "second message", "time": "2026-11-30T09:00:00Z"}',
}


@pytest.fixture
def small_brain(tmp_path, make_brain) -> Path:
    return make_brain(tmp_path, SMALL)
