"""Binary search in lists kept newest first (the timeline, a source's records), so a watch rebuild
moves an entry in place instead of sorting the list again."""
from __future__ import annotations

from bisect import bisect_left


def prefix(entries: list, newer) -> int:
    """How many of `entries` (newest first) from the head on `newer(entry)` holds for."""
    return bisect_left(entries, True, key=lambda entry: not newer(entry))


def item_at(items: list[dict], it: dict) -> int:
    """Where the listed item `it` is or goes among `items` of one brain in kernel.listing.newest_first
    order: newest `placed` first, undated last, ties by ref."""
    placed, ref = it.get("placed") or "", it["ref"]
    return prefix(items, lambda e: (e.get("placed") or "") > placed or (e.get("placed") or "") == placed and e["ref"] < ref)
