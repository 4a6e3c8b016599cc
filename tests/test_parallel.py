"""Parallel parse and emit give the very bytes a one-process build gives."""
import os
from pathlib import Path

import pytest

import builder.brain as brain_module
import builder.build as build_module
import builder.emit.emitters as emitters_module
import builder.kernel.parallel as parallel_module
from builder.benchgen import generate


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_parallel_build_equals_serial_build(tmp_path, build_site, monkeypatch):
    brain = tmp_path / "brain"
    generate(brain, notes=220, records_per_note=1, seed=5)   # over both parallel thresholds
    build_site(brain, tmp_path / "parallel")
    for module in (parallel_module, emitters_module, brain_module, build_module):
        monkeypatch.setattr(module, "cores", lambda: 1)
    build_site(brain, tmp_path / "serial")
    assert _tree(tmp_path / "parallel") == _tree(tmp_path / "serial")


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


def _runs_a_program(note):
    """In a child: a program run (parallel.run) from a thread, inside a temporary folder, as
    pagefind is run."""
    import tempfile
    import threading
    import time
    with tempfile.TemporaryDirectory(dir=note.parent) as tmp:
        pid = Path(tmp) / "pid"
        waiter = threading.Thread(target=parallel_module.run, args=(["sh", "-c", f"echo $$ > {pid}; exec sleep 60"],))
        waiter.start()
        while not pid.exists() or not pid.read_text().strip():
            time.sleep(0.005)
        note.write_text(f"{pid.read_text().strip()} {tmp}")
        waiter.join()


def test_leaving_a_forked_child_early_ends_its_programs_and_removes_its_temporary_folders(tmp_path):
    """An interrupted build: the child and the program it runs end, and its temporary folder goes."""
    import time
    note = tmp_path / "started"
    with parallel_module.Forked(_runs_a_program, note):
        deadline = time.monotonic() + 30
        while not note.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)
        pid, tmp = note.read_text().split()
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.01)
    state = open(f"/proc/{pid}/stat").read().split()[2] if os.path.exists(f"/proc/{pid}") else None
    assert state in (None, "Z"), "the child's program is still running"
    assert not os.path.exists(tmp)


def _busy(_, x):
    import time
    time.sleep(0.01)
    return x


def _pools_in_child(note):
    """In a child: pool after pool, as the build's search side runs its phases."""
    note.write_text("started")
    while True:
        parallel_module.fork_map(_busy, list(range(40)), None)


def test_leaving_early_a_forked_child_whose_pool_is_busy_does_not_hang(tmp_path):
    """The pool's workers get the SIGTERM too, and must die at once rather than unwind as their
    parent does: one unwinding while it held the pool's queue lock hung Pool.terminate (and the
    build with it)."""
    import random
    import threading
    import time
    for attempt in range(6):
        note, left = tmp_path / f"started-{attempt}", threading.Event()

        def leave():
            with parallel_module.Forked(_pools_in_child, note):
                while not note.exists():
                    time.sleep(0.005)
                time.sleep(random.uniform(0, 0.3))
            left.set()

        threading.Thread(target=leave, daemon=True).start()
        assert left.wait(60), f"leaving the child hung (attempt {attempt})"


def test_forked_raises_the_childs_exception_in_the_parent():
    with parallel_module.Forked(_fail, None) as side, pytest.raises(ValueError, match="no such thing"):
        side.get()
