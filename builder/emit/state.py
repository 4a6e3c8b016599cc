"""The build state a build leaves for the next one in the same process (issue 15): `bf serve
--watch` keeps one BuildState across its rebuilds, so each rebuild recomputes only what changed
where a stage knows how. Every stage's result is, by construction and by the rebuild-equals-full
property test, what it computes from scratch; a fresh BuildState (each `bf build`) is a full build.

- parse: the parse cache (parsecache.py), kept in memory instead of read back from disk;
- index: per brain, the last search index (bm25/update.py: patched in place when refs are unchanged);
- paged: per brain, each read's reply and its pages (views.compute keeps the pages of an equal reply);
- pages: per brain, the HTML pages the last build rendered and what they were made of (reuse.py);
- vectors: per brain, each doc's fields and int8 vector bytes, and the sums of the brain's mean
  (vectors/rows.py: an embedding is a function of the fields);
- related: per brain, each note's vector and related notes (vectors/related.py) and their packs,
  and each index group's vector buckets and files by what they are made of (vectors/buckets.py);
- data: per brain, the compact data's serialized record and section replies (data.py);
- pieces: per brain, each note's text pieces and index documents by its note object, each
  record's document by its object and neighbourhood (views/documents.py);
- excerpts: per brain, the last link graph and each link source's object (views/graph.py relinks the changed);
- items: per brain, each listed item and what it was made of (views/lists.item);
- views: per brain, what else the views made, by family, and what of (views/memo.py, views/delta.Last);
- navigation: per brain, the explorer's tree and the graph's edges, and what of (navigation.py);
- store: per brain, the search store's entries and packs' JSON, and what of (search_index.py);
- spare: the site before the last, to stage the next build into, and the packs' JSON and bytes
  of the last build (writer.py).
"""
from __future__ import annotations

import gc
from contextlib import nullcontext
from collections.abc import Callable
from dataclasses import dataclass, field

from ..bm25.update import IndexState
from .data import DataMemo
from .reuse import PageMemo
from .spare import Spare


@dataclass
class BuildState:
    parse: object = None   # builder/parsecache.Cache: build.py (a shell) owns it; emitters never read it
    index: dict[str, IndexState] = field(default_factory=dict)
    vectors: dict[str, dict[str, bytes]] = field(default_factory=dict)
    related: dict[str, dict] = field(default_factory=dict)
    pages: dict[str, PageMemo] = field(default_factory=dict)
    paged: dict[str, dict] = field(default_factory=dict)
    data: dict[str, DataMemo] = field(default_factory=dict)
    spare: Spare = field(default_factory=Spare)
    pieces: dict[str, dict] = field(default_factory=dict)
    excerpts: dict[str, dict] = field(default_factory=dict)
    items: dict[str, dict] = field(default_factory=dict)
    views: dict[str, dict] = field(default_factory=dict)
    store: dict[str, dict] = field(default_factory=dict)
    navigation: dict[str, tuple] = field(default_factory=dict)
    unsaved: Callable[[], None] | None = None   # writes the last build's parse cache (build.py)
    search: object = None   # builder/searchworker.SearchWorker: it holds the search side's part of this state

    def settle(self) -> None:
        """Between builds: collect what the last build made (a build with a kept state leaves what
        was there before it frozen: build.build), then freeze what survives, so no collection
        walks it again. Not the frozen objects: a full collection after a watch rebuild found
        nothing to free (body, title, record and delete edits at 3k notes) and held every thread
        of bf serve, the open pages' reloads too, for 3-4 s at 10k notes (this: 0.02-0.2 s at 3k).
        The process that keeps the state calls this once its site is published (bf serve --watch).
        It also writes the parse cache the last build left (for a later process: this one keeps
        the parse in memory), off the path from a save to the page's reload (0.18 s at 10k notes)."""
        if self.unsaved is not None:
            self.unsaved, save = None, self.unsaved
            save()
        with self.search.settling() if self.search is not None else nullcontext():
            gc.collect()
            gc.freeze()

    def lose_search(self) -> None:
        """Drop the search side's part of this state (ending its worker, if any): the next build
        makes it afresh. Called once that part lives in a worker, or when the worker is lost."""
        if self.search is not None:
            self.search.close()
            self.search = None
        self.pieces, self.index, self.vectors, self.related, self.store = {}, {}, {}, {}, {}

    def index_of(self, brain: str) -> IndexState:
        return self.index.setdefault(brain, IndexState())
