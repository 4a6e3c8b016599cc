"""Text analysis shared by the index and the query (format bf-lunr-11; JS twin in
site/engine/bm25/, equal token for token — tests/bm25 prove it).

1. Words: maximal runs of letters, marks and digits (general categories L*, M*, N* as listed
   in builder/bm25/unitable.py, identical in both runtimes); every other character
   separates, "-", "_" and "'" included.
2. Each word is NFKC-normalised and lower-cased (Python `str.lower`, JS `toLowerCase`), "ς"
   becomes "σ" (so final-sigma context never matters), and it is split again where
   normalisation produced a separator.
3. Runs of characters of scripts written without spaces (SPACELESS: Han, Hiragana, Katakana,
   Hangul, Thai, Lao, Khmer, Myanmar) become overlapping bigrams of code points; a run of one
   character stays a unigram. They are neither stemmed nor folded.
4. A Latin-script word (LATIN: ASCII letters and digits, the Latin blocks, combining
   diacritics) that is an English stop word is dropped; otherwise it is stemmed with lunr.js's
   Porter stemmer (builder/bm25/stemmer.py). Words of other scripts are kept as they are.
5. Each term has a diacritic-folded twin: NFD, nonspacing marks (Mn) removed, NFC, then
   FOLD_MAP (ß→ss, æ→ae, ø→o, …); a Latin word is folded before it is stemmed. A folded twin
   that is empty or a stop word is the exact term itself.

`analyze_pairs` gives one (exact, folded) pair per position; `analyze` the exact terms. The
functions hold no state: a caller that analyses many texts passes its own WordMemo.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache
from itertools import chain
from operator import add
from types import MappingProxyType

from .stemmer import stem
from .unitable import MN, WORD, char_class, decode

STOP_WORDS = frozenset("""
a able about across after all almost also am among an and any are as at be
because been but by can cannot could dear did do does either else ever every
for from get got had has have he her hers him his how however i if in into is
it its just least let like likely may me might most must my neither no nor not
of off often on only or other our own rather said say says she should since so
some than that the their them then there these they this tis to too twas us
wants was we were what when where which while who whom why will with would yet
you your
""".split())

SPACELESS = (
    (0x0E00, 0x0EFF),    # Thai, Lao
    (0x1000, 0x109F),    # Myanmar
    (0x1100, 0x11FF),    # Hangul Jamo
    (0x1780, 0x17FF),    # Khmer
    (0x19E0, 0x19FF),    # Khmer symbols
    (0x3005, 0x3007),    # 々 〆 〇
    (0x3021, 0x3029),    # Hangzhou numerals
    (0x3031, 0x3035),    # kana repeat marks
    (0x303B, 0x303C),    # 〻 〼
    (0x3040, 0x30FF),    # Hiragana, Katakana
    (0x3130, 0x318F),    # Hangul compatibility Jamo
    (0x31F0, 0x31FF),    # Katakana phonetic extensions
    (0x3400, 0x4DBF),    # CJK extension A
    (0x4E00, 0x9FFF),    # CJK unified ideographs
    (0xA960, 0xA97F),    # Hangul Jamo extended A
    (0xA9E0, 0xA9FF),    # Myanmar extended B
    (0xAA60, 0xAA7F),    # Myanmar extended A
    (0xAC00, 0xD7FF),    # Hangul syllables, Jamo extended B
    (0xF900, 0xFAFF),    # CJK compatibility ideographs
    (0xFF66, 0xFFDC),    # halfwidth Katakana and Hangul
    (0x1B000, 0x1B16F),  # Kana supplement, extended A, small kana
    (0x20000, 0x2FA1F),  # CJK extensions B-F, compatibility supplement
    (0x30000, 0x323AF),  # CJK extensions G, H
)
LATIN = (
    (0x30, 0x39), (0x61, 0x7A), (0xAA, 0xAA), (0xBA, 0xBA), (0xC0, 0x24F), (0x250, 0x2AF),
    (0x300, 0x36F), (0x1AB0, 0x1AFF), (0x1D00, 0x1DFF), (0x1E00, 0x1EFF), (0x20D0, 0x20FF),
    (0x2C60, 0x2C7F), (0xA720, 0xA7FF), (0xAB30, 0xAB6F),
)
FOLD_MAP = MappingProxyType({"ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i"})


def _class(ranges) -> str:
    return "".join(f"{chr(a)}-{chr(b)}" for a, b in ranges)


# The same without astral characters: re compiles a class of BMP characters alone to a bitmap,
# about ten times faster on long texts; texts with astral characters take _astral()'s.
_WORD_BMP_RE = re.compile("[" + "".join(f"{chr(a)}-{chr(min(b, 0xFFFF))}" for a, b in decode(WORD)
                                        if a <= 0xFFFF).replace("\\", "\\\\") + "]+")
_ASTRAL_RE = re.compile("[\U00010000-\U0010FFFF]")


@cache
def _astral() -> tuple[re.Pattern, re.Pattern]:
    """(the astral letters, every word character) as patterns, compiled when a text first holds an
    astral character: a tenth of a query's import otherwise."""
    return (re.compile("[" + "".join(f"{chr(max(a, 0x10000))}-{chr(b)}" for a, b in decode(WORD) if b > 0xFFFF) + "]"),
            re.compile(f"[{char_class(WORD)}]+"))
_ASCII_WORD_RE = re.compile("[a-z0-9]+")
_ASCII_SEPARATORS = str.maketrans({chr(i): " " for i in range(128) if not chr(i).isalnum()})
_MN_RE = re.compile(f"[{char_class(MN)}]+")
_SPACELESS_RE = re.compile(f"[{_class(SPACELESS)}]+")
_LATIN_RE = re.compile(f"[{_class(LATIN)}]+")
_FOLD_RE = re.compile("[" + "".join(FOLD_MAP) + "]")



def fold(word: str) -> str:
    """The diacritic-folded form of a lower-cased word."""
    if word.isascii():
        return word
    f = unicodedata.normalize("NFC", _MN_RE.sub("", unicodedata.normalize("NFD", word)))
    return _FOLD_RE.sub(lambda m: FOLD_MAP[m.group()], f) if _FOLD_RE.search(f) else f


class WordMemo:
    """Raw word -> its analysis, for whoever analyses many texts: vocabularies are far smaller
    than token streams, so a memo turns normalisation and the Porter regexes into a dict hit.
    Its owner passes it along (the index writer keeps one per index, an open site one for its
    searches); without one, a call memoises only its own text's words. Past MAX words a memo
    starts over: a bound on memory, never a change of result."""
    MAX = 1_000_000
    TEXTS = 4096   # recent texts kept whole: a record's text is also its neighbours' context, nearby

    def __init__(self):
        self.pairs: dict[str, list] = {}     # raw word -> its (exact, folded) pairs
        self.counts: dict[str, tuple] = {}   # raw word -> its terms, exact and differing folded
        self.sizes: dict[str, int] = {}      # raw word -> its positions
        self.texts: dict[str, tuple] = {}    # recent text -> its term_counts (never mutated)


def _ascii(word: str) -> list:
    if word in STOP_WORDS:
        return []
    s = stem(word)
    return [(s, s)]


def _plain(word: str) -> list:
    """Pairs of a (normalised, lower-cased) word without spaceless characters."""
    if word.isascii():
        return _ascii(word)
    word = word.replace("ς", "σ")
    f = fold(word)
    if _LATIN_RE.fullmatch(word):
        if word in STOP_WORDS:
            return []
        e = stem(word)
        return [(e, e if f == word or not f or f in STOP_WORDS else stem(f))]
    return [(word, f or word)]


def _words(text: str) -> list[str]:
    """The raw words of *text* (ASCII text lower-cased already: its analysis starts so)."""
    if text.isascii():   # = _ASCII_WORD_RE.findall(text.lower()), 6x faster
        return text.lower().translate(_ASCII_SEPARATORS).split()
    for m in _ASTRAL_RE.finditer(text):      # emoji separate: only astral letters need the whole class
        letters, words = _astral()
        if letters.match(m.group()):
            return words.findall(text)
    return _WORD_BMP_RE.findall(text)


def _grams(run: str) -> list[str]:
    """The terms of a run of a spaceless script: its overlapping bigrams, or itself alone."""
    return list(map(add, run[:-1], run[1:])) if len(run) > 1 else [run]


def _spaceless(raw: str) -> list[str] | None:
    """_word's exact terms of a raw word that is one run of a spaceless script, which step 2
    leaves as it is (then each is its own folded term), else None: its bigrams without the steps."""
    if _SPACELESS_RE.fullmatch(raw) and unicodedata.is_normalized("NFKC", raw) and raw.lower() == raw:
        return _grams(raw)
    return None


def _word(raw: str) -> list:
    """(exact, folded) pairs of one raw word."""
    norm = unicodedata.normalize("NFKC", raw).lower()
    out: list = []
    for word in _words(norm):
        if word.isascii():
            out += _ascii(word)
            continue
        at = 0
        for m in _SPACELESS_RE.finditer(word):
            if m.start() > at:
                out += _plain(word[at:m.start()])
            grams = _grams(m.group())
            out += zip(grams, grams)
            at = m.end()
        if at < len(word):
            out += _plain(word[at:])
    return out


def analyze_pairs(text: str, memo: WordMemo | None = None) -> list[tuple[str, str]]:
    """One (exact term, folded term) pair per position of *text*, in order."""
    memo = memo.pairs if memo is not None else {}
    words = _words(text)
    out: list = []
    try:
        for w in words:
            out += memo[w]
    except KeyError:
        if len(memo) > WordMemo.MAX:
            memo.clear()
        out = []
        for w in words:
            pairs = memo.get(w)
            if pairs is None:
                pairs = memo[w] = _word(w)
            out += pairs
    return out


def term_counts(text: str, memo: WordMemo | None = None) -> tuple[dict[str, int], int]:
    """({term: frequency}, positions) of *text* as an index field holds it: per position its
    exact term and, where it differs, its folded term. Counts words first (most repeat). With a
    memo, a text met again (in doc order: a record, then as its neighbours' context) is counted
    once; the dict returned is then shared, so callers never mutate it."""
    if memo is not None:
        hit = memo.texts.get(text)
        if hit is not None:
            return hit
        if len(memo.texts) >= WordMemo.TEXTS:
            memo.texts.clear()
        memo.texts[text] = out = _term_counts(text, memo)
        return out
    return _term_counts(text, None)


def _term_counts(text: str, memo: WordMemo | None) -> tuple[dict[str, int], int]:
    words = _words(text)
    memo = memo if memo is not None else WordMemo()
    terms, sizes, known = memo.counts, memo.sizes, memo.pairs
    if len(terms) > WordMemo.MAX:
        terms.clear()
        sizes.clear()
    try:
        seqs = list(map(terms.__getitem__, words))
    except KeyError:
        if len(known) > WordMemo.MAX:
            known.clear()
        for w in set(words).difference(terms):
            pairs = known.get(w)
            if pairs is None:
                pairs = known[w] = _word(w)   # analyze_pairs's, for the same words' adjacent pairs
            terms[w] = tuple([e for e, _ in pairs] + [f for e, f in pairs if f != e])
            sizes[w] = len(pairs)
        seqs = list(map(terms.__getitem__, words))
    # Counted in C, term by term: a word of a spaceless script is a whole run (a sentence) that
    # rarely repeats, so counting words first would leave a Python step per term.
    return Counter(chain.from_iterable(seqs)), sum(map(sizes.__getitem__, words))


def analyze(text: str, memo: WordMemo | None = None) -> list[str]:
    """The exact terms of *text*, one per position, in order."""
    return [e for e, _ in analyze_pairs(text, memo)]


def query_terms(text: str) -> list[tuple[str, str]]:
    """A query's (exact, folded) pairs: the same analysis as documents get."""
    return analyze_pairs(text)


def analyze_query_word(word: str) -> str:
    """The exact term of a one-word text ("" when it has none, e.g. a stop word)."""
    pairs = analyze_pairs(word)
    return pairs[0][0] if pairs else ""


def query_words(text: str) -> list[tuple[str, str]]:
    """Alias of `query_terms` (the words a search needs are its analysed pairs)."""
    return analyze_pairs(text)


def name_key(text: str, memo: WordMemo | None = None) -> str:
    """The name-index key of a title, alias, file stem or query: its folded terms joined by " "."""
    return " ".join(f for _, f in analyze_pairs(text, memo))
