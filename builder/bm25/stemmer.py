"""Port of lunr.js 2.3.9 ``lunr.stemmer`` (Martin Porter's JS stemmer).

lunr.py ships a different Porter implementation (key->kei, try->try, ...);
this one reproduces the lunr.js regexes step by step. JS regexes see UTF-16
code units, so astral characters are split into surrogate pairs before
stemming (``w.length < 3`` and the consonant patterns count them as two).
"""
from __future__ import annotations

import re
from types import MappingProxyType

_STEP2 = MappingProxyType({
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance",
    "izer": "ize", "bli": "ble", "alli": "al", "entli": "ent", "eli": "e",
    "ousli": "ous", "ization": "ize", "ation": "ate", "ator": "ate",
    "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous",
    "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log",
})
_STEP3 = MappingProxyType({
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic",
    "ful": "", "ness": "",
})

_c = "[^aeiou]"
_v = "[aeiouy]"
_C = _c + "[^aeiouy]*"
_V = _v + "[aeiou]*"
# JS "." excludes all four line terminators; "$" (no m flag) is the very end.
_DOT = "[^\n\r\u2028\u2029]"

_mgr0 = re.compile("^(" + _C + ")?" + _V + _C)
_meq1 = re.compile("^(" + _C + ")?" + _V + _C + "(" + _V + ")?\\Z")
_mgr1 = re.compile("^(" + _C + ")?" + _V + _C + _V + _C)
_s_v = re.compile("^(" + _C + ")?" + _v)

_re_1a = re.compile("^(" + _DOT + "+?)(ss|i)es\\Z")
_re2_1a = re.compile("^(" + _DOT + "+?)([^s])s\\Z")
_re_1b = re.compile("^(" + _DOT + "+?)eed\\Z")
_re2_1b = re.compile("^(" + _DOT + "+?)(ed|ing)\\Z")
_re_1b_2 = re.compile(_DOT + "\\Z")
_re2_1b_2 = re.compile("(at|bl|iz)\\Z")
_re3_1b_2 = re.compile("([^aeiouylsz])\\1\\Z")
_re4_1b_2 = re.compile("^" + _C + _v + "[^aeiouwxy]\\Z")
_re_1c = re.compile("^(" + _DOT + "+?[^aeiou])y\\Z")
_re_2 = re.compile("^(" + _DOT + "+?)(" + "|".join(
    "ational tional enci anci izer bli alli entli eli ousli ization ation "
    "ator alism iveness fulness ousness aliti iviti biliti logi".split()) + ")\\Z")
_re_3 = re.compile("^(" + _DOT + "+?)(icate|ative|alize|iciti|ical|ful|ness)\\Z")
_re_4 = re.compile("^(" + _DOT + "+?)(al|ance|ence|er|ic|able|ible|ant|ement|"
                   "ment|ent|ou|ism|ate|iti|ous|ive|ize)\\Z")
_re2_4 = re.compile("^(" + _DOT + "+?)(s|t)(ion)\\Z")
_re_5 = re.compile("^(" + _DOT + "+?)e\\Z")
_re_5_1 = re.compile("ll\\Z")
_re3_5 = re.compile("^" + _C + _v + "[^aeiouwxy]\\Z")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _porter(w: str) -> str:
    if len(w) < 3:
        return w
    firstch = w[0]
    if firstch == "y":
        w = "Y" + w[1:]

    # Step 1a
    if _re_1a.search(w):
        w = _re_1a.sub(r"\1\2", w, count=1)
    elif _re2_1a.search(w):
        w = _re2_1a.sub(r"\1\2", w, count=1)

    # Step 1b
    fp = _re_1b.search(w)
    if fp:
        if _mgr0.search(fp.group(1)):
            w = _re_1b_2.sub("", w, count=1)
    else:
        fp = _re2_1b.search(w)
        if fp:
            stem = fp.group(1)
            if _s_v.search(stem):
                w = stem
                if _re2_1b_2.search(w):
                    w = w + "e"
                elif _re3_1b_2.search(w):
                    w = _re_1b_2.sub("", w, count=1)
                elif _re4_1b_2.search(w):
                    w = w + "e"

    # Step 1c
    fp = _re_1c.search(w)
    if fp:
        w = fp.group(1) + "i"

    # Step 2
    fp = _re_2.search(w)
    if fp and _mgr0.search(fp.group(1)):
        w = fp.group(1) + _STEP2[fp.group(2)]

    # Step 3
    fp = _re_3.search(w)
    if fp and _mgr0.search(fp.group(1)):
        w = fp.group(1) + _STEP3[fp.group(2)]

    # Step 4
    fp = _re_4.search(w)
    if fp:
        if _mgr1.search(fp.group(1)):
            w = fp.group(1)
    else:
        fp = _re2_4.search(w)
        if fp:
            stem = fp.group(1) + fp.group(2)
            if _mgr1.search(stem):
                w = stem

    # Step 5
    fp = _re_5.search(w)
    if fp:
        stem = fp.group(1)
        if _mgr1.search(stem) or (_meq1.search(stem) and not _re3_5.search(stem)):
            w = stem
    if _re_5_1.search(w) and _mgr1.search(w):
        w = _re_1b_2.sub("", w, count=1)

    if firstch == "y":
        w = "y" + w[1:]
    return w


def _pair(ch: str) -> str:
    cp = ord(ch) - 0x10000
    return chr(0xD800 + (cp >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def stem(word: str) -> str:
    """Stem one token exactly as lunr.js 2.3.9 does."""
    if _ASTRAL.search(word) is None:
        return _porter(word)
    out = _porter(_ASTRAL.sub(lambda m: _pair(m.group()), word))
    # Suffix rules only touch ASCII, so every surrogate pair survives intact.
    return out.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
