"""Refs, bf:// addresses and the ref → file mapping (docs/replies.md#refs-and-bf-addresses, docs/site.md#ref--file).

This module has a JavaScript twin, site/engine/refs.js; tests/query/test_refs_parity.py
keeps the two equal. Change both or neither.

File mapping (`ref_file`): every ref segment (split on "/") keeps the characters
[a-z0-9.-] except a leading "."; every other character becomes "~" followed by the
lower-case hex of its UTF-8 bytes ("A" → "~41", "#" → "~23", "é" → "~c3~a9").
Upper-case letters are escaped too, so two refs that differ only by case never map to
file names that a case-insensitive file system would merge. A segment longer than
120 characters after escaping keeps its first 80 and appends "~~" + 16 hex digits of
its SHA-256. Variants of a read append "~~" + each escaped part, which escaped text
can never contain: a later page at byte/item offset N adds ("o" + N); a relation page
adds ("r", RELATION) before any offset: `ref_file("brain", "x.md", "r", "cites", "o50")`.

Data mapping (`pack_of`, docs/data.md): a reply kept in the site's compact data is found by its
key — its `ref_file` path without ".json" — in pack `fnv1a32(utf8(key)) mod n` of its family.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache

PERIOD_LIKE = re.compile(r"^(\d{4}(-\d{1,2}(-\d{1,2})?|-W\d{1,2})?|\d+d|today|yesterday)$")
BF_SCHEME = "bf://"


SAFE_SEGMENT = re.compile(r"[a-z0-9\-][a-z0-9.\-]*")
UNSAFE = re.compile(r"^\.|[^a-z0-9.\-]+")   # a leading dot, and runs of other characters than [a-z0-9.-]


def _bytes(m: re.Match) -> str:
    return "~" + m[0].encode("utf-8").hex("~")   # "~xx" per byte, in C (a CJK heading has dozens)


@lru_cache(maxsize=65536)
def escape_segment(segment: str) -> str:
    """Each character other than [a-z0-9.-] (and a leading dot) as its UTF-8 bytes, "~xx" each; a
    result over 120 characters shortened with a hash. Every record's id holds one (its ":")."""
    if SAFE_SEGMENT.fullmatch(segment) and len(segment) <= 120:
        return segment
    text = UNSAFE.sub(_bytes, segment)
    if len(text) > 120:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        text = f"{text[:80]}~~{digest}"
    return text


ESCAPED = re.compile(r"(?:[a-z0-9.\-]|(?:~[0-9a-f]{2})+)*")


def unescape_segment(text: str) -> str | None:
    """The segment `escape_segment` turned into `text`, or None when no segment gives `text`
    (a shortened segment, "…~~" + hash, has lost its name; a variant part "~~o50" is not a segment).
    Runs of "~XX" are UTF-8 bytes: `unescape_segment("chat~3awho~3f") == "chat:who?"`."""
    if not ESCAPED.fullmatch(text):
        return None
    try:
        segment = re.sub(r"(?:~[0-9a-f]{2})+",
                         lambda m: bytes.fromhex(m.group(0).replace("~", "")).decode("utf-8"), text)
    except UnicodeDecodeError:
        return None
    return segment if escape_segment(segment) == text else None


def record_anchor(ref: str) -> str:
    """The id of a record's element on the page showing it (its source's day page, or undated):
    its ref escaped as one segment, `chat:who?` → `chat~3awho~3f` — the stem its own page had."""
    return escape_segment(ref)


def ref_file(brain: str, ref: str, *variant: str) -> str:
    """Site-relative path of the JSON reply for `ref` in `brain` ("" ref = home)."""
    parts = [escape_segment(brain)] + [escape_segment(p) for p in (ref or "home").split("/")]
    return "/".join(parts) + "".join("~~" + escape_segment(v) for v in variant) + ".json"


def data_key(brain: str, ref: str, *variant: str) -> str:
    """The key of a reply in the compact data: its reply file path without ".json"."""
    return ref_file(brain, ref, *variant)[:-5]


def pack_of(key: str, packs: int) -> int:
    """The pack (0 ≤ n < packs) holding `key`: FNV-1a 32 of its UTF-8 bytes, modulo `packs`."""
    h = 0x811C9DC5
    for byte in key.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h % packs


def encode_uri_ref(ref: str) -> str:
    """Percent-encode what a bf:// address cannot hold as is: "%", and "#"/"?" of record ids."""
    text = ref.replace("%", "%25")
    if is_record_like(ref):
        text = text.replace("#", "%23")
    return text.replace("?", "%3F")


def uri(brain: str, ref: str) -> str:
    return f"{BF_SCHEME}{brain}/{encode_uri_ref(ref)}"


def decode_uri_ref(text: str) -> str:
    return re.sub(r"%(23|3F|3f|25)", lambda m: {"23": "#", "3f": "?", "25": "%"}[m.group(1).lower()], text)


def is_record_like(ref: str) -> bool:
    """`SOURCE:ID` or `type:name`: a colon before any slash."""
    colon = ref.find(":")
    slash = ref.find("/")
    return colon > 0 and (slash < 0 or colon < slash)


def split_address(text: str) -> tuple[str | None, str]:
    """("brain", "ref") for a bf:// address, (None, ref) otherwise."""
    if not text.startswith(BF_SCHEME):
        return None, text
    rest = text[len(BF_SCHEME):]
    brain, _, ref = rest.partition("/")
    return brain, decode_uri_ref(ref)


def normalize(ref: str) -> str:
    """Canonical form of a ref: trailing "/" dropped from listings, "home" for the empty ref."""
    ref = ref.strip()
    if ref in ("", "home", "/"):
        return "home"
    if ref.endswith("/") and not is_record_like(ref):
        ref = ref.rstrip("/")
    return ref


def is_period_like(ref: str) -> bool:
    return bool(PERIOD_LIKE.match(ref))
