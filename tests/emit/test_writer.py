"""Writer: reuse through the digest index, never trusting a stale entry; old sites removed after the
swap, or kept as a watch session's spare and staged into again."""
from __future__ import annotations

import hashlib
import json
import os
import posixpath
import time

from builder.emit.urls import relative
from builder.emit.spare import Spare, stage_spare
from builder.emit.writer import Writer


def build_once(out, cache, files: dict[str, bytes], spare: Spare | None = None) -> Writer:
    w = Writer(out, cache, spare)
    for path, data in files.items():
        w.write(path, data)
    w.commit()
    return w


def test_unchanged_files_are_hard_links_to_the_previous_site(tmp_path):
    out, cache = tmp_path / "site", tmp_path / ".bf-cache"
    build_once(out, cache, {"a/x.html": b"one", "b.json": b"two"})
    inode = (out / "a/x.html").stat().st_ino
    w = build_once(out, cache, {"a/x.html": b"one", "b.json": b"TWO"})
    assert w.reused == 1 and (out / "a/x.html").stat().st_ino == inode
    assert (out / "b.json").read_bytes() == b"TWO"


def test_a_linked_file_is_staged_without_a_new_file_and_reused_when_unchanged(tmp_path):
    out, cache, made = tmp_path / "site", tmp_path / ".bf-cache", tmp_path / "made"
    made.mkdir()
    (made / "p.pf").write_bytes(b"bundle")
    w = Writer(out, cache)
    w.link(made / "p.pf", "pagefind/p.pf")
    assert os.path.samefile(made / "p.pf", w.stage / "pagefind/p.pf")   # the same file: no copy made
    assert w.digests["pagefind/p.pf"] == hashlib.sha256(b"bundle").digest()
    w.commit()
    inode = (out / "pagefind/p.pf").stat().st_ino
    (made / "p.pf").unlink()
    (made / "p.pf").write_bytes(b"bundle")              # the next run's bytes, the same
    w = Writer(out, cache)
    w.link(made / "p.pf", "pagefind/p.pf")
    w.commit()
    assert w.reused == 1 and (out / "pagefind/p.pf").stat().st_ino == inode


def test_a_link_across_file_systems_is_a_copy(tmp_path, monkeypatch):
    (tmp_path / "made").write_bytes(b"bundle")
    w = Writer(tmp_path / "site", tmp_path / ".bf-cache")
    monkeypatch.setattr(os, "link", lambda *a: (_ for _ in ()).throw(OSError(18, "Invalid cross-device link")))
    w.link(tmp_path / "made", "p.pf")
    assert (w.stage / "p.pf").read_bytes() == b"bundle" and not os.path.samefile(tmp_path / "made", w.stage / "p.pf")


def test_the_index_is_json_and_read_only_when_it_is_ours(tmp_path, monkeypatch):
    out, cache = tmp_path / "site", tmp_path / ".bf-cache"
    build_once(out, cache, {"x.html": b"one"})
    index = json.loads((cache / "site.files.json").read_bytes())
    assert list(index["files"]) == ["x.html"] and index["files"]["x.html"][0] == hashlib.sha256(b"one").hexdigest()
    os.chmod(cache / "site.files.json", 0o666)             # writable by others: not trusted
    compared = []
    real = Writer._same
    monkeypatch.setattr(Writer, "_same", lambda self, *a: compared.append(dict(self.index)) or real(self, *a))
    build_once(out, cache, {"x.html": b"one"})
    assert compared == [{}]


def test_a_file_edited_since_the_index_was_saved_is_compared_by_its_bytes(tmp_path):
    out, cache = tmp_path / "site", tmp_path / ".bf-cache"
    build_once(out, cache, {"x.html": b"same size"})
    time.sleep(0.01)
    (out / "x.html").write_bytes(b"SAME SIZE")          # same size, new bytes: the index is stale
    w = build_once(out, cache, {"x.html": b"same size"})
    assert w.reused == 0 and (out / "x.html").read_bytes() == b"same size"


def test_the_old_site_leaves_no_folder_next_to_the_site(tmp_path):
    out, cache = tmp_path / "site", tmp_path / ".bf-cache"
    build_once(out, cache, {"x.html": b"1"})
    build_once(out, cache, {"x.html": b"2"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bf-cache", "site"]
    for _ in range(200):                                 # removed by a background rm
        if not list(cache.glob("trash-*")):
            break
        time.sleep(0.05)
    assert not list(cache.glob("trash-*"))


def files_of(root) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_watch_session_stages_into_the_site_before_the_last(tmp_path):
    """Each site equals what was written, folders and all, keeps an unchanged file (the same
    inode), and the spare (the site before) still holds its own bytes: nothing was written
    through a link into a committed site."""
    out, cache, spare = tmp_path / "site", tmp_path / ".bf-cache", Spare()
    sites = [{"a.html": b"one", "b.json": b"two", "c/d.html": b"three"},
             {"a.html": b"one", "b.json": b"TWO", "c/d.html": b"three"},
             {"a.html": b"one", "b.json": b"two", "e/f.html": b"four"},      # c/ is gone
             {"a.html": b"one", "b.json": b"2", "e/f.html": b"four", "c/d.html": b"3"}]
    inode = None
    for i, files in enumerate(sites):
        w = build_once(out, cache, files, spare)
        assert files_of(out) == files
        assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted({k.split("/")[0] for k in files if "/" in k})
        inode = inode or (out / "a.html").stat().st_ino
        assert (out / "a.html").stat().st_ino == inode
        if i:
            assert files_of(spare.folder) == sites[i - 1]
            assert i < 2 or w.recycled     # staged into the site before the last
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bf-cache", "site"]


def test_a_first_spare_linked_from_the_site_is_staged_into_and_leaves_the_site_alone(tmp_path):
    """stage_spare (bf serve --watch, after its first build): the next build keeps its unchanged
    files in place, replaces the changed one without writing into the live site's inode."""
    out, cache, spare = tmp_path / "site", tmp_path / ".bf-cache", Spare()
    build_once(out, cache, {"a.html": b"one", "c/b.json": b"two"}, spare)
    assert spare.folder is None and stage_spare(out, cache, spare)
    inode = (out / "c/b.json").stat().st_ino
    w = build_once(out, cache, {"a.html": b"one", "c/b.json": b"TWO", "d.html": b"new"}, spare)
    assert w.reused == 1 and files_of(out) == {"a.html": b"one", "c/b.json": b"TWO", "d.html": b"new"}
    assert files_of(spare.folder) == {"a.html": b"one", "c/b.json": b"two"}   # the site before, intact
    assert (spare.folder / "c/b.json").stat().st_ino == inode


def test_a_recycled_file_edited_in_the_live_site_is_written_again(tmp_path):
    out, cache, spare = tmp_path / "site", tmp_path / ".bf-cache", Spare()
    for _ in range(2):
        build_once(out, cache, {"x.html": b"same size"}, spare)
    time.sleep(0.01)
    with open(out / "x.html", "r+b") as fh:     # in place: the spare's file is the same inode
        fh.write(b"SAME SIZE")
    build_once(out, cache, {"x.html": b"same size"}, spare)
    assert (out / "x.html").read_bytes() == b"same size"


def test_a_recycled_file_where_a_folder_goes_and_back(tmp_path):
    out, cache, spare = tmp_path / "site", tmp_path / ".bf-cache", Spare()
    for files in ({"a": b"1"}, {"a": b"1"}, {"a/b": b"2"}, {"a/b": b"2"}, {"a": b"3"}, {"a": b"3"}):
        build_once(out, cache, files, spare)
        assert files_of(out) == files


def test_relative_urls_resolve_to_their_target():
    pages = ["index.html", "b/home.html", "b/a/x.html", "b/a/c/y.html", "b/ab/z.html", "c/q.html"]
    targets = pages + ["b/a/x.html#sec/1", "b/a/"]
    for page in pages:
        for target in targets:
            url = relative(page, target)
            path, _, frag = target.partition("#")
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), url.partition("#")[0]))
            assert resolved == posixpath.normpath(path), (page, target, url)
            assert url.partition("#")[2] == frag
            assert not url.startswith("../b/") or not page.startswith("b/"), (page, target, url)
