"""Canonical JSON: sorted keys, no spaces, UTF-8 unescaped — the bytes of every JSON file a build
writes (replies, packs, index shards, fingerprints), so equal values give equal files.

orjson, not the standard library: it writes the same bytes for what bf writes (str keys, ints,
strings, lists, floats from 1e-4 up) several times faster
(docs/decisions.md#canonical-json-is-written-by-orjson). What orjson refuses (an integer beyond 64 bits or a key
that is not a string, from a user's frontmatter) is written by `json` as before."""
from __future__ import annotations

import json

import orjson

_OPTIONS = orjson.OPT_SORT_KEYS


def canonical_json(obj) -> bytes:
    try:
        return orjson.dumps(obj, option=_OPTIONS)
    except TypeError:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def parsed(data: bytes):
    """The value of JSON `data`: orjson parses it several times faster than `json`, which takes
    what orjson refuses (an integer beyond 64 bits, a lone surrogate); ValueError when neither
    can."""
    try:
        return orjson.loads(data)
    except ValueError:
        return json.loads(data)


def canonical_text(obj) -> str:
    return canonical_json(obj).decode("utf-8")
