"""Faults during a build (docs/site.md#atomic-builds): killed at random points, a full disk, a brain that
changes while it is read. The site is always the previous complete one or the new one."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from builder.cli import main
from builder.emit.writer import Writer
from builder.query.read import read
from builder.query.site import open_site

NOW = "2026-12-02T12:00:00Z"
ROOT = Path(__file__).resolve().parents[2]


def snapshot(site: Path) -> dict[str, str]:
    """Every file of a site with the SHA-256 of its bytes; every JSON file must parse whole."""
    out = {}
    for path in sorted(site.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.suffix == ".json":
                json.loads(data)
            out[path.relative_to(site).as_posix()] = hashlib.sha256(data).hexdigest()
    return out


def live_site(out: Path) -> Path:
    """Where readers find the site: `out`, or `.out.old` when a build died between its renames."""
    old = out.parent / f".{out.name}.old"
    return out if (out / "_bf/manifest.json").is_file() or not old.is_dir() else old


def set_state(brain: Path, version: int) -> None:
    """Two versions of one note, with pinned mtimes so a version always builds the same bytes."""
    note = brain / "projects/plan.md"
    note.write_text(f"---\ntitle: Plan\n---\n# Plan\n\n## Goal\n\nVersion {version}: " + "words " * 50 * (version + 1)
                    + "\n", encoding="utf-8")
    for path in brain.rglob("*"):
        os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))


def build_cmd(brain: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "builder", "build", str(brain), "--out", str(out), "--now", NOW,
            "--no-pagefind", "--quiet"]


def test_kill_at_random_points_leaves_a_complete_site(small_brain, tmp_path):
    out = tmp_path / "site"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    known = {}
    for version in (0, 1):          # the two complete sites a reader may ever see
        set_state(small_brain, version)
        ref = tmp_path / f"ref{version}"
        subprocess.run(build_cmd(small_brain, ref), env=env, check=True)
        known[open_site(ref).build_id] = snapshot(ref)
    assert len(known) == 2
    start = time.monotonic()
    subprocess.run(build_cmd(small_brain, out), env=env, check=True)
    full = time.monotonic() - start
    rng = random.Random(9)
    kills = 0
    for run in range(24):
        set_state(small_brain, run % 2)
        proc = subprocess.Popen(build_cmd(small_brain, out), env=env)
        time.sleep(rng.uniform(0.0, full * 1.1))
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)   # only the build this test started
            kills += 1
        proc.wait()
        site = live_site(out)
        build_id = open_site(out).build_id
        assert build_id in known, run
        assert snapshot(site) == known[build_id], (run, build_id)
    assert kills >= 12, f"only {kills} of 24 builds were killed before they finished"
    subprocess.run(build_cmd(small_brain, out), env=env, check=True)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".site")) == []


def disk_full(budget: int):
    """A Writer.write that fails with ENOSPC once `budget` bytes have been written."""
    real, written = Writer.write, [0]

    def write(writer, path, data, owner=""):
        size = len(data.encode("utf-8") if isinstance(data, str) else data)
        if written[0] + size > budget:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(writer.stage / path))
        written[0] += size
        return real(writer, path, data, owner)
    return write


@pytest.mark.parametrize("budget", [0, 2_000, 40_000])
def test_full_disk_fails_clearly_and_keeps_the_old_site(small_brain, tmp_path, monkeypatch, capsys, budget):
    out = tmp_path / "site"
    assert main(["build", str(small_brain), "--out", str(out), "--now", NOW, "--no-pagefind", "--quiet"]) == 0
    before = snapshot(out)
    set_state(small_brain, 1)
    capsys.readouterr()
    monkeypatch.setattr(Writer, "write", disk_full(budget))
    code = main(["build", str(small_brain), "--out", str(out), "--now", NOW, "--no-pagefind", "--quiet"])
    stdout, stderr = capsys.readouterr()
    assert code == 1 and stdout == ""
    body = json.loads(stderr)
    assert body["code"] == "build_failed" and "No space left on device" in body["error"], body
    assert "Traceback" not in stderr and str(small_brain) not in body["error"]
    assert snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.building")] == []


VERSIONS = [f"---\ntitle: Churn\n---\n# Churn\n\nversion {i} " + ("ü" * (i * 997 % 5000)) + "\n" for i in range(40)]


@pytest.mark.parametrize("atomic", [True, False])
def test_a_note_rewritten_during_builds_is_never_torn(small_brain, tmp_path, atomic):
    """A thread rewrites one note while builds run: each reply carries one whole version (when
    the editor replaces the file atomically) and always a sha256 of exactly the text it carries."""
    from builder.build import build
    note = small_brain / "churn.md"
    note.write_text(VERSIONS[0], encoding="utf-8")
    stop = threading.Event()

    def churn():
        i = 0
        while not stop.is_set():
            i += 1
            text = VERSIONS[i % len(VERSIONS)]
            if atomic:
                tmp = note.with_name(".churn.tmp")
                tmp.write_text(text, encoding="utf-8")
                os.replace(tmp, note)
            else:
                note.write_text(text, encoding="utf-8")

    thread = threading.Thread(target=churn, daemon=True)
    thread.start()
    seen = set()
    try:
        for n in range(8):
            out = tmp_path / "site"
            build([small_brain], out, now=NOW, pagefind=False)
            site = open_site(out)
            try:
                reply = read(site, "churn.md")
            except Exception as exc:   # caught mid-rewrite (empty file): out of this build, reported
                assert atomic is False, exc
                continue
            text = reply["text"]
            assert reply["sha256"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
            if atomic:
                assert text in VERSIONS
            seen.add(text)
    finally:
        stop.set()
        thread.join()
    assert seen


# Runs `bf build` and dies (os._exit: as abrupt as SIGKILL, no cleanup) at one step of the swap:
# "old" = renaming the current site away, "stage" = renaming the staged site in, "rmtree" =
# deleting the old site. Patching os/shutil patches them for every caller: match on the paths.
DIE_AT = """
import os, sys
import builder.emit.writer as w
step = sys.argv[1]
real_rename, real_rmtree = os.rename, w.shutil.rmtree
def rename(src, dst, *a, **k):
    if (step == "old" and str(dst).endswith(".site.old")) or (step == "stage" and ".site.building-" in str(src)):
        os._exit(137)
    return real_rename(src, dst, *a, **k)
def rmtree(path, *a, **k):
    if step == "rmtree" and str(path).endswith(".site.old"):
        os._exit(137)
    return real_rmtree(path, *a, **k)
real_discard = w._discard
def discard(tree, *a, **k):   # the old site leaves through _discard (moved away, removed in the background)
    if step == "rmtree" and str(tree).endswith(".site.old"):
        os._exit(137)
    return real_discard(tree, *a, **k)
os.rename, w.shutil.rmtree, w._discard = rename, rmtree, discard
from builder.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("step", ["old", "stage", "rmtree"])
def test_death_inside_the_swap_keeps_a_readable_site(small_brain, tmp_path, step):
    """The swap's windows, hit exactly: before the first rename, between the two renames, and
    after both (while the old site is being deleted)."""
    out = tmp_path / "site"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    set_state(small_brain, 1)
    subprocess.run(build_cmd(small_brain, tmp_path / "new"), env=env, check=True)
    new_id, new = open_site(tmp_path / "new").build_id, snapshot(tmp_path / "new")
    set_state(small_brain, 0)
    subprocess.run(build_cmd(small_brain, out), env=env, check=True)
    old_id, old = open_site(out).build_id, snapshot(out)
    set_state(small_brain, 1)
    proc = subprocess.run([sys.executable, "-c", DIE_AT, step] + build_cmd(small_brain, out)[3:], env=env)
    assert proc.returncode == 137
    site = open_site(out)                       # a reader right after the crash
    expected = (new_id, new) if step == "rmtree" else (old_id, old)
    got = snapshot(live_site(out))
    assert (site.build_id, got) == expected, {k: (got.get(k), expected[1].get(k)) for k in got.keys() | expected[1].keys() if got.get(k) != expected[1].get(k)}
    assert read(site, "projects/plan.md")["ref"] == "projects/plan.md"
    subprocess.run(build_cmd(small_brain, out), env=env, check=True)   # the next build recovers
    assert open_site(out).build_id == new_id and snapshot(out) == new
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".site")) == []
