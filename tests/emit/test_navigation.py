"""builder/emit/navigation.py: the explorer's folder tree and the note graph, one file each for
the whole site."""
from __future__ import annotations

import json
from pathlib import Path

from builder.brain import load
from builder.build import build
from builder.emit.navigation import EXPLORER, GRAPH, edges, folder_tree, note_ids
from builder.kernel.packs import read

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"


def _titles(node: list, path: str = "") -> dict[str, str]:
    out = {path + name: title for name, title in node[2]}
    for sub in node[1]:
        out |= _titles(sub, path + sub[0] + "/")
    return out


def test_the_tree_holds_every_note_once_with_its_title():
    brain = load(EXAMPLE)
    tree = folder_tree(brain)
    titles = _titles(tree)
    assert sorted(note_ids(tree)) == sorted(titles) == sorted(brain.notes)
    for ref, title in titles.items():
        stem = ref.rsplit("/", 1)[-1].removesuffix(".md")
        assert (title or stem) == brain.notes[ref].title and (title == "") == (brain.notes[ref].title == stem)


def test_the_graph_holds_each_resolved_note_link_once():
    brain = load(EXAMPLE)
    ids = note_ids(folder_tree(brain))
    packed = edges(brain, {ref: i for i, ref in enumerate(ids)})
    relations, pairs = packed["relations"], packed["edges"]
    found, source = set(), 0
    for delta, code in zip(pairs[::2], pairs[1::2]):
        source += delta
        assert delta >= 0
        found.add((ids[source], ids[code // len(relations)], relations[code % len(relations)]))
    assert found == {(l.source, l.ref, l.relation) for l in brain.links
                     if l.status == "resolved" and l.source in brain.notes and l.ref in brain.notes and l.source != l.ref}
    assert len(found) * 2 == len(pairs) and relations[0] == "links"     # the commonest first


def test_one_file_each_per_site_holds_every_brain(make_brain, tmp_path):
    roots = [make_brain(tmp_path, {"a/b.md": "# B\n[[c]]\n", "c.md": "c\n", "a-z.md": "z\n"}, name=n) for n in ("one", "two")]
    out = tmp_path / "site"
    build(roots, out, now="2026-12-02T12:00:00Z", pagefind=False, embeddings=False)
    trees = json.loads(read(out, EXPLORER, packed=True))["brains"]
    assert set(trees) == {"one", "two"}
    assert trees["one"] == ["", [["a", [], [["b.md", "B"]]]], [["a-z.md", ""], ["c.md", ""]]]
    graph = json.loads(read(out, GRAPH, packed=True))["brains"]["one"]
    assert graph == {"relations": ["links"], "edges": [2, 1]}     # a/b.md (id 2) → c.md (id 1)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.json.gz") if "/" not in p.relative_to(out / "_bf").as_posix()) \
        == ["_bf/explorer.json.gz", "_bf/graph.json.gz"]
    assert (out / "graph.html").is_file()
