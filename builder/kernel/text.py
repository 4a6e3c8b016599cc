"""Excerpts and previews (docs/replies.md#the-reply, docs/limits.md#replies): cut on character boundaries, '…' marks each cut."""
from __future__ import annotations

import re

EXCERPT_CHARS = 320
TITLE_CHARS = 200
# (pattern, replacement, literals one of which any match holds: None for "always run"). A pass
# whose literals are absent from the text cannot match, so it is skipped (a C-speed `in`
# instead of a regex scan: plain() ran 800k regex passes in a 10k-note build).
_MARKUP = (
    (re.compile(r"```.*?```", re.S), " ", ("```",)),
    (re.compile(r"!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]"), lambda m: m.group(2) or m.group(1), ("[[",)),
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1", ("](",)),
    (re.compile(r"^\s{0,3}(#{1,6}\s+|>\s?(\[![\w-]+\][+-]?\s*)?|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+)", re.M), "", None),
    (re.compile(r"<[^>]+>"), " ", ("<",)),
    (re.compile(r"(?:^|(?<=[ \t]))\^[A-Za-z0-9-]+[ \t]*$", re.M), "", ("^",)),   # Obsidian block ids
    (re.compile(r"==|\$\$"), "", ("==", "$$")),                                  # ==highlight==, $$math$$
)
# Then emphasis marks (`[*_`~]{1,3}` → "": every one of them) go, and whitespace runs become one
# space (`\s+` → " ", then strip: `str.split` splits on the same characters) — in C, not a regex.
_MARKS = ("*", "_", "`", "~")


def plain(markdown_text: str) -> str:
    """Markdown → readable one-line text for excerpts (rough on purpose: it is a preview)."""
    text = markdown_text
    for pattern, repl, needs in _MARKUP:
        if needs is None or any(literal in text for literal in needs):
            text = pattern.sub(repl, text)
    for mark in _MARKS:
        text = text.replace(mark, "")
    return " ".join(text.split())


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
