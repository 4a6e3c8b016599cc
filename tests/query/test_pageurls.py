"""kernel/pageurls.py: a ref's page path as a person reads it; its JS twin (site/engine/pageurls.js)
gives the same path for every ref, moved or not."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from builder.kernel.pageurls import page_file, page_segment

ROOT = Path(__file__).resolve().parents[2]
CASES = {
    "en/Linking notes and files/Internal links.md": "b/en/Linking-notes-and-files/Internal-links.html",
    "projects/new-website.md": "b/projects/new-website.html",
    "concepts/café-menü.md": "b/concepts/café-menü.html",
    "concepts/cafe\u0301.md": "b/concepts/café.html",                 # NFC
    "person:alice": "b/person/alice.html",
    "repo:github.com/example/new-website": "b/repo/github.com/example/new-website.html",
    "Q&A? #1 100%.md": "b/Q-and-A-1-100-percent.html",
    "C++ notes.md": "b/C-plus-plus-notes.html",
    "日本語 ノート.md": "b/日本語-ノート.html",
    "مرحبا بالعالم.md": "b/مرحبا-بالعالم.html",
    ".obsidian-like/x~y.md": "b/obsidian-like/x-y.html",
    "2026-W49": "b/2026-W49.html",
    "tags/café": "b/tags/café.html",
    "": "b/home.html",
    "???.md": "b/-.html",
}


@pytest.mark.parametrize("ref,path", CASES.items())
def test_page_file(ref, path):
    assert page_file("b", ref) == path
    assert "~" not in path and " " not in path


def test_long_segment_is_cut_by_bytes():
    seg = page_segment("ü" * 120)
    assert len(seg.encode()) <= 100 + 13 and seg.startswith("ü" * 50)


def test_moved_wins():
    assert page_file("b", "projects", {"projects": "1a2b3c"}) == "b/projects-1a2b3c.html"


def test_js_twin_agrees(node):
    refs = list(CASES) + ["ü" * 120, "a" * 300 + ".md", "x/" + "中" * 80, "-lead/trail-.md", "a.md.md", "x:y:z"]
    moved = {"x:y:z": "0a1b2c", "a.md.md": "d3e4f5"}
    script = ("import('./site/engine/pageurls.js').then(({ pageFile }) => {"
              " const [refs, moved] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              " console.log(JSON.stringify(refs.map((r) => pageFile('b', r, moved)))) })")
    proc = subprocess.run([node, "-e", script], input=json.dumps([refs, moved]).encode(), capture_output=True,
                          cwd=ROOT, timeout=60, check=True)
    assert json.loads(proc.stdout) == [page_file("b", r, moved) for r in refs]
