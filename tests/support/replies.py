"""Every reply a built site stores, whatever holds it: reply files (notes, home) and every page of
every reply in the compact data (docs/data.md), and the section replies computed from their note's
reply (builder/query/sections.py), each with the build instant that answers add (stored pages
leave it to the manifest: builder/query/read.py finish). For tests that check all of them
(schemas, parity, golden)."""
from __future__ import annotations

import json
from pathlib import Path

from builder.kernel.listing import PAGE_ITEMS
from builder.query.data import BrainData
from builder.kernel import refs
from builder.query.site import Site


def _pages(data: BrainData, family: str, value) -> list[dict]:
    if isinstance(value, list):
        return value
    if "pages" in value:
        return value["pages"]
    return [data.listing_page(value, offset) for offset in range(0, max(len(value["ids"]), 1), PAGE_ITEMS)]


def stored_replies(site: Path) -> list[tuple[str, dict, dict]]:
    """(ref, read options, reply page) for each stored reply page, in a stable order."""
    site = Path(site)
    manifest = json.loads((site / "_bf" / "manifest.json").read_bytes())
    opened, pages = Site(site, manifest), []
    for path in sorted(site.rglob("*.json")):
        if path.relative_to(site).parts[0] not in ("_bf", "schemas", "pagefind"):
            pages.append(json.loads(path.read_bytes()))
    for brain in manifest["brains"]:
        data = opened.brain_data(brain["name"])
        if data.meta is None:      # a site of bundle version 1: every reply is a file
            continue
        for family, n in sorted(data.meta["packs"].items()):
            for i in range(n):
                pack = data.load_json(f"{data.root}/{family}/{i}.json", packed=True)
                for key in sorted(pack):
                    pages += _pages(data, family, pack[key])
    kept = {(p.get("brain"), p["ref"]) for p in pages if p.get("page") == "section"}
    for note in [p for p in pages if p.get("page") == "note" and p.get("next_offset") is None and not p.get("offset")]:
        for head in note.get("outline") or []:
            brain, ref = refs.split_address(head["ref"])
            if (brain, ref) not in kept:
                pages.append(opened.reply(brain, ref))
    out = []
    for page in pages:
        options = {"rel": page["relation"]} if page.get("page") == "relation" else {}
        if page.get("offset"):
            options["offset"] = page["offset"]
        out.append((page["ref"], options, page | {"as_of": manifest["as_of"]}))
    return out
