"""A pagefind bundle is reused on rebuild only when pagefind would index exactly the same pages.

The bundle's input hash leaves the build instant out of its pages (the footer's "as of", which
every page carries and pagefind does not index), so moving `--now` alone reuses every bundle.
Only that footer may be left out: a note whose text names the instant is indexed text."""
from __future__ import annotations

import json
from pathlib import Path

from builder.build import build
from builder.emit import pagefind

A, B = "2026-12-02T12:00:00Z", "2026-12-03T12:00:00Z"


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def synced(at: str) -> str:
    """A note a tool stamps with the time it last synced (its modification time stays fixed)."""
    return f"---\nmodified: 2026-11-01T00:00:00Z\n---\n# Sync\n\nLast synced at {at}.\n"


def test_a_note_naming_the_new_instant_is_indexed_again(make_brain, tmp_path):
    brain = make_brain(tmp_path, {"sync.md": synced(A)})
    out = tmp_path / "site" / "out"
    build([brain], out, now=A, pagefind=True)
    (brain / "sync.md").write_text(synced(B), encoding="utf-8")
    build([brain], out, now=B, pagefind=True)
    clean = tmp_path / "clean" / "out"
    build([brain], clean, now=B, pagefind=True)
    assert files(out / "pagefind") == files(clean / "pagefind")


def test_moving_the_instant_alone_reuses_every_bundle(make_brain, tmp_path):
    brain = make_brain(tmp_path, {"sync.md": synced("2026-11-01T00:00:00Z")})
    out = tmp_path / "site" / "out"
    build([brain], out, now=A, pagefind=True)
    before = json.loads((out / "pagefind" / "bundles.json").read_bytes())
    inodes = {p: p.stat().st_ino for p in (out / "pagefind").rglob("*.pf_fragment")}
    build([brain], out, now=B, pagefind=True)
    assert json.loads((out / "pagefind" / "bundles.json").read_bytes()) == before
    assert inodes and {p: p.stat().st_ino for p in (out / "pagefind").rglob("*.pf_fragment")} == inodes


def test_bundles_made_by_other_bundle_code_are_made_again(make_brain, tmp_path, monkeypatch, pagefind_runs):
    """A bf whose pagefind.py or pagefind_canon.py differs (say, new pagefind flags) reuses no bundle."""
    brain = make_brain(tmp_path, {"sync.md": synced("2026-11-01T00:00:00Z")})
    out = tmp_path / "site" / "out"
    build([brain], out, now=A, pagefind=True)
    first = len(pagefind_runs())
    build([brain], out, now=A, pagefind=True)
    assert pagefind_runs()[first:] == []                # the same code: the bundle is reused
    monkeypatch.setattr(pagefind, "CODE", "another bf")
    build([brain], out, now=A, pagefind=True)
    assert pagefind_runs()[first:] == [["brain/sync.html"]]
