"""Discovery after file events (builder/brain/rediscover.py): the last walk's Found, with the
paths a watcher names looked at again, is what a new walk finds, whatever the change (new
folders with files, renamed and removed folders, links, ignored, hidden and odd entries)."""
from __future__ import annotations

import os
import random
from pathlib import Path

from builder.brain.discover import discover
from builder.brain.rediscover import rediscover


def _snapshot(root: Path) -> dict[str, tuple | None]:
    out: dict[str, tuple | None] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            out[Path(folder, name).relative_to(root).as_posix()] = None
        for name in files:
            st = os.lstat(Path(folder, name))
            out[Path(folder, name).relative_to(root).as_posix()] = (st.st_mtime_ns, st.st_ctime_ns, st.st_size)
    return out


def _comparable(found) -> dict:
    """A Found's fields; problems and unread entries in any order (the parse sorts problems)."""
    return {**vars(found), "skipped": sorted(found.skipped), "unread": sorted(found.unread)}


def _edit(root: Path, rng: random.Random, n: int) -> None:
    files = sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())
    folders = sorted(p for p in root.rglob("*") if p.is_dir() and not p.is_symlink())
    what = rng.randrange(10)
    if what == 0 and files:
        rng.choice(files).unlink()
    elif what == 1 and folders:
        folder = rng.choice(folders)
        folder.rename(folder.with_name(f"moved{n}"))
    elif what == 2 and files:
        target = root / rng.choice(["", "notes/", "memories/chat/"]) / f"link{n}.md"
        if target.parent.is_dir():
            target.symlink_to(rng.choice(files))
    elif what == 3:
        folder = root / rng.choice(["notes", "ignored", ".hidden", "node_modules", "memories"]) / f"new{n}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"inside{n}.md").write_text("# Inside\n", encoding="utf-8")
        (folder / f"r{n}.json").write_text("{}", encoding="utf-8")
    elif what == 4 and files:
        with rng.choice(files).open("a", encoding="utf-8") as fh:
            fh.write("\nmore\n")
    elif what == 5:
        (root / "memories" / f"src{n % 3}").mkdir(parents=True, exist_ok=True)
        (root / "memories" / f"src{n % 3}" / f"{n}.json").write_text('{"text": "x"}', encoding="utf-8")
    elif what == 6 and folders:
        folder = rng.choice(folders)
        for path in sorted(folder.rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
        folder.rmdir()
    elif what == 7:
        os.mkfifo(root / f"pipe{n}")
    elif what == 8:
        (root / f"odd\x01{n}.md").write_text("# Odd\n", encoding="utf-8")
    else:
        path = root / rng.choice(["", "notes/"]) / f"n{n}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# N\n", encoding="utf-8")


def test_looking_at_the_named_paths_finds_what_a_walk_finds(tmp_path):
    rng = random.Random(5)
    root = tmp_path / "brain"
    for rel, text in {"a.md": "# A\n", "notes/b.md": "# B\n", "notes/deep/c.md": "# C\n", "ignored/x.md": "# X\n",
                      "memories/chat/1.json": "{}", "memories/chat/_source.json": "{}", "pic.png": "png",
                      ".bfignore": "ignored/\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    found, seen = discover(root), _snapshot(root)
    for n in range(150):
        _edit(root, rng, n)
        now = _snapshot(root)
        named = {rel for rel in now.keys() | seen.keys() if seen.get(rel, ()) != now.get(rel, ())}
        again = rediscover(root, set(), found, named)
        walked = discover(root)
        if ".bfignore" in named:    # what it ignores changed: only a walk can tell
            assert again is None
            again = walked
        assert again is not None, f"step {n}: {sorted(named)}"
        assert _comparable(again) == _comparable(walked), f"step {n}: {sorted(named)}"
        found, seen = again, now


def test_a_changed_ignore_file_or_too_many_paths_ask_for_a_walk(tmp_path):
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    found = discover(tmp_path)
    assert rediscover(tmp_path, set(), found, {".bfignore"}) is None
    assert rediscover(tmp_path, set(), found, {f"n{i}.md" for i in range(1000)}) is None
