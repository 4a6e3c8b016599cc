"""Source coverage in search replies (docs/replies.md#the-reply). Statuses were computed at build time
(views/coverage.py, stored in meta.json); this only chooses which to show. JS twin:
site/engine/coverage.js.

- Folder, note and tag scopes search notes alone: no `sources`, no `sources_omitted`.
- The searched sources are every source of the selected brains, or the one source of a
  `memories/SOURCE[/…]` scope.
- Listed: every searched source when the reply has no items or the scope is `memories` or
  a source; otherwise the sources of returned records plus every searched source needing
  attention. `sources_omitted` counts the searched sources not listed.
- Order: brain, then source name (code-point order).
"""
from __future__ import annotations

from .scopes import NOTE_KINDS, RECORD_KINDS, Scope
from .store import BrainStore


def coverage_fields(scope: Scope, stores: dict[str, BrainStore], items: list[dict]) -> dict:
    if scope.kind in NOTE_KINDS:
        return {}
    searched = []
    for brain in sorted(stores):
        if scope.brain is not None and brain != scope.brain:
            continue
        for name in stores[brain].sources():
            if scope.kind in ("source", "undated") and name != scope.value:
                continue
            searched.append((brain, name))
    everything = not items or scope.kind in RECORD_KINDS
    returned = {(i["brain"], i["source"]) for i in items if i["kind"] == "record"}
    listed = []
    for brain, name in searched:
        cov = stores[brain].meta["sources"][name]
        if everything or (brain, name) in returned or cov.get("needs_attention"):
            listed.append(cov)
    return {"sources": listed, "sources_omitted": len(searched) - len(listed)}
