"""Modification time of a note (docs/brain.md#times): frontmatter, else last git commit, else file mtime."""
from __future__ import annotations

import os
import subprocess
from datetime import datetime, timezone

import pytest

from builder.brain import load

pytestmark = pytest.mark.usefixtures("git")   # tests/conftest.py: skips without git, fails under CI=true

FIRST = "2026-01-05T10:00:00Z"
SECOND = "2026-03-07T12:30:00Z"


def git(root, *args, date=FIRST):
    env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date, GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
               GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_SYSTEM=os.devnull)
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def utc(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture
def repo(make_brain, tmp_path):
    """A brain inside a git repo (one folder down): a.md and b.md committed, b.md changed later;
    c.md never committed; d.md pins its time in frontmatter; 'ü x.md' has a unicode name."""
    top = tmp_path / "repo"
    root = make_brain(top, {"a.md": "a", "b.md": "b", "d.md": "---\nmodified: 2025-05-05T05:05:05Z\n---\n",
                            "ü x.md": "u", "outside-brain.md": "not in brain"}, name="notes")
    git(top, "init", "-q")
    git(top, "add", ".")
    git(top, "commit", "-q", "-m", "one")
    (root / "b.md").write_text("b changed")
    git(top, "commit", "-q", "-am", "two", date=SECOND)
    (root / "c.md").write_text("c")
    os.utime(root / "c.md", (1_700_000_000, 1_700_000_000))
    return root


def test_frontmatter_then_git_then_mtime(repo):
    modified = load(repo).modified
    assert modified["a.md"] == utc(FIRST)
    assert modified["b.md"] == utc(SECOND)
    assert modified["ü x.md"] == utc(FIRST)
    assert modified["c.md"] == datetime.fromtimestamp(1_700_000_000, timezone.utc)
    assert modified["d.md"] == utc("2025-05-05T05:05:05Z")


def test_one_git_process_for_the_whole_brain(repo, monkeypatch):
    calls = []
    real = subprocess.run

    def counting(cmd, *args, **kwargs):
        calls.append(cmd)
        return real(cmd, *args, **kwargs)
    monkeypatch.setattr(subprocess, "run", counting)
    load(repo)
    assert len([c for c in calls if c[0] == "git"]) == 1


def test_outside_a_work_tree_mtime_is_used(make_brain, tmp_path):
    root = make_brain(tmp_path, {"a.md": "a"})
    os.utime(root / "a.md", (1_600_000_000, 1_600_000_000))
    assert load(root).modified["a.md"] == datetime.fromtimestamp(1_600_000_000, timezone.utc)
