"""A build is a function of the brain, bf's version and --now (docs/site.md): two builds of one
brain in processes with different hash seeds (set and dict-of-set orders differ between them)
give the same bytes, file for file."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bench.gen import generate

NOW = "2026-12-01T12:00:00Z"


def _build(brain: Path, out: Path, seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    subprocess.run([sys.executable, "-m", "builder", "build", str(brain), "--out", str(out), "--no-pagefind",
                    "--now", NOW], check=True, capture_output=True, env=env)
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_two_builds_under_other_hash_seeds_are_byte_identical(tmp_path):
    # the linked shape: notes whose long lines hold several links, records linking notes
    corpus = generate(tmp_path / "brain", 400, 2, shape="linked")
    one, two = _build(corpus.root, tmp_path / "one", "1"), _build(corpus.root, tmp_path / "two", "2")
    assert sorted(one) == sorted(two)
    assert [rel for rel in one if one[rel] != two[rel]] == []
