"""A rebuild over an existing site equals a clean full build, byte for byte (docs/site.md#atomic-builds).

A seeded random sequence of EDITS edits (brain_edits.py) is applied to a small copy of
examples/brain. After every edit the site is rebuilt in this one long-lived process (as
`bf serve --watch` rebuilds) into the same `out`, with the cache folder the CLI uses beside it
(`.bf-cache`: the parse cache, the writer's file index) and the in-process BuildState
(emit/state.py) that `bf serve --watch` keeps, so every cache a rebuild trusts is exercised;
every 7th rebuild runs without the BuildState, so the next one meets a state older than the site.
A rebuild with the BuildState is told the paths changed since the last one, as `bf serve
--watch` passes its file events (events()), so it looks at those files alone. After every 10th edit the whole tree (every path, every byte) is compared with a
clean build of the same brain state by the CLI in a new process, into a fresh folder with a
fresh cache, so in-process state cannot hide a difference either. Five of those comparisons
run pagefind, as does the rebuild just before each, so unchanged bundles are reused from the
previous site; pagefind's files are compared too (emit/pagefind_canon.py makes them
deterministic), none excepted.

A failure names the seed, the step, every edit so far and the first differing paths; rerun it
with BF_INCREMENTAL_SEED=<seed>. A feature that adds build-wide outputs adds edits that
exercise it to brain_edits.py. Measured with `time` (not asserted): 76 s on 2 cores.
"""
from __future__ import annotations

import gzip
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.build import build
from builder.emit.state import BuildState

from brain_edits import Editor

ROOT = Path(__file__).resolve().parents[2]
NOW = "2026-12-02T12:00:00Z"
SEED = int(os.environ.get("BF_INCREMENTAL_SEED", "15"))
EDITS = 200
PAGEFIND_AT = {40, 80, 120, 160, 200}
RECORDS_PER_SOURCE = 3   # a small brain keeps ~220 builds within the time box


def small_brain(tmp: Path) -> Path:
    """examples/brain with its 3 earliest-named records per source (all notes kept)."""
    brain = tmp / "brain"
    shutil.copytree(ROOT / "examples" / "brain", brain)
    for source in sorted((brain / "memories").iterdir()):
        records = sorted(p for p in source.glob("*.json") if p.name != "_source.json")
        for extra in records[RECORDS_PER_SOURCE:]:
            extra.unlink()
    return brain


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def differences(rebuilt: dict[str, bytes], clean: dict[str, bytes]) -> list[str]:
    """Each differing path, with where its bytes first differ (gzip'd files are compared unpacked)."""
    out = []
    for path in sorted(rebuilt.keys() | clean.keys()):
        a, b = rebuilt.get(path), clean.get(path)
        if a == b:
            continue
        if a is None or b is None:
            out.append(f"{path}: only in the {'clean build' if a is None else 'rebuild'}")
            continue
        if a[:2] == b[:2] == b"\x1f\x8b":
            a, b = gzip.decompress(a), gzip.decompress(b)
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        out.append(f"{path}: at byte {at}\n    rebuild: {a[max(0, at - 60):at + 100]!r}\n"
                   f"    clean:   {b[max(0, at - 60):at + 100]!r}")
    return out


def events(root: Path, before: dict[Path, tuple | None]) -> tuple[dict, set[Path]]:
    """The tree's entries now, and the paths a file watcher names for what changed since
    `before`: files added, removed or modified, folders added or removed (not a folder whose
    entries changed: watchers name the entry)."""
    now: dict[Path, tuple | None] = {}
    for folder, dirs, files in os.walk(root):
        now.update((Path(folder, name), None) for name in dirs)
        for name in files:
            st = os.lstat(Path(folder, name))
            now[Path(folder, name)] = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    return now, {p for p in now.keys() | before.keys() if before.get(p, ()) != now.get(p, ())}


def clean_build(brain: Path, out: Path, now: str, pagefind: bool) -> None:
    cmd = [sys.executable, "-m", "builder", "build", str(brain), "--out", str(out), "--now", now, "--quiet",
           *([] if pagefind else ["--no-pagefind"])]
    subprocess.run(cmd, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True)


def failure(step: int, log: list[str], what: str) -> str:
    return (f"seed {SEED}, step {step} ({log[-1]}): {what}\n"
            f"rerun: BF_INCREMENTAL_SEED={SEED} pytest tests/incremental\nedits:\n  " + "\n  ".join(log))


@pytest.mark.slow
def test_rebuild_after_random_edits_equals_a_clean_build(tmp_path):
    brain = small_brain(tmp_path)
    out = tmp_path / "site" / "out"          # its cache: tmp_path/site/.bf-cache, as the CLI's
    editor = Editor(brain, random.Random(SEED), NOW)
    state = BuildState()   # as bf serve --watch keeps it; every 7th rebuild runs without it
    build([brain], out, now=editor.now, pagefind=False, state=state)
    state.settle()
    seen = events(brain, {})[0]
    changed: set[Path] = set()   # since the last build with the state
    log: list[str] = []
    compared = pagefound = 0
    for step in range(1, EDITS + 1):
        log.append(f"{step}: {editor.step()}")
        pagefind = step in PAGEFIND_AT or step + 1 in PAGEFIND_AT
        seen, named = events(brain, seen)
        changed |= named
        kept = step % 7 != 0
        try:
            build([brain], out, now=editor.now, pagefind=pagefind, state=state if kept else None,
                  changed=changed if kept else None)
        except Exception as exc:
            raise AssertionError(failure(step, log, f"the rebuild raised {exc!r}")) from exc
        if kept:
            changed = set()
            state.settle()   # as bf serve --watch does: its search side runs in a worker from then on
        if step % 10:
            continue
        clean = tmp_path / f"clean-{step}" / "out"
        clean_build(brain, clean, editor.now, step in PAGEFIND_AT)
        diff = differences(tree(out), tree(clean))
        assert not diff, failure(step, log, f"{len(diff)} paths differ, first:\n" + "\n".join(diff[:5]))
        compared += 1
        pagefound += (out / "pagefind" / "bundles.json").is_file()
        shutil.rmtree(clean.parent)
    assert (compared, pagefound) == (EDITS // 10, len(PAGEFIND_AT))
