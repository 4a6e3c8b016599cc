"""The teacher's tokenizer (all-MiniLM-L6-v2's tokenizer.json), for the vector arm.
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

A site ships the vocabulary in shards (emit/vectors.py, shard_of): a word's pieces are its
prefixes and `##` + its substrings, so a search reads the shards of its words' first one and
two characters and of each later character (shards_of), ~6 KB for a word instead of the
whole vocabulary's 118 KB, and tokenizes with those alone: the same ids.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import chain

MAX_WORD = 100
INITIAL, CONTINUING = 64, 32   # vocabulary shards of initial and of continuation (##) pieces
OTHER = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
       (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))
# Every step maps characters one by one, so each runs over the whole text in C, never calling
# Python per character: a regex of a character class over the BMP per step (built once from the
# functions below, on the first text that is not ASCII), a regex split for the ideographs, NFD
# and lower. Characters beyond the BMP are rare and their classes large (most are unassigned),
# which would slow every regex down: each text maps the few distinct ones it holds.
_ASCII = str.maketrans({**{chr(c): None for c in (*range(32), 127)}, "\t": " ", "\n": " ", "\r": " "})
_ASCII_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_ASCII_WORD = re.compile(r"[^ !-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]")
_CJK_BMP = re.compile("([%s])" % "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in CJK if hi <= 0xFFFF))
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@lru_cache(maxsize=None)
def _clean(ch: str) -> str:
    """Step 1 before NFD: a space, nothing, the character spaced (an ideograph beyond the BMP:
    _CJK_BMP spaces the BMP's) or itself."""
    cat = unicodedata.category(ch)
    if cat == "Zs" or ch in "\t\n\r":
        return " "
    if ch == "\ufffd" or cat in OTHER:
        return ""
    return f" {ch} " if ord(ch) > 0xFFFF and any(lo <= ord(ch) <= hi for lo, hi in CJK) else ch


@lru_cache(maxsize=None)
def _unmarked(ch: str) -> str:
    return "" if unicodedata.category(ch) == "Mn" else ch


@lru_cache(maxsize=None)
def _spaced_punct(ch: str) -> str:
    return f" {ch} " if ch in _ASCII_PUNCT or unicodedata.category(ch).startswith("P") else ch


def _bmp(hits: list[bool]) -> str:
    """A regex character class body of the BMP's characters whose `hits` entry holds."""
    out, first = [], None
    for cp, hit in enumerate([*hits, False]):
        if hit and first is None:
            first = cp
        elif not hit and first is not None:
            out.append(re.escape(chr(first)) + (f"-{re.escape(chr(cp - 1))}" if cp - 1 > first else ""))
            first = None
    return "".join(out)


@lru_cache(maxsize=1)
def _classes() -> tuple[re.Pattern, ...]:
    """Over the BMP: the characters step 1 drops, those it makes spaces, the marks, words, and
    punctuation (each step's test per character, its category looked up once)."""
    bmp = [chr(cp) for cp in range(0x10000)]
    cats = list(map(unicodedata.category, bmp))
    space = [cat == "Zs" or ch in "\t\n\r" for ch, cat in zip(bmp, cats)]   # = _clean's tests, in its order
    drop = [not sp and (ch == "\ufffd" or cat in OTHER) for ch, cat, sp in zip(bmp, cats, space)]
    punct = _bmp([ch in _ASCII_PUNCT or cat.startswith("P") for ch, cat in zip(bmp, cats)])   # = _spaced_punct's
    return (re.compile(f"[{_bmp(drop)}]"),
            re.compile(f"[{_bmp([sp and ch != ' ' for ch, sp in zip(bmp, space)])}]"),
            re.compile(f"[{_bmp([cat == 'Mn' for cat in cats])}]"), re.compile(f"[^ {punct}]+|[{punct}]"),
            re.compile(f"([{punct}])"))


def _astral(text: str, step) -> str:
    """`text` with its characters beyond the BMP mapped by `step`."""
    found = set(_ASTRAL.findall(text))
    if len(found) > 8:   # translate looks every character up; replace scans in C, once per character it maps
        return text.translate({ord(ch): step(ch) for ch in found})
    for ch in found:
        if step(ch) != ch:
            text = text.replace(ch, step(ch))
    return text


def normalize(text: str) -> str:
    if text.isascii():   # no ASCII character is CJK or a mark, and NFD leaves it alone
        return text.translate(_ASCII).lower()
    dropped, spaces, marks = _classes()[:3]
    text = _astral(spaces.sub(" ", dropped.sub("", text)), _clean)
    text = " ".join(_CJK_BMP.split(text))   # " X " around each ideograph of the BMP (_astral did the rest)
    return _astral(marks.sub("", unicodedata.normalize("NFD", text)), _unmarked).lower()


def words(text: str) -> list[str]:
    if text.isascii():
        return _ASCII_WORD.findall(text.translate(_ASCII).lower())
    return unicode_words(text)


def unicode_words(text: str) -> list[str]:
    text = _astral(normalize(text), _spaced_punct)
    if "\u2028" in text or "\u2029" in text:   # the only whitespace but " " step 1 leaves: str.split splits at it
        return _classes()[3].findall(text)
    # = the findall, faster: punctuation is sparse. The split keeps each mark (its group), and
    # joining by spaces spaces it: a sub(" \\g<0> ") would expand its template in Python per mark.
    return " ".join(_classes()[4].split(text)).split()


def shard_of(token: str) -> int:
    """The vocabulary shard holding `token`: an initial piece's by its first two characters'
    code points (one for a one-character piece), a continuation's by its first after `##`."""
    if token.startswith("##") and len(token) > 2:
        return INITIAL + ord(token[2]) % CONTINUING
    return (ord(token[0]) * 257 + (ord(token[1]) if len(token) > 1 else 0)) % INITIAL


def shards_of(word: str) -> set[int]:
    """The shards holding every piece WordPiece may look up for `word` (a word of words())."""
    return {shard_of(word[:1]), shard_of(word[:2])} | {shard_of("##" + c) for c in word[1:]}


class WordPiece:
    def __init__(self, vocab: list[str] | dict[str, int]):
        """`vocab`: every token (id = index), or a token → id dict holding at least the pieces
        of the words it will split (shards_of), which may grow between calls."""
        self.ids = vocab if isinstance(vocab, dict) else {tok: i for i, tok in enumerate(vocab)}
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

    def known(self, text: str) -> bool:
        """Whether a word of `text` (two characters or more) is one whole token of the vocabulary,
        a word the teacher knows. Text made only of word pieces (gibberish like "zzzqqq", most
        typos) has a vector close to everything: the vector arm then adds nothing of its own."""
        return any(len(w) > 1 and len(self.piece(w)) == 1 for w in words(text))

    def tokens(self, text: str, limit: int | None = None) -> list[int]:
        """Token ids of `text` ([UNK] dropped), the first `limit` of them when given."""
        found = words(text)
        if limit is None:
            return list(chain.from_iterable(map(self.piece, found)))
        out: list[int] = []
        at = 0
        while len(out) < limit and at < len(found):   # a word gives a token at least, but for [UNK]
            step = limit - len(out)
            out += chain.from_iterable(map(self.piece, found[at:at + step]))
            at += step
        return out[:limit]
