"""Excerpts and previews (SPEC §5, §6.3): cut on character boundaries, '…' marks each cut."""
from __future__ import annotations

import re

EXCERPT_CHARS = 320
TITLE_CHARS = 200
_MARKUP = [
    (re.compile(r"```.*?```", re.S), " "),
    (re.compile(r"!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]"), lambda m: m.group(2) or m.group(1)),
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),
    (re.compile(r"^\s{0,3}(#{1,6}\s+|>\s?(\[![\w-]+\][+-]?\s*)?|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+)", re.M), ""),
    (re.compile(r"<[^>]+>"), " "),
    (re.compile(r"(?:^|(?<=[ \t]))\^[A-Za-z0-9-]+[ \t]*$", re.M), ""),   # Obsidian block ids
    (re.compile(r"==|\$\$"), ""),                                       # ==highlight==, $$math$$
    (re.compile(r"[*_`~]{1,3}"), ""),
    (re.compile(r"\s+"), " "),
]


def plain(markdown_text: str) -> str:
    """Markdown → readable one-line text for excerpts (rough on purpose: it is a preview)."""
    text = markdown_text
    for pattern, repl in _MARKUP:
        text = pattern.sub(repl, text)
    return text.strip()


def cut(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def preview_title(title: str) -> str:
    return cut(title, TITLE_CHARS)


def join_pieces(pieces: list[str]) -> str:
    """A note's searchable text from its pieces (lead + sections): the build and the query join alike."""
    return " ".join(p for p in pieces if p)
