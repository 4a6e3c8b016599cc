"""The maths font a site ships (docs/site.md#maths): the glyphs its formulas use, cut from the
vendored Latin Modern Math (site/vendor/math/) at build time, so a page with maths fetches a few
kilobytes of font rather than the whole face before its first paint."""
from __future__ import annotations

import html
import io
import re
from functools import lru_cache
from pathlib import Path

MATH = re.compile(r"<math\b.*?</math>", re.S)
TAG = re.compile(r"<[^>]*>")


def _italic(ch: str) -> str:
    """The maths italic letter a browser draws for a one-letter <mi> (MathML Core's math-auto)."""
    if ch == "h":
        return "\u210e"
    if "a" <= ch <= "z":
        return chr(0x1D44E + ord(ch) - ord("a"))
    if "A" <= ch <= "Z":
        return chr(0x1D434 + ord(ch) - ord("A"))
    if "\u03b1" <= ch <= "\u03c9":
        return chr(0x1D6FC + ord(ch) - 0x3B1)
    if "\u0391" <= ch <= "\u03a9":
        return chr(0x1D6E2 + ord(ch) - 0x391)
    return ""


def math_text(body: str) -> str:
    """The characters of a page's MathML, with the italic letters they are drawn as."""
    chars = set()
    for found in MATH.finditer(body):
        chars |= set(html.unescape(TAG.sub("", found.group(0))))
    return "".join(sorted(chars | {_italic(c) for c in chars} - {"", "\n"}))


@lru_cache(maxsize=4)
def font_for(text: str, source: Path) -> bytes:
    """WOFF (zlib, which the standard library writes) of `source` cut to `text`'s characters, with
    the MATH table's larger and stretched forms of them; the same bytes for the same text."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.flavor = "woff"
    font = TTFont(source, recalcTimestamp=False)   # fontTools would stamp the save's time in `head`
    cutter = subset.Subsetter(options)
    cutter.populate(text=text)
    cutter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff"
    font.save(out)
    return out.getvalue()
