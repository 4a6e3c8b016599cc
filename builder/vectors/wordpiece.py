"""The teacher's tokenizer (all-MiniLM-L6-v2's tokenizer.json), for the vector arm (SPEC §5).
JS twin: site/engine/wordpiece.js — same steps in the same order, so both runtimes give the
same token ids for the same text.

1. BertNormalizer: drop NUL, U+FFFD and other-category characters (Cc Cf Cs Co Cn) except tab,
   newline, return; every whitespace character (tab, newline, return, Zs) becomes a space;
   CJK ideographs get a space on each side; NFD, then the nonspacing marks (Mn) dropped;
   lower-cased (str.lower ↔ toLowerCase).
2. BertPreTokenizer: split on spaces; each punctuation character (ASCII punctuation or a
   P* category) is a word of its own.
3. WordPiece: greedy longest match first, continuation pieces prefixed `##`; a word longer
   than 100 characters, or one with a piece not in the vocabulary, is one [UNK] (dropped by
   the pooling, since it carries no meaning).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

MAX_WORD = 100
OTHER = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
ASCII_PUNCT = frozenset(chr(c) for c in (*range(33, 48), *range(58, 65), *range(91, 97), *range(123, 127)))
CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
       (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _cjk(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in CJK)


def normalize(text: str) -> str:
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "\t\n\r" or cat == "Zs":
            out.append(" ")
        elif ch == "\0" or ch == "\ufffd" or cat in OTHER:
            continue
        elif _cjk(ord(ch)):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    text = unicodedata.normalize("NFD", "".join(out))
    return "".join(ch for ch in text if unicodedata.category(ch) != "Mn").lower()


# ASCII text (most of a brain) takes a shortcut with the same result: control characters
# dropped, tab/newline/return to spaces, lower-cased, then runs of non-space non-punctuation and
# single punctuation characters (no ASCII character is CJK or a mark, and NFD leaves it alone).
_ASCII = str.maketrans({**{chr(c): None for c in (*range(32), 127)}, "\t": " ", "\n": " ", "\r": " "})
_ASCII_WORD = re.compile(r"[^ !-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]")


def words(text: str) -> list[str]:
    if text.isascii():
        return _ASCII_WORD.findall(text.translate(_ASCII).lower())
    return unicode_words(text)


def unicode_words(text: str) -> list[str]:
    out = []
    for chunk in normalize(text).split(" "):
        start = 0
        for i, ch in enumerate(chunk):
            if ch in ASCII_PUNCT or unicodedata.category(ch).startswith("P"):
                if i > start:
                    out.append(chunk[start:i])
                out.append(ch)
                start = i + 1
        if start < len(chunk):
            out.append(chunk[start:])
    return out


class WordPiece:
    def __init__(self, vocab: list[str]):
        self.ids = {tok: i for i, tok in enumerate(vocab)}
        self.piece = lru_cache(maxsize=1 << 16)(self._piece)

    def _piece(self, word: str) -> tuple[int, ...]:
        """The word's token ids, or () for [UNK]."""
        if len(word) > MAX_WORD:
            return ()
        out, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                if sub in self.ids:
                    out.append(self.ids[sub])
                    break
                end -= 1
            if end == start:
                return ()
            start = end
        return tuple(out)

    def tokens(self, text: str, limit: int | None = None) -> list[int]:
        """Token ids of `text` ([UNK] dropped), the first `limit` of them when given."""
        out: list[int] = []
        for word in words(text):
            out.extend(self.piece(word))
            if limit is not None and len(out) >= limit:
                return out[:limit]
        return out
