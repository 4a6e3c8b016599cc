"""The benchmark's brains beside its shapes (bench/lang.py, bench/real.py) and its
`linked` shape (bench/gen.py) are what they say; no timing is checked."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
from argparse import Namespace

import yaml

from bench import run
from bench.gen import generate
from bench.lang import BROKEN_EVERY, NOTE_BYTES, generate_lang
from bench.real import bench_extra
from bench.run import PHASES
from builder.brain import load

SCRIPTS = {"CJK": r"[\u4e00-\u9fff]", "Arabic": r"[\u0600-\u06ff]", "Cyrillic": r"[\u0400-\u04ff]", "Latin": r"[a-z]"}


def _front(path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


def test_the_linked_shape_links_every_record_tasks_every_section_and_relates_every_note(tmp_path):
    corpus = generate(tmp_path / "brain", 60, 3, shape="linked")
    notes = {n["ref"] for n in corpus.notes}
    records = [json.loads(f.read_text()) for f in (corpus.root / "memories").rglob("*.json")]
    assert len(records) == 180 and all(set(r["refs"]) & notes for r in records)
    for note in corpus.notes:
        sections = note["body"].split("\n## ")[1:]
        assert sections and all("\n- [" in s for s in sections)
        assert _front(corpus.root / note["ref"])["relations"]
    assert len(corpus.vocab) == 20000


def test_the_multilingual_brain_is_long_mixed_and_has_broken_links(tmp_path):
    made = generate_lang(tmp_path / "brain", 40)
    files = sorted((tmp_path / "brain").rglob("*.md"))
    assert len(files) == made["notes"] == 40
    assert all(f.stat().st_size >= NOTE_BYTES for f in files)
    text = "".join(f.read_text(encoding="utf-8") for f in files)
    assert all(len(re.findall(pattern, text)) > 10_000 for pattern in SCRIPTS.values())
    words = sum(len(re.findall(r"\S+", f.read_text(encoding="utf-8"))) for f in files)
    brain = load(tmp_path / "brain")
    broken = [p for p in brain.problems if p.kind == "broken_link"]
    assert len(broken) == made["broken_links"] >= words / BROKEN_EVERY / 2
    assert len(brain.notes) == 40


def test_a_vault_and_the_multilingual_brain_are_built_per_phase(tmp_path, capsys):
    vault = tmp_path / "vault" / "en"
    vault.mkdir(parents=True)
    (vault / "A note.md").write_text("# A note\n\nSee [[Another]] and [[Missing]].\n", encoding="utf-8")
    (vault / "Another.md").write_text("Back to [[A note]].\n", encoding="utf-8")
    tarball = tmp_path / "vault.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(vault, arcname="en")
    bench_extra(Namespace(reps=1, no_pagefind=True, lang=[6, 12], vault=tarball, vault_copies=[3], base=None),
                tmp_path / "work", run)
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["brain"] for r in rows] == ["lang", "lang", "lang-growth", "vault", "vault"]
    assert rows[3]["notes"] == 2 and rows[3]["build_problems"] == 1 and rows[3]["copies"] == 1
    # three copies, each note's links resolved within its own copy: still the one missing note per copy
    assert rows[4]["notes"] == 6 and rows[4]["build_problems"] == 3 and rows[4]["copies"] == 3
    for row in rows[:2] + rows[3:]:
        assert row["stock_lunr_p50_ms"] is not None and row["base_build_s"] is None
        assert all(isinstance(row[f"build_phase_{p}_s"], float) for p in PHASES if p != "pagefind")
        # a short build is made three times and its median run recorded
        assert len(row["build_runs_s"]) == 3 and row["build_s"] == sorted(row["build_runs_s"])[1]
    assert rows[2]["growth_phase_parse_s"] > 0


def test_a_base_whose_benchmark_predates_child_builds_builds_through_childbuild(tmp_path):
    """bench/base.child: a checkout whose benchmark's child build takes no --child-now (62d2828's
    builder/bench.py took --child-build alone) builds through bench/childbuild.py run as a file
    with that checkout's `builder`; one that takes it runs its own."""
    from bench import ROOT
    from bench.base import child
    old = tmp_path / "old"
    (old / "builder").mkdir(parents=True)
    (old / "builder" / "bench.py").write_text('p.add_argument("--child-build", nargs=2)\n', encoding="utf-8")
    start, env, cwd = child(old)
    assert start[1].endswith("bench/childbuild.py") and cwd == old and env["PYTHONPATH"] == str(old)
    assert child(ROOT)[0][1:] == ["-m", "bench"]   # this checkout's benchmark takes --child-build
    out = tmp_path / "site"
    proc = subprocess.run([sys.executable, start[1], "--child-build", str(ROOT / "examples" / "brain"), str(out),
                           "--child-now", "2026-12-02T12:00:00Z", "--no-pagefind"],
                          env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, check=True)
    report = json.loads(proc.stdout)
    assert report["files"] > 0 and "parse" in report["timings"] and (out / "index.html").is_file()
