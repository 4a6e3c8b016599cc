"""Canonical JSON: sorted keys, no spaces, UTF-8 unescaped — the bytes of every JSON file a build
writes (replies, packs, index shards, fingerprints), so equal values give equal files.

orjson, not the standard library: it writes the same bytes for the values bf writes (str keys,
ints, strings, lists, finite floats in plain notation) some 5–10 times faster, and a build at 10k
notes dumped ~6 s of JSON with `json` (docs/decisions.md). orjson refuses what json would
have written differently (int keys, integers beyond 64 bits), so a difference fails loudly."""
from __future__ import annotations

import orjson

_OPTIONS = orjson.OPT_SORT_KEYS


def canonical_json(obj) -> bytes:
    return orjson.dumps(obj, option=_OPTIONS)


def canonical_text(obj) -> str:
    return orjson.dumps(obj, option=_OPTIONS).decode("utf-8")
