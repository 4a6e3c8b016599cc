"""Listing replies (docs/replies.md#listings): paging at 50 items and the period page shape.

Shared by views/ (which precomputes pages) and query/ (which computes the reads a finite
build cannot know: an empty calendar period, a relative `Nd` period, pages merged across
brains). Pure and free of builder.brain, so query/ may import it.
"""
from __future__ import annotations

from datetime import datetime

from . import refs
from .times import rfc3339

PAGE_ITEMS = 50


def paged(base: dict, items: list[dict], size: int = PAGE_ITEMS) -> list[dict]:
    """[page at offset 0, 50, 100 …]: `base` plus one slice of `items`, `total`, `offset`, `next_offset`.
    An empty list still gives one page."""
    pages = []
    for offset in range(0, max(len(items), 1), size):
        end = offset + size
        pages.append(dict(base, items=items[offset:end], total=len(items), offset=offset,
                          next_offset=end if end < len(items) else None))
    return pages


def page_at(pages: list[dict], offset: int, ref: str) -> dict:
    """The page starting at `offset`; a clear error for any other offset."""
    from .errors import InvalidInput
    for page in pages:
        if page["offset"] == offset:
            return page
    if len(pages) == 1:
        raise InvalidInput("offset", f"{ref} fits in one page: use offset 0")
    raise InvalidInput("offset", f"{offset} is not a page boundary of {ref}: use 0 or a next_offset")


def newest_first(entries: list[dict]) -> list[dict]:
    """Time-ordered lists: newest `placed` first, undated last; ties by brain, then ref."""
    out = sorted(entries, key=lambda e: (e.get("brain", ""), e["ref"]))
    out.sort(key=lambda e: e.get("placed") or "", reverse=True)   # stable: ties keep brain/ref order
    return out


def period_pages(brain: str, ref: str, kind: str, start: datetime, end: datetime,
                 entries: list[dict]) -> list[dict]:
    """Pages of one period (docs/replies.md#periods, docs/replies.md#listings). `entries` are timeline entries (only things that have
    happened by the build instant), newest first: {"placed", "source", "low", "item"}. An entry is in the
    period when start ≤ placed < end. Low-priority records count in `counts` but leave `items`."""
    lo, hi = rfc3339(start), rfc3339(end)
    inside = [e for e in entries if lo <= e["placed"] < hi]
    counts: dict[str, dict] = {}
    for e in inside:
        if e["source"] is None:
            continue
        entry = counts.setdefault(e["source"], {"source": e["source"], "count": 0})
        entry["count"] += 1
        if e["low"]:
            entry["priority"] = "low"
    base = {"page": "period", "brain": brain, "ref": ref, "uri": refs.uri(brain, ref), "title": ref,
            "period": kind, "start": lo, "end": hi, "counts": [counts[s] for s in sorted(counts)],
            "notes": sum(1 for e in inside if e["source"] is None)}
    return paged(base, [e["item"] for e in inside if not e["low"]])


def source_period_base(brain: str, ref: str, source: str, title: str, period: tuple) -> dict:
    """The header of `memories/SOURCE/PERIOD`, a source's records in a calendar period (views add
    `counts` and items; query/listings.py reads a period of the source with none)."""
    kind, start, end, _ = period
    return {"page": "period", "brain": brain, "ref": ref, "uri": refs.uri(brain, ref),
            "title": f"{title}: {ref.rsplit('/', 1)[1]}", "period": kind, "start": rfc3339(start),
            "end": rfc3339(end), "source": source, "notes": 0}
