"""Where two versions of a long sequence differ, by identity: a watch rebuild's model keeps the
objects of what did not change (the parse, the link resolution, the index documents), so the
stretch that differs is found at C speed and only it is looked at."""
from __future__ import annotations

from itertools import compress, count
from operator import is_not


def differing(new, old) -> tuple[int, int, int]:
    """(head, new_end, old_end): new[head:new_end] replaced old[head:old_end], the stretch where
    the two sequences differ by identity (what lies before and after it is the same objects)."""
    least = min(len(new), len(old))
    head = next(compress(count(), map(is_not, new, old)), least)
    tail = min(next(compress(count(), map(is_not, reversed(new), reversed(old))), least), least - head)
    return head, len(new) - tail, len(old) - tail
