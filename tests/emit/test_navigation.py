"""builder/emit/navigation.py: the explorer's folder tree, one file for the whole site."""
from __future__ import annotations

import json
from pathlib import Path

from builder.brain import load
from builder.build import build
from builder.emit.navigation import EXPLORER, folder_tree
from builder.packs import read

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"


def _notes(node: dict, path: str = "") -> list[tuple[str, str]]:
    out = [(path + name, title) for name, title in node["n"]]
    for name, sub in node["d"].items():
        out += _notes(sub, path + name + "/")
    return out


def test_the_tree_holds_every_note_once_with_its_title():
    brain = load(EXAMPLE)
    found = _notes(folder_tree(brain))
    assert sorted(ref for ref, _ in found) == sorted(brain.notes)
    for ref, title in found:
        stem = ref.rsplit("/", 1)[-1].removesuffix(".md")
        assert (title or stem) == brain.notes[ref].title and (title == "") == (brain.notes[ref].title == stem)


def test_one_file_per_site_holds_every_brain(make_brain, tmp_path):
    roots = [make_brain(tmp_path, {"a/b.md": "# B\n", "c.md": "c\n"}, name=n) for n in ("one", "two")]
    out = tmp_path / "site"
    build(roots, out, now="2026-12-02T12:00:00Z", pagefind=False, embeddings=False)
    data = json.loads(read(out, EXPLORER, packed=True))
    assert set(data["brains"]) == {"one", "two"}
    assert data["brains"]["one"] == {"d": {"a": {"d": {}, "n": [["b.md", "B"]]}}, "n": [["c.md", ""]]}
    assert [p.relative_to(out).as_posix() for p in out.rglob("explorer.json*")] == ["_bf/explorer.json.gz"]
