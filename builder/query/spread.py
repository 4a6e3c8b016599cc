"""Spread ranked search items across conversations (SPEC §5; issue 16). JS twin: site/engine/spread.js.

Records of one conversation (views/conversations.py: a thread, else a source's day) often
answer a query alike, and would fill the first places while the conversation that holds the
answer drops out. So the first POOL ranked items are re-taken one at a time: each time the
item with the best (deprecated, tier, more terms) and then the highest
score × FACTOR^(items already taken from its conversation), earliest in rank order on ties.
A note and its sections are one conversation of their own (search keeps one item per note
anyway). The first item never changes: nothing is taken before it, so it is the best.
Items past POOL keep their places. The penalty is repeated multiplication, the same doubles
in both runtimes.
"""
from __future__ import annotations

from typing import Callable

FACTOR = 0.3
POOL = 50   # the search maximum: a reply of any --limit is a prefix of the same order


def spread(ranked: list[tuple], conversation: Callable[[tuple], object], block: Callable[[tuple], tuple]) -> list[tuple]:
    """`ranked`: (entry, score, …) in rank order; `conversation(cand)` a hashable key;
    `block(cand)` the part of the rank key before the score."""
    rest, out, taken = list(ranked[:POOL]), [], {}
    keys = [conversation(c) for c in rest]
    while rest:
        best, best_key = 0, None
        for i, cand in enumerate(rest):
            value = cand[1]
            for _ in range(taken.get(keys[i], 0)):
                value = value * FACTOR
            key = (block(cand), -value)
            if best_key is None or key < best_key:
                best, best_key = i, key
        out.append(rest.pop(best))
        conv = keys.pop(best)
        taken[conv] = taken.get(conv, 0) + 1
    return out + list(ranked[POOL:])
