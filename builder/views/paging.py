"""Large exact reads (docs/replies.md#paging-large-reads): split a reply that would exceed 32 KiB as served into text pages.

Offsets count UTF-8 bytes of the text and fall on character boundaries. "As served" is the
largest form a reply goes out in: the CLI's default print (indent 2, sort_keys, UTF-8, plus its
newline). The stored file, `--dense` and MCP are compact JSON of the same value, hence smaller.
Pages are cut to BUDGET, which keeps RESERVE free for what a query adds (builder/query/read.py
`finish`), so a page stays within 32 KiB whatever is added and offsets never depend on it.
"""
from __future__ import annotations

import json
from itertools import accumulate
from types import MappingProxyType

from ..kernel.canon import canonical_json

PAGE_BYTES = 32 * 1024
FIRST_PAGE_WITH_OUTLINE = 4 * 1024
# Kept free on every page for what a query adds (builder/query/read.py finish), as served: the
# build instant `as_of` (stored pages leave it to the manifest: 35 bytes), the largest `stale` +
# `notice` (198 bytes, `changed` at 20 digits), MAX_ADDED_PROBLEMS = 2 problems naming unavailable
# brains (≤ 643 bytes each: a brain name names a folder, _bf/NAME/, so it has ≤ 255 bytes) and a
# `problems_omitted` count (≤ 44 bytes): 1563 bytes; test_paging checks the sum.
RESERVE = 2 * 1024
BUDGET = PAGE_BYTES - RESERVE
# A paged read's own problems (a note with hundreds of broken links) keep the head that fits here:
# every page carries them.
PROBLEMS_ROOM = 2048
# Lists a first page may shorten when its fields alone would fill it, and the text room kept.
TRIMMABLE = ("backlinks", "links", "claims", "tasks", "outline")
TEXT_ROOM = 1024
# Fields a later page keeps besides its slice and the paging fields (docs/replies.md#paging-large-reads).
LATER_FIELDS = ("page", "brain", "ref", "uri", "sha256", "modified", "notice", "problems", "problems_omitted",
                "stale")


def size(reply: dict) -> int:
    """Bytes of `reply` as served (see the module docstring): its compact JSON, made by the C
    encoder, plus the newlines and indents that indent=2 adds — json.dumps(indent=2) itself runs
    the pure-Python encoder, far slower over every reply of a build."""
    compact = json.dumps(reply, sort_keys=True, separators=(",", ": "), ensure_ascii=False)
    return len(compact.encode("utf-8")) + _layout(reply, 0) + 1


def within(reply: dict, budget: int) -> bool:
    """size(reply) <= budget, deciding most replies from an upper bound made by C code only.
    The canonical JSON (orjson, no spaces) plus, outside strings, a space per key and a byte per
    float (`json` writes 1e-07 where orjson writes 1e-7) is at least the compact form size()
    measures, and takes a fifth of `json`'s time. indent=2 then puts each element
    and each closing bracket on a line of its own, indented at most 2 × the nesting depth, and
    there are at most (commas + containers) elements and as many closing brackets as containers.
    The counts are first taken over the whole JSON, strings and all (each at least its count
    outside them, and the depth at most the brackets): most replies fit by that bound without
    taking their strings out. Only a reply neither bound places is measured exactly."""
    compact = canonical_json(reply)
    brackets = compact.count(b"[") + compact.count(b"{")
    if _bound(compact, compact, brackets, brackets) <= budget:
        return True
    # outside strings: escaped backslashes and quotes gone, the rest splits at the strings' quotes
    bare = b"".join(compact.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')[::2])
    brackets = bare.translate(None, _NOT_BRACKETS)
    containers = brackets.count(b"[") + brackets.count(b"{")
    depth = max(accumulate(map(_STEP, brackets)), default=0)
    return _bound(compact, bare, containers, depth) <= budget or size(reply) <= budget


def _bound(compact: bytes, counted: bytes, containers: int, depth: int) -> int:
    """within()'s bound over the bytes `counted` (the JSON outside its strings, or all of it)."""
    floats = counted.count(b".") + counted.count(b"e") + counted.count(b"E")   # "true" and "false" count too: a looser bound
    return len(compact) + counted.count(b":") + floats + (counted.count(b",") + 2 * containers) * (1 + 2 * depth) + 1


_NESTING = MappingProxyType({ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1})
_STEP = dict(_NESTING).__getitem__   # a private copy's lookup: map() calls it per bracket at a dict's speed
_NOT_BRACKETS = bytes(set(range(256)) - set(_NESTING))


def _layout(value, depth: int) -> int:
    """Bytes indent=2 adds to `value` at `depth`: a newline and indent before each element of a
    non-empty container and before its closing bracket."""
    if isinstance(value, dict):
        children = value.values()
    elif isinstance(value, (list, tuple)):
        children = value
    else:
        return 0
    if not children:
        return 0
    inner = 1 + 2 * (depth + 1)
    return sum(inner + _layout(v, depth + 1) for v in children) + 1 + 2 * depth


def _problems_within(problems: list, room: int) -> int:
    """How many problems, from the head of the list, fit in `room` served bytes."""
    n = 0
    while n < len(problems) and size({"problems": problems[:n + 1]}) <= room:
        n += 1
    return n


def _cap_problems(reply: dict) -> dict:
    problems = reply.get("problems") or []
    n = _problems_within(problems, PROBLEMS_ROOM)
    if n == len(problems):
        return reply
    return dict(reply, problems=problems[:n], problems_omitted=len(problems) - n)


def _escaped(text: bytes) -> int:
    """Served bytes of `text` inside a JSON string, without its quotes."""
    return len(json.dumps(text.decode("utf-8"), ensure_ascii=False).encode("utf-8")) - 2


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
        out[path[0]] = _with_text(reply.get(path[0], {}), path[1:], text)
    return out


def _fit(template: dict, path, data: bytes, start: int, cap: int | None) -> int:
    """End offset of the longest slice from `start` whose page stays within BUDGET."""
    empty = size(_with_text(dict(template, next_offset=None), path, ""))

    def fits(end: int) -> bool:      # the page's size is the empty page's plus the slice's, exactly
        digits = len(str(end)) - len("null") if end < len(data) else 0
        return empty + digits + _escaped(data[start:end]) <= BUDGET

    top = _boundary(data, start + min(cap or BUDGET, BUDGET))   # escaping never shortens a slice
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
    while size(_with_text(first, path, "")) > BUDGET - TEXT_ROOM:
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
    if within(whole, BUDGET):
        return [whole]
    reply = _cap_problems(reply)
    first_cap = FIRST_PAGE_WITH_OUTLINE if divided else None
    first = _trim_lists(dict(reply, offset=0, next_offset=None, total_bytes=len(data)), text_path)
    pages = [_page(first, text_path, data, 0, first_cap)]
    later = {k: reply[k] for k in LATER_FIELDS if k in reply}
    while (end := pages[-1]["next_offset"]) is not None:
        pages.append(_page(dict(later, offset=end, total_bytes=len(data)), text_path, data, end, None))
    return pages


def _page(template: dict, path: tuple[str, ...], data: bytes, start: int, cap: int | None) -> dict:
    """The page from `start` on: as much text as fits, at most `cap` bytes."""
    end = _fit(template, path, data, start, cap)
    page = _with_text(template, path, data[start:end].decode("utf-8"))
    return page | {"next_offset": end if end < len(data) else None}
