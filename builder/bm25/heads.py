"""The first positions of a long posting's orders without sorting all of it, read as lists: a
search walks the first hits of a common word (postings.py; the browser bounds its walk by the
l/ chunks instead, blocks.js). Each order is exact: its head is a prefix of the whole order,
and reading past the head sorts the whole.
"""
from __future__ import annotations

from collections.abc import Sequence

FIRST = 256   # positions a head sorts: a walk takes 50 items (spread.POOL), a few more past sections


class Listed(Sequence):
    """A numpy array read as a list of Python numbers, converted a head at a time: converting
    all of a common word's ranking cost more than the walk that reads its first hits.
    Iterating it converts it all. With `whole`, `array` is a head of the values (`size` in
    all), and whole() gives them all when a read goes past it."""
    __slots__ = ("_array", "head", "_size", "_whole")

    def __init__(self, array, size: int | None = None, whole=None):
        self._array, self.head = array, []
        self._size, self._whole = array.size if size is None else size, whole

    @property
    def array(self):
        if self._whole is not None:
            self._array, self._whole = self._whole(), None
        return self._array

    def __len__(self):
        return self._size

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self.array[i].tolist()
        if not 0 <= i < len(self.head):
            i = range(self._size)[i]   # IndexError past the end, negatives count back
            values = self._array if i < self._array.size else self.array
            if i >= len(self.head) + 64:   # far past the head (a bisection, a position): itself
                return values.item(i)
            if i >= len(self.head):
                self.head = values[:2 * i + 64].tolist()
        return self.head[i]

    def __iter__(self):
        if len(self.head) < self._size:
            self.head = self.array.tolist()
        return iter(self.head)


def first(np, ws, tier, k: int):
    """Positions of the first k or more (the ties at the cut) in (tier, weight descending,
    position) order, in that order: per tier, those at or above the weight of the tier's last
    one needed (np.partition), sorted."""
    out, taken = [], 0
    for t in range(int(tier.max()) + 1 if tier.size else 0):
        if taken >= k:
            break
        at = np.flatnonzero(tier == t)
        if at.size > k - taken:
            w = ws[at]
            at = at[w >= np.partition(w, at.size - (k - taken))[at.size - (k - taken)]]
        out.append(at[np.argsort(-ws[at], kind="stable")])
        taken += at.size
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def orders(np, ids, ws, tier, held=None) -> tuple[list, list]:
    """([order, its positions held], [their doc ids]) as Listed heads: positions in (tier,
    weight descending, position) order, then only those `held` marks (None: the first
    alone). The whole order is one stable sort by weight, then one by tier."""
    kept: list = []

    def whole():
        if not kept:
            by_weight = np.argsort(-ws, kind="stable")
            kept.append(by_weight[np.argsort(tier[by_weight], kind="stable")])
        return kept[0]
    head = first(np, ws, tier, FIRST) if ws.size > FIRST else whole()
    out = [(Listed(head, ws.size, whole), Listed(ids[head], ws.size, lambda: ids[whole()]))]
    if held is not None:
        size = int(np.count_nonzero(held))
        out.append((Listed(head[held[head]], size, lambda: whole()[held[whole()]]),
                    Listed(ids[head[held[head]]], size, lambda: ids[whole()[held[whole()]]])))
    return [o for o, _ in out], [d for _, d in out]
