"""The build state a build leaves for the next one in the same process (docs/serve.md#speed): `bf serve
--watch` keeps one BuildState across its rebuilds, so each rebuild recomputes only what changed
where a stage knows how. Every stage's result is, by construction and by the rebuild-equals-full
property test, what it computes from scratch; a fresh BuildState (each `bf build`) is a full build.

It is a map from each stage (emit/stage.py) to the memo that stage keeps, per brain: a stage
says what its memo is (`Stage.memo`) and the runner hands it back as `ctx.memo`. Besides the
stages', the two steps that compute what stages write keep theirs under the same map: a brain's
views (views/memo.ViewsMemo) and its index documents (views/documents.index_input). The rest is
the runner's: the parse cache (parsecache.py) kept in memory instead of read back from disk, the
spare site to stage the next build into (writer.py), and the search worker (searchworker.py).
"""
from __future__ import annotations

import gc
from contextlib import nullcontext
from collections.abc import Callable
from dataclasses import dataclass, field

from .spare import Spare


Key = tuple[str, str, str]   # (scope, stage, brain): a site stage's brain is ""


@dataclass
class BuildState:
    parse: object = None   # builder/parsecache.Cache: build.py (a shell) owns it; stages never read it
    spare: Spare = field(default_factory=Spare)
    memos: dict[Key, object] = field(default_factory=dict)
    unsaved: Callable[[], None] | None = None   # writes the last build's parse cache (build.py)
    search: object = None   # builder/searchworker.SearchWorker: it holds the index side's memos

    def memo(self, scope: str, stage: str, brain: str, make: Callable[[], object]) -> object:
        """The memo `stage` of `scope` keeps for `brain`, made by `make()` the first time."""
        memo = self.memos.get((scope, stage, brain))
        if memo is None:
            memo = self.memos[scope, stage, brain] = make()
        return memo

    def __getitem__(self, key: Key) -> object:
        return self.memos[key]

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
        """Drop the index side's memos (ending its worker, if any): the next build
        makes it afresh. Called once that part lives in a worker, or when the worker is lost."""
        if self.search is not None:
            self.search.close()
            self.search = None
        self.memos = {key: memo for key, memo in self.memos.items() if key[0] != "index"}
