"""Site-wide navigation data, written once per site and fetched by bf.js only when a reader asks
(issue 19): never repeated inside pages, so a note page stays small at 10k notes (Quartz's
explorer, rendered into every page, made its builds 10× slower at 5,000 notes).

`_bf/explorer.json.gz` (a pack file, builder/packs.py) holds each brain's folder tree for the
explorer (site/explorer.js): {"brains": {NAME: FOLDER}}, where FOLDER is
{"d": {SUBFOLDER NAME: FOLDER}, "n": [[FILE NAME, TITLE], …]} with TITLE "" when it is the file
name without ".md" (most notes: the file is named after the title). Notes are in file-name order."""
from __future__ import annotations

import posixpath

from ..model import Brain
from .writer import Writer, canonical_json

EXPLORER = "_bf/explorer.json"


def folder_tree(brain: Brain) -> dict:
    """The brain's notes as nested folders (see the module's docstring)."""
    root: dict = {"d": {}, "n": []}
    for ref in sorted(brain.notes):
        folder, name = posixpath.split(ref)
        node = root
        for part in folder.split("/") if folder else []:
            node = node["d"].setdefault(part, {"d": {}, "n": []})
        title = brain.notes[ref].title
        node["n"].append([name, "" if title == name.removesuffix(".md") else title])
    return root


def emit_navigation(writer: Writer, brains: list[Brain]) -> None:
    writer.write_pack(EXPLORER, canonical_json({"brains": {b.name: folder_tree(b) for b in brains}}), "site")
