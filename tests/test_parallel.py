"""Parallel parse and emit give the very bytes a one-process build gives."""
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

import builder.build as build_module
import builder.emit.data as data_module
import builder.kernel.parallel as parallel_module
import builder.runner as runner_module
from bench.gen import generate
from builder.emit.state import BuildState

ROOT = Path(__file__).resolve().parents[1]


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_parallel_build_equals_serial_build(tmp_path, build_site, monkeypatch):
    brain = tmp_path / "brain"
    build_site = partial(build_site, site_url="https://example.test/")   # with feeds: the sitemap lists every page
    generate(brain, notes=220, records_per_note=1, seed=5)   # over both parallel thresholds
    pages_forked, fork_map = [], parallel_module.fork_map

    def spy(fn, args, state=None, *, parallel=True, each=None):   # the pages stage's workers, through its Spread
        pages_forked.append(parallel)
        return fork_map(fn, args, state, parallel=parallel, each=each)
    monkeypatch.setattr(parallel_module, "fork_map", spy)
    data_pids, part = tmp_path / "data-pids", data_module._data_part

    def data_spy(ctx):   # the compact data computed aside: in a child of the build's process
        with open(data_pids, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        return part(ctx)
    monkeypatch.setattr(data_module, "_data_part", data_spy)
    monkeypatch.setattr(data_module, "ASIDE_VIEWS", 0)
    forked = build_site(brain, tmp_path / "parallel")   # the search side forked beside: pages in this process
    build_site(brain, tmp_path / "kept", state=BuildState())   # its search worker beside: likewise
    with monkeypatch.context() as no_worker:   # as after a lost search worker: no child beside
        build = build_module._build
        no_worker.setattr(build_module, "_build", lambda req, state, forks: build(req, state, False))
        build_site(brain, tmp_path / "alone", state=BuildState())   # nothing beside: pages in workers
    assert pages_forked == [False, False, True]
    pids = data_pids.read_text().split()   # only the build that forks its search side beside, and keeps nothing
    assert len(pids) == 1 and int(pids[0]) != os.getpid()
    for module in (parallel_module, runner_module):
        monkeypatch.setattr(module, "cores", lambda: 1)
    alone = build_site(brain, tmp_path / "serial")
    assert pages_forked[3:] == [False]   # one core: the runner's Spread allows no workers
    # the site's stages ran in the last index child: what they wrote is merged, and counted
    assert forked.emitted == alone.emitted and forked.emitted["token table"] > 0
    assert forked.files == alone.files
    serial = _tree(tmp_path / "serial")
    for kind in ("parallel", "kept", "alone"):
        assert _tree(tmp_path / kind) == serial, kind


def _pid_and_workers(n):
    return os.getpid(), parallel_module.fork_map(_square, list(range(n)))


def _square(_, x):
    return x * x


def _fail(_):
    raise ValueError("no such thing")


def test_forked_returns_what_its_child_computed_and_the_child_may_fork_workers():
    with parallel_module.Forked(_pid_and_workers, 30) as side:
        pid, squares = side.get()
    assert pid != os.getpid() and squares == [x * x for x in range(30)]


def test_forked_raises_the_childs_exception_in_the_parent():
    with parallel_module.Forked(_fail, None) as side, pytest.raises(ValueError, match="no such thing"):
        side.get()


def _pid(_, x):
    return os.getpid(), x


def test_fork_each_computes_one_share_here_and_the_others_in_workers(monkeypatch):
    monkeypatch.setattr(parallel_module, "cores", lambda: 3)
    got = parallel_module.fork_each(_pid, list(range(10)), None, parallel=True)
    assert [x for _, x in got] == list(range(10))
    here = [x for pid, x in got if pid == os.getpid()]
    assert here == [0, 3, 6, 9]   # the first of 3 interleaved shares; the others in workers
    assert parallel_module.fork_each(_pid, list(range(4)), None, parallel=False) == [(os.getpid(), x) for x in range(4)]



def test_begun_computes_every_share_in_children_beside_this_process(monkeypatch):
    monkeypatch.setattr(parallel_module, "cores", lambda: 3)
    with parallel_module.Begun(_pid, list(range(10)), None, parallel=True) as begun:
        got = begun.get()
    assert [x for _, x in got] == list(range(10)) and os.getpid() not in {pid for pid, _ in got}
    assert len({pid for pid, _ in got}) == 3
    assert parallel_module.Begun(_pid, [1, 2], None, parallel=False).get() == [(os.getpid(), 1), (os.getpid(), 2)]


def _niceness(_):
    return os.getpid(), os.nice(0)


def test_aside_computes_in_one_child_at_a_lower_priority_or_here_when_not_parallel():
    with parallel_module.Aside(_niceness, None, parallel=True) as aside:
        pid, nice = aside.get()
    assert pid != os.getpid() and nice == min(os.nice(0) + parallel_module.NICE, 19)
    assert parallel_module.Aside(_niceness, None, parallel=False).get() == (os.getpid(), os.nice(0))


ORPHAN = """
import os, sys, time
from builder.kernel.parallel import Forked

def child(path):
    with open(path, "w") as fh:
        fh.write(str(os.getpid()))
    time.sleep(60)

with Forked(child, sys.argv[1]) as side:
    side.get()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_build_takes_its_forked_children_with_it(tmp_path):
    """A build killed mid-way must not leave a child writing on into its staging folder."""
    pid_file = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", ORPHAN, str(pid_file)], cwd=ROOT)
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(pid_file.read_text())
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not reaped by init yet, counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
