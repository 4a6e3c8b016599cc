"""Site-wide navigation data, written once per site and fetched by bf.js only when a reader asks
(docs/site.md#reading-aids): never repeated inside pages, so a note page stays small at 10k notes (Quartz's
explorer, rendered into every page, made its builds 10× slower at 5,000 notes).

`_bf/explorer.json.gz` (a pack file, builder/kernel/packs.py): each brain's folder tree, for the
explorer (site/explorer.js) and the graph's labels: {"brains": {NAME: FOLDER}}, where
FOLDER = [NAME, [FOLDER, …], [[FILE NAME, TITLE], …]] ("" names the root) with TITLE "" when it
is the file name without ".md"; subfolders and notes in code-point order. A note's **node id**
is its position in the tree read depth first, a folder's notes before its subfolders
(`note_ids`; site/navdata.js reads it the same way), so no other file spells a note's path.

`_bf/graph.json.gz`: the resolved links between notes, for the graphs (site/graph.js):
{"brains": {NAME: {"relations": [RELATION, …], "edges": [Δsource, target × R + relation, …]}}}
— relations the commonest first (then by name), relation its index there; the edges as
pairs sorted by (source, target, relation), the source as the difference from the previous
pair's (0 mostly), R the number of relations. At 10k notes this is a few hundred KB before
gzip (docs/site.md, Reading aids, has the figures)."""
from __future__ import annotations

import posixpath
from collections import Counter

from ..kernel.canon import canonical_json
from ..kernel.model import Brain
from .html import render
from .site_pages import _context
from .stage import SiteContext, Stage, paths
from .writer import Writer

EXPLORER = "_bf/explorer.json"
GRAPH = "_bf/graph.json"


def folder_tree(brain: Brain) -> list:
    """The brain's notes as nested folders (see the module's docstring)."""
    folders: dict[str, list] = {"": ["", [], []]}
    for ref in sorted(brain.notes):
        folder, name = posixpath.split(ref)
        node = folders[""]
        path = ""
        for part in folder.split("/") if folder else []:
            path += part + "/"
            if path not in folders:
                folders[path] = [part, [], []]
                node[1].append(folders[path])
            node = folders[path]
        title = brain.notes[ref].title
        node[2].append([name, "" if title == name.removesuffix(".md") else title])
    for node in folders.values():   # "a/b.md" sorts before "a-c/…" but folder "a" after "a-c"
        node[1].sort(key=lambda sub: sub[0])
    return folders[""]


def note_ids(tree: list, path: str = "") -> list[str]:
    """Note refs in node-id order: a folder's notes, then each subfolder's, depth first."""
    out = [path + name for name, _ in tree[2]]
    for sub in tree[1]:
        out += note_ids(sub, path + sub[0] + "/")
    return out


def edges(brain: Brain, ids: dict[str, int]) -> dict:
    """The brain's resolved note-to-note links, packed (see the module's docstring)."""
    found = {(ids[l.source], ids[l.ref], l.relation) for l in brain.links
             if l.status == "resolved" and l.source in ids and l.ref in ids and l.source != l.ref}
    count = Counter(r for _, _, r in found)
    relations = sorted(count, key=lambda r: (-count[r], r))   # the commonest drawn plain (graph.js)
    code = {r: i for i, r in enumerate(relations)}
    packed, previous = [], 0
    for source, target, relation in sorted(found, key=lambda e: (e[0], e[1], code[e[2]])):
        packed += [source - previous, target * len(relations) + code[relation]]
        previous = source
    return {"relations": relations, "edges": packed}


def emit_navigation(writer: Writer, brains: list[Brain], as_of: str, memo: dict | None = None) -> None:
    """The two files, and `graph.html`: the page the whole graph is drawn on. `memo`: what the last
    build in this process made (emit/state.py), left holding this build's."""
    memo = {} if memo is None else memo
    made = {b.name: _navigation(b, memo.get(b.name)) for b in brains}
    trees, graphs = tuple(m[3] for m in made.values()), tuple(m[4] for m in made.values())
    last = memo.get("", ((), (), b"", b""))
    explorer = last[2] if _same(trees, last[0]) else canonical_json({"brains": dict(zip(made, trees))})
    graph = last[3] if _same(graphs, last[1]) else canonical_json({"brains": dict(zip(made, graphs))})
    memo.clear()
    memo.update(made)
    memo[""] = (trees, graphs, explorer, graph)
    writer.write_pack(EXPLORER, explorer, "site")
    writer.write_pack(GRAPH, graph, "site")
    writer.write("graph.html", render("graph.html", "graph.html", **_context(
        brains[0], as_of, "Graph", f"The notes of {brains[0].config.title} and the links between them")), "site")


def _same(new: tuple, old: tuple) -> bool:
    return len(new) == len(old) and all(a is b for a, b in zip(new, old))


def _navigation(brain: Brain, last: tuple | None) -> tuple:
    """(its notes, their refs, their links, tree, edges), kept from `last` while they are the
    same: the tree is a function of the notes, the edges of their refs and links (the parse
    keeps them; brain.links lists the notes' links first, then the records')."""
    notes, refs, links = tuple(brain.notes.values()), tuple(brain.notes), brain.links
    if last is not None and last[1] == refs:
        k = len(last[2])
        if links[:k] == last[2] and (k == len(links) or links[k].source not in brain.notes):
            return last if last[0] == notes else (notes, refs, last[2], folder_tree(brain), last[4])
    tree = folder_tree(brain)
    first = next((i for i, link in enumerate(links) if link.source not in brain.notes), len(links))
    return notes, refs, links[:first], tree, edges(brain, {ref: i for i, ref in enumerate(note_ids(tree))})


@paths
def _stage(ctx: SiteContext) -> None:
    emit_navigation(ctx.writer, list(ctx.brains), ctx.as_of, ctx.memo)


NAVIGATION = Stage("navigation", "site", "render", _stage, memo=dict, beside=True)
