"""What a compute made, kept for the next compute in this process (bf serve --watch).

A value is made again only when its *stamp* differs from the one it was last made from. A stamp
holds everything the value is made of: model objects (a note, a record, a link: immutable, and
the same objects while their files are unchanged, kept by the parse and the link resolution),
strings and the item dicts of views/lists.item (the same objects while unchanged). Tuples
compare their elements by identity first, so an unchanged stamp costs a pass of pointer checks.
Values are shared with the last compute: never mutate one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from operator import is_not

SHARED = "shared"


def changed_keys(new: dict, old: dict, differ=is_not) -> set:
    """Keys added, removed, or whose values differ (`differ`: operator.is_not or operator.ne)."""
    if new is old:
        return set()
    return set(compress(new, map(differ, new.values(), map(old.get, new)))) | (old.keys() - new.keys())


ASKED = 8


def model_changes(new: dict, old: dict) -> set:
    """changed_keys(new, old) for two of the model's dicts (brain.notes, brain.records: never
    changed once made)."""
    return set() if new is old else changed_keys(new, old)


class Changes:
    """model_changes remembering its last few answers. Several steps of one build compare this
    build's dicts with the last build's, 60,000 keys each time: the same two dicts are compared
    once (an answer holds them, so no id is reused). Not for a dict its owner still changes: the
    answer would be the one before the change."""

    def __init__(self):
        self.asked: list[tuple] = []   # (new, old, keys), the newest first

    def __call__(self, new: dict, old: dict) -> set:
        if new is old:
            return set()
        for asked in self.asked:
            if asked[0] is new and asked[1] is old:
                return set(asked[2])
        keys = changed_keys(new, old)
        self.asked.insert(0, (new, old, frozenset(keys)))
        del self.asked[ASKED:]
        return keys


@dataclass
class ViewsMemo:
    """What a compute of a brain's views keeps for the next one in this process (bf serve
    --watch keeps one per brain, emit/state.py), each left holding this compute's."""
    graph: dict = field(default_factory=dict)      # the last link graph and what it was made of (graph.py)
    paged: dict = field(default_factory=dict)      # ref → (reply, its pages): an equal reply keeps its pages
    items: dict = field(default_factory=dict)      # each listed item and what it was made of (lists.item)
    kept: dict = field(default_factory=dict)       # what else it made, by family (Memos), and delta.Last
    changes: Changes = field(default_factory=Changes)


class Memo:
    def __init__(self, last: dict | None):
        """`last`: key → (stamp, value) of the last compute, left holding this one's by done()."""
        self.store = last
        self.last = last if last is not None else {}   # read only until done() replaces it
        self.made: dict = {}

    def __call__(self, key, stamp, make, force: bool = False):
        """`force`: make it again whatever the stamp (something it is made of changed that the
        stamp leaves out: the items of the refs it holds, views/delta.py)."""
        old = self.last.get(key)
        if force or old is None or old[0] != stamp:
            old = (stamp, make())
        self.made[key] = old
        return old[1]

    def keep(self, key):
        """Keep the last value of `key` without its stamp checked, and return it (None if there
        was none): the caller knows nothing it is made of changed (views/delta.py)."""
        old = self.last.get(key)
        if old is None:
            return None
        self.made[key] = old
        return old[1]

    def carry(self, stale) -> None:
        """Keep every last value but those of the `stale` keys, unchecked (views/delta.py)."""
        self.made = dict(self.last)
        for key in stale:
            self.made.pop(key, None)

    def done(self) -> None:
        if self.store is not None:
            self.store.clear()
            self.store.update(self.made)


class Memos:
    """One Memo per family of values, kept in `state` (family → its Memo's store) when given.
    `shared`: what every value may be made of besides its stamp (the brain's name, config,
    sources and identities); when it changed since the last compute, nothing is kept."""

    def __init__(self, state: dict | None, shared: tuple):
        if state is not None and state.get(SHARED) != shared:
            state.clear()
            state[SHARED] = shared
        self.state = state
        self.families: dict[str, Memo] = {}

    def __getitem__(self, family: str) -> Memo:
        memo = self.families.get(family)
        if memo is None:
            memo = self.families[family] = Memo(self.state.setdefault(family, {}) if self.state is not None else None)
        return memo

    def done(self) -> None:
        for memo in self.families.values():
            memo.done()
