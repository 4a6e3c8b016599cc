"""The search worker of a kept BuildState (builder/searchworker.py): a rebuild whose worker died,
or whose worker's parse read other bytes than this process's, runs its search side in this
process, and its site is still a clean build's, byte for byte; the next rebuild forks a new worker."""
import shutil
from pathlib import Path

import pytest

import builder.build as build_module
from builder.emit.state import BuildState
from builder.kernel.parallel import can_fork, cores

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "brain"

pytestmark = pytest.mark.skipif(cores() < 2 or not can_fork(), reason="a search worker needs two cores and fork")


def _tree(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def session(tmp_path, build_site):
    """A brain, and a kept state after a first build: its worker forked."""
    brain = tmp_path / "brain"
    shutil.copytree(EXAMPLE, brain)
    state = BuildState()
    build_site(brain, tmp_path / "site" / "out", state=state)
    state.settle()
    assert state.search is not None
    return brain, state


def _edit_and_rebuild(tmp_path, build_site, brain: Path, state: BuildState, word: str) -> None:
    """Append `word` to a note, rebuild with the state, and compare with a clean build."""
    note = brain / "index.md"
    with note.open("a", encoding="utf-8") as fh:
        fh.write(f"\nA line with {word}.\n")
    out = tmp_path / "site" / "out"
    build_site(brain, out, state=state, changed={note})
    state.settle()
    clean = tmp_path / f"clean-{word}" / "out"
    build_site(brain, clean)
    assert _tree(out) == _tree(clean)


def test_a_rebuild_whose_worker_died_runs_its_search_side_here_and_equals_a_clean_build(tmp_path, build_site, session):
    brain, state = session
    first = state.search
    first._process.kill()
    first._process.join()
    _edit_and_rebuild(tmp_path, build_site, brain, state, "xylophone")
    assert state.search is None               # this rebuild's search side ran in this process
    _edit_and_rebuild(tmp_path, build_site, brain, state, "marimba")
    assert state.search is not None and state.search is not first   # the next one forked a worker


def test_a_worker_that_read_other_bytes_is_not_trusted(tmp_path, build_site, session, monkeypatch):
    brain, state = session
    worker = state.search
    # only this process's digest changes (the worker was forked before): as when a file is saved
    # between the two parses
    monkeypatch.setattr(build_module, "read_digest", lambda brain, parsed: -1)
    _edit_and_rebuild(tmp_path, build_site, brain, state, "xylophone")
    assert state.search is None and not worker._process.is_alive()


def test_ctrl_c_during_a_rebuild_ends_the_worker_at_once_and_keeps_the_site(tmp_path, build_site, session, monkeypatch):
    brain, state = session
    out = tmp_path / "site" / "out"
    before = _tree(out)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    with monkeypatch.context() as ctrl_c:
        ctrl_c.setattr(build_module, "compute", interrupted)   # this process's views side
        with pytest.raises(KeyboardInterrupt):
            build_site(brain, out, state=state, changed=set())
    assert not state.search._process.is_alive() and _tree(out) == before
    _edit_and_rebuild(tmp_path, build_site, brain, state, "xylophone")   # the next build still works
