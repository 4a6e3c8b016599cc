"""Large exact reads (SPEC §6.2): split a reply whose JSON exceeds 32 KiB into text pages.

Offsets count UTF-8 bytes of the text and fall on character boundaries. A page is sized
by its compact JSON serialization (sort_keys, separators=(',', ':'), ensure_ascii=False),
the form the site stores.
"""
from __future__ import annotations

import json

PAGE_BYTES = 32 * 1024
FIRST_PAGE_WITH_OUTLINE = 4 * 1024
# Fields a later page keeps besides its slice and the paging fields (SPEC §6.2).
# Lists a first page may shorten when its fields alone would fill it, and the text room kept.
TRIMMABLE = ("backlinks", "links", "claims", "tasks", "outline")
TEXT_ROOM = 1024
LATER_FIELDS = ("page", "brain", "ref", "uri", "sha256", "modified", "notice", "problems", "stale", "as_of")


def size(reply: dict) -> int:
    return len(json.dumps(reply, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _boundary(data: bytes, pos: int) -> int:
    """The largest character boundary ≤ pos."""
    pos = min(pos, len(data))
    while 0 < pos < len(data) and (data[pos] & 0xC0) == 0x80:
        pos -= 1
    return pos


def _get_text(reply: dict, path: tuple[str, ...]) -> str:
    for key in path[:-1]:
        reply = reply[key]
    return reply[path[-1]]


def _with_text(reply: dict, path: tuple[str, ...], text: str) -> dict:
    out = dict(reply)
    if len(path) == 1:
        out[path[0]] = text
    else:
        out[path[0]] = _with_text(reply[path[0]], path[1:], text)
    return out


def _fit(template: dict, path, data: bytes, start: int, cap: int | None) -> int:
    """End offset of the longest slice from `start` whose page stays within PAGE_BYTES."""
    def fits(end: int) -> bool:
        page = _with_text(template, path, data[start:end].decode("utf-8"))
        page["next_offset"] = end if end < len(data) else None
        return size(page) <= PAGE_BYTES

    top = _boundary(data, len(data) if cap is None else min(len(data), start + cap))
    if fits(top):
        return top
    lo, hi = start, top          # fits at lo (at worst an empty slice), not at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(_boundary(data, mid)):
            lo = mid
        else:
            hi = mid
    end = _boundary(data, lo)
    if end == start:
        raise ValueError("a page cannot hold even one character")
    return end


def _trim_lists(first: dict, path: tuple[str, ...]) -> dict:
    """A first page whose fields alone leave no room for text (a note with hundreds of
    backlinks) keeps the head of its longest lists and counts what it had in `truncated`;
    relation pages (`--rel`) list every backlink in full."""
    first, truncated = dict(first), {}
    while size(_with_text(first, path, "")) > PAGE_BYTES - TEXT_ROOM:
        lists = [k for k in TRIMMABLE if isinstance(first.get(k), list) and first[k]]
        if not lists:
            break
        key = max(lists, key=lambda k: size({k: first[k]}))
        truncated.setdefault(key, len(first[key]))
        first[key] = first[key][: len(first[key]) // 2]
    return dict(first, truncated=truncated) if truncated else first


def paginate(reply: dict, text_path: tuple[str, ...] = ("text",), divided: bool = False) -> list[dict]:
    """[first page, later pages …]. Each carries offset, next_offset, total_bytes."""
    data = _get_text(reply, text_path).encode("utf-8")
    whole = dict(reply, offset=0, next_offset=None, total_bytes=len(data))
    if size(whole) <= PAGE_BYTES:
        return [whole]
    first_cap = FIRST_PAGE_WITH_OUTLINE if divided else None
    whole = _trim_lists(whole, text_path)
    end = _fit(whole, text_path, data, 0, first_cap)
    pages = [_with_text(whole, text_path, data[:end].decode("utf-8")) | {"next_offset": end}]
    later = {k: reply[k] for k in LATER_FIELDS if k in reply}
    while end < len(data):
        template = dict(later, offset=end, next_offset=None, total_bytes=len(data))
        template = _with_text(template, text_path, "") if len(text_path) == 1 else dict(template, **{text_path[0]: {text_path[1]: ""}})
        start = end
        end = _fit(template, text_path, data, start, None)
        pages.append(_with_text(template, text_path, data[start:end].decode("utf-8")) | {"next_offset": end if end < len(data) else None})
    return pages
