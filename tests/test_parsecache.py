"""The parse cache is JSON that round-trips every Note exactly, and a warm rebuild equals a cold one."""
from __future__ import annotations

import json
import os
import re
import shutil
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import orjson
import pytest

from builder import parsecache
from builder.brain import LoadMemo, load
from hostile_brain import write_hostile_brain   # tests/support (on sys.path: tests/conftest.py)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "brain"

VALUES = [
    None, True, 0, -7, 2**63 - 1, 1.5, -0.0, float("inf"), "text \x00 é \U0001f600", [1, [2]], (1, (2, "x")),
    {"b": 1, "a": 2, 3: "int key", None: "none key", True: "bool", date(2026, 1, 2): "date key"},
    {"$": "tuple", "v": [1]},                                   # looks like a tag: still a dict
    date(2026, 12, 2), datetime(2026, 12, 2, 12, 0),
    datetime(2026, 12, 2, 12, 0, 5, 123, tzinfo=timezone.utc),
    datetime(2026, 3, 29, 2, 30, tzinfo=timezone(timedelta(hours=-3, minutes=-30))),
    datetime(2026, 10, 25, 2, 30, fold=1, tzinfo=ZoneInfo("Europe/Berlin")),
    b"\x00\xff", {1, "a"}, frozenset({2}),
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_values_round_trip_with_their_types(value):
    back = parsecache.decode(orjson.loads(orjson.dumps(parsecache.encode(value))))
    assert back == value and type(back) is type(value)
    if isinstance(value, dict):
        assert [(k, type(k)) for k in back] == [(k, type(k)) for k in value]
    if isinstance(value, datetime):
        assert (back.tzinfo, back.fold) == (value.tzinfo, value.fold)


def test_other_types_are_refused():
    with pytest.raises(parsecache.Unencodable):
        parsecache.encode(object())


@pytest.mark.parametrize("odd", [2**70, "a lone surrogate \udcff"])
def test_a_note_the_file_cannot_hold_is_left_out_and_the_others_kept(tmp_path, odd):
    path = tmp_path / "cache.jsonl"
    cache = parsecache.Cache()
    cache.notes["root"] = {("a.md",): ("a", 1), ("odd.md",): ("odd", odd)}
    parsecache.save(path, cache)
    assert parsecache.load(path).notes == {"root": {("a.md",): ("a", 1)}}


@pytest.mark.parametrize("which", ["example", "hostile"])
def test_every_note_round_trips(tmp_path, which):
    root = EXAMPLE if which == "example" else tmp_path / "hostile"
    if which == "hostile":
        write_hostile_brain(root, huge=False)
    notes = load(root).notes
    path = tmp_path / "cache.jsonl"
    cache = parsecache.Cache()
    cache.notes["root"] = {(ref, "sha", ("UTC", ("type",), False)): n for ref, n in notes.items()}
    parsecache.save(path, cache)
    back = {key[0]: note for key, note in parsecache.load(path).notes["root"].items()}
    assert len(back) == len(notes) > 3
    assert repr(back) == repr(notes)          # repr: types too, and NaN equals itself
    assert json.loads(path.read_text().splitlines()[0]) == parsecache.version()


def test_only_our_own_current_file_is_read(tmp_path):
    path = tmp_path / "cache.jsonl"
    cache = parsecache.Cache()
    cache.notes["root"] = {("a.md", "sha", ()): ("not", "a", "note")}
    parsecache.save(path, cache)
    assert parsecache.load(path).notes == cache.notes
    os.chmod(path, 0o666)
    assert parsecache.load(path).notes == {}                    # writable by others: ignored
    os.chmod(path, 0o600)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("[0]\n" + "".join(lines[1:]))
    assert parsecache.load(path).notes == {}                    # another bf's cache: ignored
    path.write_text("".join(lines) + '["root", {"$": "Note", "v": []}')
    assert parsecache.load(path).notes == {}                    # damaged: ignored as a whole
    path.write_bytes(b"\x80\x04\x95 a pickle")
    assert parsecache.load(path).notes == {}


def test_saving_reuses_the_lines_of_notes_not_parsed_again(tmp_path, monkeypatch):
    path = tmp_path / "cache.jsonl"
    cache = parsecache.Cache()
    cache.notes["root"] = {("a.md",): ("a",), ("b.md",): ("b",)}
    parsecache.save(path, cache)
    again = parsecache.load(path)
    again.notes["root"][("b.md",)] = ("b2",)                     # parsed this time
    encoded = []
    real = parsecache.encode
    monkeypatch.setattr(parsecache, "encode", lambda v: encoded.append(v) or real(v))
    parsecache.save(path, again)
    assert ("a",) not in encoded and ("b2",) in encoded
    assert parsecache.load(path).notes == {"root": {("a.md",): ("a",), ("b.md",): ("b2",)}}


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _built(tmp_path: Path, build_site) -> tuple[Path, Path]:
    """A copy of the example brain, built once into `site` (its cache beside)."""
    brain, site = tmp_path / "brain", tmp_path / "site"
    shutil.copytree(EXAMPLE, brain)
    build_site(brain, site)
    return brain, site


def test_a_warm_rebuild_equals_a_cold_build(tmp_path, build_site, monkeypatch):
    brain, site = _built(tmp_path, build_site)
    cache = tmp_path / ".bf-cache" / "site.parse.jsonl"
    assert len(cache.read_text().splitlines()) > 10
    (tmp_path / ".bf-cache" / "site.parse.pickle").write_bytes(b"old")
    cold = tree(site)
    import builder.brain as brain_pkg
    monkeypatch.setattr(brain_pkg, "parse_note", lambda ref, *a, **k: pytest.fail(f"parsed {ref} again"))
    build_site(brain, site)                                     # every note from the cache
    assert tree(site) == cold
    assert not (tmp_path / ".bf-cache" / "site.parse.pickle").exists()


def _reads(monkeypatch) -> list[str]:
    import builder.brain as brain_module
    seen, read = [], brain_module._read
    def counted(root, rel, *args):
        if not rel.endswith("_source.json"):       # a source's status file is read every time: one per source
            seen.append(rel)
        return read(root, rel, *args)
    monkeypatch.setattr(brain_module, "_read", counted)
    return seen


def _age(path: Path, seconds: int) -> None:
    then = path.stat().st_mtime - seconds
    os.utime(path, (then, then))


def test_a_process_that_loads_again_reads_only_files_whose_stat_moved(tmp_path, monkeypatch):
    brain = tmp_path / "brain"
    shutil.copytree(EXAMPLE, brain)
    for path in brain.rglob("*"):
        if path.is_file():
            _age(path, 60)                  # older than RACY_NS: remembered by their stat
    cache, memo = {}, LoadMemo()
    first = load(brain, cache=cache, memo=memo)
    reads = _reads(monkeypatch)
    again = load(brain, cache=cache, memo=memo)
    assert reads == [] and again.notes == first.notes
    assert all(again.notes[r] is first.notes[r] for r in first.notes)
    note = brain / "projects" / "new-website.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    edited = load(brain, cache=cache, memo=memo)
    assert reads == ["projects/new-website.md"]
    assert edited.notes["projects/new-website.md"].text.endswith("One more line.\n")
    reads.clear()
    load(brain, cache=cache, memo=memo)    # written just now: not trusted by its stat yet (racy)
    assert reads == ["projects/new-website.md"]


def test_links_resolved_again_by_a_process_equal_a_fresh_load(tmp_path):
    """Unchanged items keep their resolved links only while every name and path resolves alike."""
    brain = tmp_path / "brain"
    shutil.copytree(EXAMPLE, brain)
    cache, memo = {}, LoadMemo()
    load(brain, cache=cache, memo=memo)
    note = brain / "projects" / "new-website.md"
    text = note.read_text(encoding="utf-8")
    for edited in (text + "\nA line.\n", re.sub(r"^title: .*$", "title: Another name", text, count=1, flags=re.M),
                   text.replace("[[", "[[Nowhere|", 1)):
        note.write_text(edited, encoding="utf-8")
        again, fresh = load(brain, cache=cache, memo=memo), load(brain)
        assert (again.links, again.problems) == (fresh.links, fresh.problems)
    assert any(link.status == "broken" for link in again.links)


def _spoil(cache: Path, how: str) -> None:
    lines = cache.read_bytes().splitlines(keepends=True)
    if how == "another bf":
        stamp = orjson.loads(lines[0])
        stamp[1] = "0.0.1"
        cache.write_bytes(orjson.dumps(stamp) + b"\n" + b"".join(lines[1:]))
    elif how == "truncated":
        data = cache.read_bytes()
        cache.write_bytes(data[:len(data) // 2])
    else:
        cache.write_bytes(os.urandom(4096))


@pytest.mark.parametrize("how", ["another bf", "truncated", "garbage"])
def test_a_cache_bf_cannot_use_is_said_once_and_the_site_is_a_clean_builds(tmp_path, build_site, how):
    """docs/site.md#the-cache-folder: one line in the summary, every note parsed, the same site."""
    brain, site = _built(tmp_path, build_site)
    clean = build_site(brain, tmp_path / "clean")
    assert not [n for n in clean.notices if "parse cache" in n]   # no file there yet: nothing to say
    _spoil(tmp_path / ".bf-cache" / "site.parse.jsonl", how)
    report = build_site(brain, site)
    said = [n for n in report.notices if "parse cache" in n]
    assert len(said) == 1 and "site.parse.jsonl" in said[0] and "every note parsed again" in said[0]
    assert ("another bf (0.0.1" in said[0]) == (how == "another bf")
    assert tree(site) == tree(tmp_path / "clean")
    again = build_site(brain, site)                       # the cache saved afresh: nothing to say
    assert not [n for n in again.notices if "parse cache" in n]


def test_a_build_killed_while_saving_the_cache_leaves_the_one_it_started_from(tmp_path, build_site, monkeypatch):
    brain, site = _built(tmp_path, build_site)
    cache = tmp_path / ".bf-cache" / "site.parse.jsonl"
    before = cache.read_bytes()
    (brain / "notes-edited.md").write_text("# Edited\n\nA new note, so the cache is saved again.\n")

    real, calls = parsecache.version, []

    def killed():   # the first call reads the stamp; the second writes it, into the new file
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt   # as a signal would, once the new file is begun
        return real()
    monkeypatch.setattr(parsecache, "version", killed)
    with pytest.raises(BaseException):
        build_site(brain, site)
    monkeypatch.undo()
    # the new file was begun (by this process or the build's child that saves), the old one kept
    assert list(cache.parent.glob("site.parse.tmp*")) and cache.read_bytes() == before
    report = build_site(brain, site)
    assert not [n for n in report.notices if "parse cache" in n]
    clean = tmp_path / "clean"
    build_site(brain, clean)
    assert tree(site) == tree(clean)
