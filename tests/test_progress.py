"""bf build's words on stderr (builder/progress.py, docs/replies.md#bf-build): a live display on
a terminal, plain lines through a pipe, nothing but errors with --quiet; one summary either way."""
from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-12-02T12:00:00Z"
FILES = {"index.md": "# Home\n\n[[a]]\n", "a.md": "# A\n\n[[nowhere]]\n", "bad.md": "---\ntitle: [\n---\nx\n"}
NOTICE = "feeds and sitemap skipped: need site URL"


def _said_the_summary(err: str, out: Path) -> None:
    assert f" → {out}" in err and " written, " in err and " reused)" in err
    assert "  parse " in err and "  render " in err   # each phase's time
    assert "2 problem(s); bf check lists them all:" in err
    assert "    broken_link (1): a.md" in err and "    frontmatter (1): bad.md" in err
    assert err.count(NOTICE) == 1


def test_a_build_through_a_pipe_says_plain_lines_and_one_summary(make_brain, tmp_path, bf):
    root = make_brain(tmp_path, FILES)
    code, out, err = bf("build", root, "--out", tmp_path / "site", "--now", NOW, "--no-pagefind")
    assert code == 0 and out == ""
    assert "\x1b" not in err and err.startswith("bf build: ")
    _said_the_summary(err, tmp_path / "site")


def test_plain_lines_name_each_step_once_the_build_is_slow(make_brain, tmp_path, build_site):
    from builder.progress import Progress
    stream = io.StringIO()
    progress = Progress(stream, after=0, live=False)
    report = build_site(make_brain(tmp_path, FILES), tmp_path / "site", pagefind=False, progress=progress)
    progress.done(report)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("bf build: parse… (") and "bf build: parse: 2 notes, 0 records" in lines
    assert "bf build: notes 3/3 parsed" in lines   # bad.md is parsed too, then kept out
    assert re.search(r"^bf build: pages (\d+)/\1 written$", stream.getvalue(), re.M)
    assert any(line.startswith("bf build: pages… (") for line in lines)
    assert any(line.startswith("bf build: swap… (") for line in lines)


def test_counts_through_a_pipe_are_plain_lines(make_brain, tmp_path, build_site):
    from builder.progress import Progress
    read, write = os.pipe()
    with os.fdopen(write, "w", encoding="utf-8") as stream:
        progress = Progress(stream, after=0)   # not a terminal: no live display
        assert progress.display is None
        build_site(make_brain(tmp_path, FILES), tmp_path / "site", pagefind=False, progress=progress)
    with os.fdopen(read, encoding="utf-8") as said:
        lines = said.read().splitlines()
    assert "bf build: notes 0/3 parsed" in lines and "bf build: notes 3/3 parsed" in lines
    assert any(re.fullmatch(r"bf build: pages (\d+)/\1 written", line) for line in lines)


def test_quiet_says_nothing_but_errors(make_brain, tmp_path, bf):
    root = make_brain(tmp_path, FILES)
    assert bf("build", root, "--out", tmp_path / "site", "--now", NOW, "--no-pagefind", "-q") == (0, "", "")
    code, _, err = bf("build", tmp_path / "nowhere", "--out", tmp_path / "site", "-q")
    assert code == 2 and err.startswith('{"error": "invalid input: brain: not a folder: ')


def test_a_build_on_a_terminal_shows_a_live_bar_then_the_summary(make_brain, tmp_path):
    root = make_brain(tmp_path, FILES)
    leader, follower = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm", COLUMNS="100")
    run = subprocess.Popen([sys.executable, "-m", "builder", "build", str(root), "--out", str(tmp_path / "site"),
                            "--now", NOW, "--no-pagefind"], stdin=follower, stdout=follower, stderr=follower,
                           env=env, cwd=tmp_path, close_fds=True)
    os.close(follower)
    said = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:   # the child closed the terminal
            break
        if not chunk:
            break
        said += chunk
    os.close(leader)
    assert run.wait() == 0
    text = said.decode("utf-8").replace("\r\n", "\n")
    assert "bf build: parse" in text and "━" in text and "/7" in text and " steps " in text   # the live bar
    assert "bf build: parse: 2 notes, 0 records" in text
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)   # the counts' bars, without their colours
    assert re.search(r" notes +━+ 3/3 parsed", shown) and re.search(r" pages +━+ (\d+)/\1 written", shown)
    _said_the_summary(text, tmp_path / "site")
