"""Port of lunr.js 2.3.9 ``lunr.tokenizer``.

lunr.js lower-cases with ``toLowerCase`` and splits on ``/[\\s\\-]+/`` where
``\\s`` is the ECMAScript white-space set (not Python's, which adds
\\x1c-\\x1f and \\x85 and lacks U+FEFF). Positions are reported like lunr.js:
offsets into the lower-cased string, counted in UTF-16 code units.
"""
from __future__ import annotations

import re

# ECMAScript \s: WhiteSpace (TAB VT FF SP NBSP ZWNBSP + Zs) and LineTerminator.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
SEPARATOR_RE = re.compile("[" + JS_WHITESPACE + "\\-]+")
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
# Where Python's str.isspace() and ECMAScript \s disagree.
_NOT_BOTH_SPACE = re.compile("[\x1c-\x1f\x85\ufeff]")


def split(text: str) -> list[str]:
    """Lower-cased tokens of *text*, without positions (the fast path)."""
    s = text.lower()
    if _NOT_BOTH_SPACE.search(s) is None:  # str.split is ~2x faster
        return s.replace("-", " ").split()
    return [t for t in SEPARATOR_RE.split(s) if t]


def tokenize(text: str) -> list[tuple[str, int, int]]:
    """``(token, start, length)`` triples, positions in UTF-16 code units of
    the lower-cased text, exactly as lunr.js's ``metadata.position``."""
    s = text.lower()
    out = []
    has_astral = _ASTRAL_RE.search(s) is not None
    start = 0
    for m in SEPARATOR_RE.finditer(s):
        if m.start() > start:
            out.append((s[start:m.start()], start, m.start() - start))
        start = m.end()
    if start < len(s):
        out.append((s[start:], start, len(s) - start))
    if not has_astral:
        return out
    return [(t, _u16len(s[:a]), _u16len(t)) for t, a, _ in out]


def _u16len(s: str) -> int:
    return len(s) + len(_ASTRAL_RE.findall(s))
