"""Spread the first search items across conversations (docs/replies.md, "Matching and ranking").
JS twin: site/engine/spread.js.

Records of one conversation (views/conversations.py: a thread, else a source's day) often
answer a query alike, and would fill the first places while the conversation that holds the
answer drops out. So the first HEAD places are taken one at a time from the first POOL ranked
items: each time the item with the best (deprecated, tier) and then the highest
score × FACTOR^(items already taken from its conversation), earliest in rank order on ties.
The items not taken follow in rank order: past the first places, relevance alone decides
(spreading every place cost more answers than it found other conversations, measured on
real long conversations: docs/decisions.md). A note and its sections are one conversation of
their own (search keeps one item per note anyway). The first item never changes: nothing is
taken before it, so it is the best. The penalty is repeated multiplication, the same doubles
in both runtimes.
"""
from __future__ import annotations

from heapq import heapify, heappop, heappush
from typing import Callable

FACTOR = 0.5
HEAD = 5
POOL = 50   # the search maximum: a reply of any --limit is a prefix of the same order


def _penalised(score: float, taken: int) -> float:
    for _ in range(taken):
        score = score * FACTOR
    return score


def spread(ranked: list[tuple], conversation: Callable[[tuple], object], block: Callable[[tuple], tuple]) -> list[tuple]:
    """`ranked`: (entry, score, …) in rank order, so scores do not rise within a block;
    `conversation(cand)` a hashable key; `block(cand)` the part of the rank key before the score.
    Within a block a conversation's next item is its first one left (its best), and taking it
    changes no other conversation's value: a heap of one (-value, position) per conversation
    gives each step. (spread.js scans the conversations instead: the same choice.)"""
    pool, picked, taken = ranked[:POOL], [], {}
    blocks = [block(c) for c in pool]
    start = 0
    while start < len(pool) and len(picked) < HEAD:
        end = start
        while end < len(pool) and blocks[end] == blocks[start]:
            end += 1
        queues: dict[object, list[int]] = {}   # conversation -> its positions left, in rank order
        for i in range(start, end):
            queues.setdefault(conversation(pool[i]), []).append(i)
        heap = [(-_penalised(pool[q[0]][1], taken.get(conv, 0)), q[0], conv) for conv, q in queues.items()]
        heapify(heap)   # positions are unique: conversations are never compared
        while heap and len(picked) < HEAD:
            _, i, conv = heappop(heap)
            picked.append(i)
            taken[conv] = taken.get(conv, 0) + 1
            queue = queues[conv]
            queue.pop(0)
            if queue:
                heappush(heap, (-_penalised(pool[queue[0]][1], taken[conv]), queue[0], conv))
        start = end
    chosen = set(picked)
    return [pool[i] for i in picked] + [c for i, c in enumerate(pool) if i not in chosen] + list(ranked[POOL:])
