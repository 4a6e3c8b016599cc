"""GitHub-style heading slugs (github-slugger): lower-case, punctuation dropped, spaces to '-', repeats numbered."""
from __future__ import annotations

import re
import unicodedata


def slugify(text: str) -> str:
    out = []
    for ch in text.lower():
        if ch == " ":
            out.append("-")
        elif ch in "-_" or ch.isalnum() or unicodedata.category(ch).startswith("M"):
            out.append(ch)
    return "".join(out)


class Slugger:
    """Hands out unique slugs in document order: 'a', 'a-1', 'a-2' …"""

    def __init__(self):
        self.seen: dict[str, int] = {}

    def slug(self, text: str) -> str:
        base = slugify(text)
        slug = base
        while slug in self.seen:
            self.seen[base] += 1
            slug = f"{base}-{self.seen[base]}"
        self.seen[slug] = 0
        return slug


TAG = re.compile(r"^#([^\s#!\"$%&'()*+,.:;<=>?@\[\\\]^`{|}~]+)")


def tag_at(text: str, pos: int) -> str | None:
    """The inline #tag starting at text[pos] ('#'), if any: needs a non-digit, must not follow a word char."""
    if pos > 0 and not text[pos - 1].isspace() and text[pos - 1] not in "([":
        return None
    m = TAG.match(text[pos:])
    if not m or m.group(1).isdigit() or m.group(1).strip("/") != m.group(1):
        return None
    return m.group(1)
