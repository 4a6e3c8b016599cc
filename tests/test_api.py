"""The Python API (builder.open_site, README "## Python"): the README's example runs as
written, replies equal the CLI's, failures raise BfError with the CLI's code and exit, and
an open Site picks up a rebuild."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import builder
from builder import BfError, open_site
from builder.kernel.errors import BfError as ErrorsBfError

ROOT = Path(__file__).resolve().parents[1]


def readme_python_block() -> str:
    """The first ```python block of README.md's "## Python" section, verbatim."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Python\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, "README.md has no '## Python' section"
    block = re.search(r"^```python\n(.*?)^```", section.group(1), re.S | re.M)
    assert block, "README.md's '## Python' section has no ```python block"
    return block.group(1)


def test_readme_example_runs(example_site, tmp_path, monkeypatch, capsys):
    (tmp_path / "_site").symlink_to(example_site, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    exec(compile(readme_python_block(), "README.md:## Python", "exec"), {"__name__": "readme_example"})
    out = capsys.readouterr().out.splitlines()
    assert "New website" in out
    assert out[-1] == "not_found 3 not found: projects/no-such-note.md"
    assert "['lexical']" in out and "True" in out   # search(mode=…) and similar(…)


QUERIES = [
    (("search", "website", "--scope", "projects"), "search", ("website",), {"scope": "projects"}),
    (("search", "pricing", "--scope", "memories", "--limit", "5"), "search", ("pricing",),
     {"scope": "memories", "limit": 5}),
    (("search", "launch", "--type", "project", "--path", "projects/", "--brain", "brain"), "search", ("launch",),
     {"type": "project", "path": "projects/", "brains": ["brain"]}),
    (("read", "projects/new-website.md"), "read", ("projects/new-website.md",), {}),
    (("read", "projects/new-website.md#decision"), "read", ("projects/new-website.md#decision",), {}),
    (("read", "concepts/style-guide.md", "--offset", "1043"), "read", ("concepts/style-guide.md",), {"offset": 1043}),
    (("read", ""), "read", ("",), {}),
    (("read", "memories/brief"), "read", ("memories/brief",), {"brains": "brain"}),
    (("recall", "pricing", "--budget", "4000"), "recall", ("pricing",), {"budget": 4000}),
    (("recall", "pricing page", "--scope", "memories"), "recall", ("pricing page",), {"scope": "memories"}),
    (("types",), "types", (), {}),
    (("search", "pricing", "--mode", "lexical"), "search", ("pricing",), {"mode": "lexical"}),
    (("search", "launch plan", "--mode", "semantic", "--limit", "3"), "search", ("launch plan",),
     {"mode": "semantic", "limit": 3}),
    (("recall", "pricing", "--mode", "lexical", "--budget", "2000"), "recall", ("pricing",),
     {"mode": "lexical", "budget": 2000}),
    (("similar", "projects/new-website.md", "--limit", "3"), "similar", ("projects/new-website.md",), {"limit": 3}),
    (("similar", "projects/new-website.md", "--scope", "memories"), "similar", ("projects/new-website.md",),
     {"scope": "memories"}),
]


@pytest.mark.parametrize("cli,method,args,kwargs", QUERIES, ids=[" ".join(q[0])[:40] for q in QUERIES])
def test_replies_equal_the_cli(example_site, bf, cli, method, args, kwargs):
    code, out, err = bf(*cli, "--site", example_site)
    assert code == 0, err
    site = open_site(example_site)
    assert getattr(site, method)(*args, **kwargs) == json.loads(out)


@pytest.mark.parametrize("call,code,exit,cli", [
    (lambda s: s.read("projects/no-such-note.md"), "not_found", 3, ("read", "projects/no-such-note.md")),
    (lambda s: s.search("website", limit=0), "invalid_input", 2, ("search", "website", "--limit", "0")),
    (lambda s: s.search("x", scope="memories/breif"), "invalid_input", 2, ("search", "x", "--scope", "memories/breif")),
    (lambda s: s.recall("x", budget=0), "invalid_input", 2, ("recall", "x", "--budget", "0")),
    (lambda s: s.read("projects/new-website.md#"), "invalid_input", 2, ("read", "projects/new-website.md#")),
    (lambda s: s.types(brains=["nope"]), "invalid_input", 2, ("types", "--brain", "nope")),
    (lambda s: s.similar("projects/no-such-note.md"), "not_found", 3, ("similar", "projects/no-such-note.md")),
])
def test_errors_carry_the_cli_code_and_exit(example_site, bf, call, code, exit, cli):
    with pytest.raises(BfError) as info:
        call(open_site(example_site))
    assert (info.value.code, info.value.exit) == (code, exit)
    got, _, err = bf(*cli, "--site", example_site)
    assert got == exit and json.loads(err) == info.value.to_json()


def test_wrong_argument_types_raise_bferror(example_site):
    site = open_site(example_site)
    for call in (lambda: site.search(None), lambda: site.search("x", limit=2.5), lambda: site.read(5),
                 lambda: site.search("x", brains=5), lambda: site.types(brains=[1]),
                 lambda: site.search("x", mode="fuzzy"), lambda: site.recall("x", mode=1),
                 lambda: site.similar("projects/new-website.md", limit=0)):
        with pytest.raises(BfError) as info:
            call()
        assert info.value.code == "invalid_input" and info.value.exit == 2


def test_one_exception_type_is_exported():
    assert builder.BfError is ErrorsBfError
    assert builder.Site is builder.api.Site


def test_missing_site_is_index_missing(tmp_path, monkeypatch):
    with pytest.raises(BfError) as info:
        open_site(tmp_path / "nothing-here")
    assert (info.value.code, info.value.exit) == ("index_missing", 5)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BF_SITE", raising=False)
    with pytest.raises(BfError) as info:
        open_site()                       # ./_site
    assert info.value.code == "index_missing" and "_site" in info.value.message


def test_default_site_comes_from_bf_site(example_site, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BF_SITE", str(example_site))
    assert open_site().path == example_site


def test_relative_path_is_resolved_at_open(example_site, tmp_path, monkeypatch):
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "site").symlink_to(example_site, target_is_directory=True)
    monkeypatch.chdir(tmp_path / "here")
    site = open_site("site")
    assert site.path == tmp_path / "here" / "site" and site.path.is_absolute()
    monkeypatch.chdir(tmp_path)           # a later cwd change does not move the site
    assert site.read("projects/new-website.md")["title"] == "New website"


def test_a_rebuild_under_an_open_site_is_picked_up(make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, {"index.md": "# Home\n\nNothing yet.\n",
                                  "notes/first.md": "# First\n\nAn ordinary note.\n"})
    out = tmp_path / "site"
    build_site(brain, out)
    site = open_site(out)
    before = site.build_id
    assert site.search("zeppelin")["items"] == []
    assert "vehicle" not in {t["type"] for t in site.types()["types"]}
    with pytest.raises(BfError) as info:
        site.read("notes/zeppelin.md")
    assert info.value.code == "not_found"

    (brain / "notes" / "zeppelin.md").write_text("---\ntype: vehicle\n---\n# Zeppelin\n\nA zeppelin floats by.\n",
                                                 encoding="utf-8")
    build_site(brain, out)

    assert site.build_id != before
    assert [i["ref"] for i in site.search("zeppelin")["items"]] == ["notes/zeppelin.md"]
    assert site.read("notes/zeppelin.md")["title"] == "Zeppelin"
    assert {"type": "vehicle", "count": 1} in site.types()["types"]


def test_replies_are_the_callers_to_change(example_site):
    """Editing a reply (nested lists and dicts too) never changes a later reply."""
    site = open_site(example_site)
    calls = [lambda: site.search("pricing"), lambda: site.recall("pricing", budget=3000),
             lambda: site.read("projects/new-website.md"), lambda: site.read("memories/chat"), site.types]

    def spoil(value):
        if isinstance(value, dict):
            for key in list(value):
                spoil(value[key]) if isinstance(value[key], (dict, list)) else value.__setitem__(key, "spoilt")
        elif isinstance(value, list):
            for item in value:
                spoil(item)
            value.append("spoilt")

    for call in calls:
        first = call()
        kept = json.dumps(first, sort_keys=True)
        spoil(first)
        assert json.dumps(call(), sort_keys=True) == kept


def test_import_builder_stays_light():
    """`import builder` (every CLI start) must not load the query engine."""
    code = ("import sys, builder; bad = sorted(m for m in sys.modules if m.startswith('builder.') "
            "and m not in ('builder.kernel', 'builder.kernel.bundle', 'builder.kernel.errors', 'builder.kernel.formats')); print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"
