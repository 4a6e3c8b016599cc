"""What the index writer and both readers agree on (format bf-lunr-11, see FORMAT.md): the
format string, fields and their BM25 parameters, the shard hash, and BM25 arithmetic that
Python and JS evaluate to bit-identical doubles.

Only + - * / on IEEE doubles (correctly rounded in both runtimes) are used, each expression
written in the same order in site/engine/bm25/; the logarithm is `ln` below, a fixed
series in those operations, because `math.log` (C libm) and `Math.log` (V8's fdlibm port)
may differ in the last bit.
"""
from __future__ import annotations

from types import MappingProxyType

from ..kernel.formats import LUNR_FORMAT as FORMAT  # noqa: F401  (read by index, layout and reader)

FIELDS = ("title", "aliases", "headings", "body", "neighbours")
# Per field: boost, k1, b (BM25 summed over fields, each with its own parameters). The one
# place to tune ranking. `neighbours` (records only): the words of the messages around a
# record in its conversation (views/conversations.py); `weights[k-1]` is the integer weight of
# the messages at distance k, in units of 1/scale (±1 weight 1, ±2 weight 0.5), so tf and
# length stay integers (FORMAT.md). Its b is 0: a window's length says little (measured the
# same on the conversational set, bench/quality.py) and l/ files leave its lengths out.
PARAMS = MappingProxyType({
    "title": {"boost": 10, "k1": 0.9, "b": 0.75},
    "aliases": {"boost": 8, "k1": 0.9, "b": 0.75},
    "headings": {"boost": 4, "k1": 0.9, "b": 0.75},
    "body": {"boost": 1, "k1": 0.9, "b": 0.75},
    "neighbours": {"boost": 0.8, "k1": 1.2, "b": 0, "scale": 2, "weights": [2, 1]},
})
# Fields that add to a document's score without holding the words for the all-words rule: a
# record must hold every query word in its own text, or it is a hit of the any-word pass only,
# where its neighbours' words count as held. Measured (bench/quality.py, conversational
# set): with neighbours holding words for the rule too, a conversation elsewhere holding every
# word within five messages won the all-words pass and session recall@5 fell (0.992 -> 0.981);
# with this rule turn recall@10 0.694 -> 0.994 and session recall@5 0.992 -> 0.997.
CONTEXT = ("neighbours",)
NAMED = ("title", "aliases")
WHEN_BOOST = 2.0   # a hit placed in the span of a date the query names (query/when.py): exact in doubles   # an item "holds the words in its name" when they are in these
LN2 = 0.6931471805599453
SQRT2 = 1.4142135623730951
_INV = tuple(1.0 / k for k in range(1, 32, 2))   # 1/1, 1/3, … 1/31


def ln(x: float) -> float:
    """Natural logarithm of a finite x > 0: x = m * 2**e with m in [sqrt(1/2), sqrt(2)) by
    exact halvings/doublings, then ln(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, by its
    series to s**31 (Horner), error < 1e-16 relative. Bit-identical in site/engine/bm25/."""
    e = 0
    while x >= 2.0:
        x = x / 2.0
        e += 1
    while x < 1.0:
        x = x * 2.0
        e -= 1
    if x > SQRT2:
        x = x / 2.0
        e += 1
    s = (x - 1.0) / (x + 1.0)
    s2 = s * s
    p = _INV[15]
    for k in range(14, -1, -1):
        p = p * s2 + _INV[k]
    return e * LN2 + 2.0 * s * p


def idf(n: int, df: int) -> float:
    """lunr's idf: ln(1 + |(N - df + 0.5) / (df + 0.5)|), df counting (document, field) pairs."""
    x = (n - df + 0.5) / (df + 0.5)
    return ln(1.0 + abs(x))


def fnv1a(term: str) -> int:
    """32-bit FNV-1a of the UTF-8 bytes (same in site/engine/bm25/)."""
    h = 0x811C9DC5
    for byte in term.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h
