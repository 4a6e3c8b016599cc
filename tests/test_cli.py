"""The command line (docs/replies.md#errors-and-exit-codes): exit codes, JSON on stdout/stderr, no traceback."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-12-02T12:00:00Z"


def test_check_reports_problems_and_exits_1(make_brain, tmp_path, bf):
    root = make_brain(tmp_path, {"ok.md": "[[nowhere]]", "bad.md": b"\xff", "memories/s/r.json": "{"})
    os.mkfifo(root / "pipe.md")
    code, out, err = bf("check", root)
    assert code == 1 and err == ""
    reply = json.loads(out)
    assert reply["count"] == 4
    assert {(p["path"], p["kind"]) for p in reply["problems"]} == {
        ("ok.md", "broken_link"), ("bad.md", "encoding"), ("memories/s/r.json", "json"), ("pipe.md", "special_file")}
    assert all(set(p) == {"brain", "path", "kind", "message"} for p in reply["problems"])


def test_check_reports_a_missing_markdown_image_and_file_as_it_does_a_missing_embed(make_brain, tmp_path, bf):
    root = make_brain(tmp_path, {"a.md": "![[gone.png]]\n![diagram](attachments/missing.svg)\n"
                                         "[report](files/report.pdf) [kept](files/kept.pdf)\n",
                                 "files/kept.pdf": b"%PDF"})
    code, out, _ = bf("check", root)
    assert code == 1
    assert [(p["kind"], p["message"]) for p in json.loads(out)["problems"]] == [
        ("broken_link", "line 1: 'gone.png' resolves to nothing"),
        ("broken_link", "line 2: 'attachments/missing.svg' resolves to nothing"),
        ("broken_link", "line 3: 'files/report.pdf' resolves to nothing")]


def test_check_on_a_healthy_brain_exits_0(make_brain, tmp_path, bf):
    code, out, _ = bf("check", make_brain(tmp_path, {"a.md": "[[b]]", "b.md": "x"}))
    assert code == 0 and json.loads(out) == {"problems": [], "count": 0}


def test_build_with_problems_still_builds_the_healthy_rest(make_brain, tmp_path, bf):
    root = make_brain(tmp_path, {"ok.md": "fine", "bad.md": "---\ntitle: [\n---\n"})
    code, _, err = bf("build", root, "--out", tmp_path / "site", "--now", NOW, "--no-pagefind", "--quiet")
    assert code == 0
    assert (tmp_path / "site/brain/ok.md.json").is_file() and not (tmp_path / "site/brain/bad.md.json").exists()


@pytest.mark.parametrize("args, argument", [
    (["build", "{missing}"], "brain"),
    (["build", "{brain}", "--now", "tomorrow"], "--now"),
    (["build", "{brain}", "--now", "2026-12-02"], "--now"),
    (["build"], "brain"),   # no BRAIN and no brain.toml in the cwd
    (["check", "{missing}"], "brain"),
    (["frobnicate"], "flag"),
])
def test_bad_input_exits_2_with_json(make_brain, tmp_path, bf, args, argument):
    root = make_brain(tmp_path, {"a.md": "x"})
    args = [a.format(missing=tmp_path / "missing", brain=root) for a in args]
    code, out, err = bf(*args, "--out", tmp_path / "site") if args[0] == "build" and len(args) > 1 else bf(*args)
    assert code == 2 and out == ""
    reply = json.loads(err)
    assert reply["code"] == "invalid_input" and reply["error"].startswith(f"invalid input: {argument}")


def test_error_text_shows_a_brain_path_as_typed():
    from builder.cli import typed_paths, user_path
    from builder.scrub import scrub
    assert scrub(f"cannot read: {user_path('vault')}/a.md", typed_paths(["vault"])) == "cannot read: vault/a.md"


@pytest.mark.parametrize("args, message", [
    (["build", "nowhere/brain"], "invalid input: brain: not a folder: nowhere/brain"),
    (["build", "/nonexistent"], "invalid input: brain: not a folder: /nonexistent"),
    (["check", "nowhere/brain"], "invalid input: brain: not a folder: nowhere/brain"),
    (["new", "full"], "invalid input: dir: full already exists and is not an empty folder"),
    (["serve", "--watch", "nowhere/brain"], "invalid input: --watch: not a folder: nowhere/brain"),
    (["serve", "--out", "nosite"], "index missing for site 'nosite' — run bf build first"),
])
def test_commands_name_the_path_the_user_gave(tmp_path, bf, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "full").mkdir()
    (tmp_path / "full/x.md").write_text("x", encoding="utf-8")
    code, out, err = bf(*args)
    assert code == (5 if "nosite" in args else 2) and out == ""
    assert json.loads(err)["error"] == message


def test_bf_alone_prints_usage_and_exits_2(bf):
    code, out, err = bf()
    assert code == 2 and out == ""
    assert err.startswith("usage: bf") and "build" in err and "search" in err


def test_bf_help_prints_usage_and_exits_0(capsys):
    from builder.cli import main
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("usage: bf")


def test_every_flag_of_every_command_has_a_help_line():
    from builder.cli import parser
    commands = parser()._subparsers._group_actions[0].choices
    undescribed = [(name, action.dest) for name, sub in commands.items() for action in sub._actions
                   if not (action.help or "").strip()]
    assert undescribed == []


def test_real_process_exit_codes_and_no_traceback(make_brain, tmp_path):
    root = make_brain(tmp_path, {"brain.toml": "colour = 1\n", "a.md": "x"})
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-m", "builder", "build", str(root), "--out", str(tmp_path / "s")],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert json.loads(run.stderr)["error"].startswith("invalid input: brain.toml: unknown key 'colour' (valid keys: ")
    run = subprocess.run([sys.executable, "-m", "builder", "read", "home", "--site", str(tmp_path / "none")],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 5 and json.loads(run.stderr)["code"] == "index_missing"


@pytest.mark.parametrize("args, query", [
    (["search", "-x"], "-x"), (["search", "--limit", "3", "-x"], "-x"), (["search", "-x", "--limit=3"], "-x"),
    (["recall", "--budget", "500", "-leading dash"], "-leading dash"),
])
def test_a_query_starting_with_a_hyphen_is_text(example_site, bf, args, query):
    code, out, err = bf(*args, "--site", example_site)
    assert code == 0, err
    assert json.loads(out)["query"] == query


def test_a_ref_starting_with_a_hyphen_is_a_ref(example_site, bf):
    code, out, err = bf("read", "-nothing.md", "--site", example_site)
    assert code == 3
    assert json.loads(err) == {"error": "not found: -nothing.md", "code": "not_found"}


@pytest.mark.parametrize("ref, meant", [
    ("Launch Checklist", "actions/launch-checklist.md"),   # a title, in other case
    ("Jobs page", "projects/careers-page.md"),             # an alias
    ("launch checklist", "actions/launch-checklist.md"),   # close to a file name
    ("launch-checklist.md", "actions/launch-checklist.md"),   # the file name without its folder
])
def test_reading_a_notes_name_says_which_ref_to_use(example_site, bf, ref, meant):
    code, out, err = bf("read", ref, "--site", example_site)
    assert code == 3 and out == ""
    error = json.loads(err)
    assert error["code"] == "not_found" and error["error"].startswith(f"not found: {ref} (")
    assert f"did you mean {meant}?" in error["error"] and "bf search" in error["error"]


def test_reading_an_unknown_name_says_that_refs_are_paths(example_site, bf):
    code, _, err = bf("read", "Xyzzy", "--site", example_site)
    assert code == 3
    assert json.loads(err)["error"] == ("not found: Xyzzy (a note's ref is its path, like concepts/x.md; "
                                        "bf search finds notes by title, alias or words)")


def test_similar_of_the_empty_ref_is_invalid_and_read_of_it_is_home(example_site, bf):
    code, out, err = bf("similar", "", "--site", example_site)
    assert code == 2 and out == ""
    assert json.loads(err) == {"error": "invalid input: ref: empty: name a note, section or record (bf search finds one)",
                               "code": "invalid_input"}
    code, out, _ = bf("read", "", "--site", example_site)
    assert code == 0 and json.loads(out)["page"] == "home"


def test_an_internal_error_is_json_on_stderr_not_a_traceback(example_site, bf, monkeypatch):
    import builder.query.read as read_module

    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")
    monkeypatch.setattr(read_module, "read", broken)
    monkeypatch.delenv("BF_DEBUG", raising=False)
    code, out, err = bf("read", "home", "--site", example_site)
    assert code == 1 and out == ""
    assert json.loads(err) == {"error": "internal error: ZeroDivisionError: boom (set BF_DEBUG=1 for a traceback)",
                               "code": "internal"}


def test_a_pagefind_failure_is_a_failed_build_that_keeps_the_previous_site(tmp_path, bf, monkeypatch):
    import builder.emit.pagefind as pagefind
    brain = tmp_path / "b"
    brain.mkdir()
    (brain / "index.md").write_text("# Home\n\nHello.\n", encoding="utf-8")
    out = tmp_path / "site"
    assert bf("build", brain, "--out", out, "--quiet", "--no-pagefind")[0] == 0
    before = (out / "index.html").read_bytes()
    (brain / "index.md").write_text("# Home\n\nChanged.\n", encoding="utf-8")
    monkeypatch.setattr(pagefind, "pagefind_executable", lambda: "/bin/false")
    code, out_text, err = bf("build", brain, "--out", out, "--quiet")
    assert code == 1
    assert json.loads(err)["code"] == "build_failed" and "pagefind failed" in json.loads(err)["error"]
    assert (out / "index.html").read_bytes() == before


def test_the_example_brain_has_the_problems_its_docs_promise(bf):
    promised = re.search(r"\*\*(\d+) problems?\*\*", (ROOT / "examples/BRAIN-FEATURES.md").read_text(encoding="utf-8"))
    code, out, _ = bf("check", ROOT / "examples/brain")
    reply = json.loads(out)
    assert code == 1 and reply["count"] == int(promised.group(1)) == 2
    assert {(p["kind"], p["path"]) for p in reply["problems"]} == {
        ("broken_link", "projects/new-website.md"), ("page_collision", "actions/launch-checklist.md")}
