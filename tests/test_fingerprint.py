"""Staleness on the cold path (builder/kernel/fingerprint.Staleness, docs/replies.md#problems-and-staleness):
files added or removed anywhere, brain.toml and the files the site does not publish are always compared; a
published file edited in place when the reply returns its item; a source folder's records listed only when
the folder's own signature moved (or it is recent, or holds a folder)."""
from __future__ import annotations

import os
import time

import pytest

import builder.kernel.fingerprint as fp
from builder.query.site import open_site


@pytest.fixture
def built(make_brain, build_site, tmp_path, monkeypatch):
    monkeypatch.setattr(fp, "RECENT_NS", 0)    # the test's files are seconds old: do not list them for that
    brain = make_brain(tmp_path, {"a.md": "# A\n", "memories/chat/1.json": '{"text": "one"}',
                                  "memories/chat/2.json": '{"text": "two"}', "memories/deep/x/3.json": '{"text": "three"}'})
    build_site(brain, tmp_path / "site")
    return brain, tmp_path / "site"


def scanned(monkeypatch) -> list[str]:
    seen = []
    real = os.scandir

    def spy(path):
        seen.append(os.fspath(path))
        return real(path)
    monkeypatch.setattr(fp.os, "scandir", spy)
    return seen


def stale(site, paths=()):
    return open_site(site).stale("brain", paths)


def test_unchanged_source_folders_are_not_listed(built, monkeypatch):
    brain, site = built
    seen = scanned(monkeypatch)
    assert stale(site) is None
    assert not any(p.endswith("memories/chat") for p in seen)


def test_an_edited_note_is_counted_for_a_reply_that_returns_it_and_a_new_record_always(built):
    brain, site = built
    (brain / "a.md").write_text("# A\n\nmore\n", encoding="utf-8")
    (brain / "memories/chat/3.json").write_text('{"text": "three"}', encoding="utf-8")
    assert stale(site, ["a.md"])["changed"] == 2
    assert stale(site)["changed"] == 1   # the documented bound: an in-place edit of an item not returned


def test_added_and_removed_notes_and_brain_toml_are_counted(built):
    brain, site = built
    (brain / "b.md").write_text("# B\n", encoding="utf-8")
    assert stale(site)["changed"] == 1
    (brain / "a.md").unlink()
    assert stale(site)["changed"] == 2
    (brain / "brain.toml").write_text('title = "Other"\n', encoding="utf-8")
    assert stale(site)["changed"] == 3


def test_a_cold_query_stats_only_what_it_must(built, monkeypatch):
    """Not every authored file: brain.toml, the files the site does not publish, the reply's items."""
    brain, site = built
    (brain / "brain.toml").write_text('name = "brain"\n', encoding="utf-8")
    for i in range(20):
        (brain / f"n{i}.md").write_text(f"# N{i}\n", encoding="utf-8")
    build_again = __import__("builder.build", fromlist=["build"]).build
    build_again([brain], site, now="2026-12-02T12:00:00Z", pagefind=False)
    (brain / "draft.md").write_text("---\ndraft: true\n---\nx\n", encoding="utf-8")
    signed = []
    real = fp._sign_of
    monkeypatch.setattr(fp, "_sign_of", lambda root, rel: signed.append(rel) or real(root, rel))
    assert stale(site, ["n3.md"])["changed"] == 1   # the draft: a file not published, counted and signed
    assert sorted(signed) == ["brain.toml", "draft.md", "n3.md"]


def test_a_removed_record_and_a_removed_source_are_counted(built):
    brain, site = built
    (brain / "memories/chat/2.json").unlink()
    assert stale(site)["changed"] == 1
    for f in (brain / "memories/chat").iterdir():
        f.unlink()
    (brain / "memories/chat").rmdir()
    assert stale(site)["changed"] == 2


def test_a_folder_with_a_subfolder_is_always_listed(built):
    brain, site = built
    (brain / "memories/deep/x/3.json").write_text('{"text": "three, edited"}', encoding="utf-8")
    assert stale(site)["changed"] == 1


def test_a_record_edited_in_place_is_seen_as_a_returned_item_or_while_its_folder_is_recent(built, monkeypatch):
    """The documented bound: an in-place edit keeps the folder's mtime (docs/site.md)."""
    brain, site = built
    folder = brain / "memories/chat"
    before = folder.stat()
    (folder / "1.json").write_text('{"text": "one, edited"}', encoding="utf-8")
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert stale(site) is None
    assert stale(site, ["memories/chat/1.json"])["changed"] == 1
    monkeypatch.setattr(fp, "RECENT_NS", time.time_ns())
    assert stale(site)["changed"] == 1


def _as_recorded(brain) -> tuple[dict, dict]:
    return brain.listing.main(), {folder: files.files for folder, files in brain.listing.folders.items()}


@pytest.mark.parametrize("odd", [False, True])
def test_the_parse_records_what_a_walk_records_and_patches_it_after_edits(make_brain, tmp_path, odd):
    """The build's fingerprint is what discovery saw (brain.listing), not a second walk: it must
    equal recorded() with what discovery leaves out (links, ignored and special files, node_modules,
    odd names), and stay equal when a later load patches it (a source folder whose files did not
    change keeps its Files, and so its JSON)."""
    from builder.brain import LoadMemo, load
    root = make_brain(tmp_path, {"a.md": "# A\n", "sub/b.md": "# B\n", "memories/chat/1.json": '{"text": "one"}',
                                 "memories/deep/x/3.json": '{"text": "three"}', "memories/notes.txt": "t",
                                 "memories/other/1.json": '{"text": "other"}'})
    if odd:
        for rel, text in {"skipme/c.md": "# C\n", "junk.tmp": "x", "node_modules/m.js": "m", ".bfignore": "skipme/\n*.tmp\n",
                          "bad\x01name.md": "# Bad\n"}.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        (root / "link.md").symlink_to(root / "a.md")
        (root / "memories/chat/link.json").symlink_to(root / "memories/chat/1.json")
        os.mkfifo(root / "pipe")
    memo = LoadMemo()
    assert _as_recorded(load(root, memo=memo)) == fp.recorded(root)
    edits = [lambda: (root / "a.md").write_text("# A\n\nedited\n", encoding="utf-8"),
             lambda: (root / "memories/chat/2.json").write_text('{"text": "two"}', encoding="utf-8"),
             lambda: (root / "sub/b.md").unlink(),
             lambda: (root / "sub/c.md").write_text("# C\n", encoding="utf-8"),
             lambda: (root / "memories/new").mkdir() or (root / "memories/new/1.json").write_text("{}", encoding="utf-8"),
             lambda: (root / "memories/chat/1.json").unlink()]
    for edit in edits:
        before = memo.listing.folders["memories/other"]
        edit()
        assert _as_recorded(load(root, memo=memo)) == fp.recorded(root)
        assert memo.listing.folders["memories/other"] is before
