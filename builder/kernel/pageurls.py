"""Where a ref's page lives: its ref as a person reads it (docs/site.md, "Page URLs").

This module has a JavaScript twin, site/engine/pageurls.js; tests/query/test_pageurls.py keeps
the two equal. Change both or neither.

A page's path is `BRAIN/` + the ref's readable form + `.html`: a note without its `.md`, an
identity `type:name` as `type/name`, each "/"-separated segment NFC-normalized with its letters,
marks and digits of every script, `_` and `.` kept as they are and case kept; `&`, `%`, `+`, `@`
spelt as words; every other character (spaces, `? # : ~` …) a `-`, runs of `-` one, none at
either end, no leading `.`. A segment over 150 UTF-8 bytes keeps its first 100 and appends `-` +
12 hex digits of its SHA-256. Two refs whose paths meet (compared NFC + case-folded) are settled
by the build (brain/pagenames.py): the loser's path gets "-" + a suffix, which `moved` (shipped
in the site's manifest) holds by ref.

Reply files keep the escaped mapping of refs.ref_file: that is the program contract.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from types import MappingProxyType

from .refs import escape_segment, is_record_like

WORDS = MappingProxyType({"&": "and", "%": "percent", "+": "plus", "@": "at"})
LONG = 150      # UTF-8 bytes a segment may have before it is shortened
KEPT = 100      # … and what a shortened one keeps
DASHES = re.compile(r"-{2,}")


def _kept(ch: str) -> bool:
    return ch in "_." or unicodedata.category(ch)[0] in "LMN"


@lru_cache(maxsize=65536)
def page_segment(segment: str) -> str:
    """One ref segment as a path segment: `Linking notes & files` → `Linking-notes-and-files`."""
    text = "".join(ch if _kept(ch) else "-" + WORDS[ch] + "-" if ch in WORDS else "-"
                   for ch in unicodedata.normalize("NFC", segment))
    text = DASHES.sub("-", text).strip("-").lstrip(".-") or "-"
    if len(text.encode("utf-8")) > LONG:
        digest = hashlib.sha256(segment.encode("utf-8")).hexdigest()[:12]
        text = _cut(text, KEPT) + "-" + digest
    return text


def _cut(text: str, limit: int) -> str:
    """The longest prefix of `text` (whole code points) of at most `limit` UTF-8 bytes."""
    size = 0
    for i, ch in enumerate(text):
        size += len(ch.encode("utf-8"))
        if size > limit:
            return text[:i]
    return text


@lru_cache(maxsize=65536)   # a page's path is asked for each link to it
def page_stem(ref: str) -> str:
    """The readable form of `ref` ("" = home): `person:alice` → `person/alice`, `a/B c.md` → `a/B-c`."""
    ref = ref or "home"
    if is_record_like(ref):
        ref = ref.replace(":", "/", 1)
    if ref.endswith(".md"):
        ref = ref[: -len(".md")]
    return "/".join(page_segment(s) for s in ref.split("/"))


def page_file(brain: str, ref: str, moved: dict[str, str] | None = None) -> str:
    """Site path of `ref`'s page in `brain`; `moved` holds the suffix of each ref that lost a collision."""
    suffix = "-" + moved[ref] if moved and ref in moved else ""
    return escape_segment(brain) + "/" + page_stem(ref) + suffix + ".html"
