"""Excerpts and phrase checks over the stored text of an item (docs/replies.md#the-reply). JS twin: site/engine/excerpt.js.

Lengths count Unicode code points (JS: iterate with Array.from / for…of), so a cut never splits
a character. A text's tokens are the runs between lunr's separators (white space and "-");
a token matches when its lunr term (builder.bm25.analyze) is one of the query's terms.

Window (when some token matches):
1. For each matching token i, in text order, the candidate window starts LEAD code points before
   it (at 0 if that is before the text), moved forward past the next white space when that
   start falls inside a word (but never past token i itself).
2. The window's worth is the number of distinct query terms among matching tokens that end
   within its first LIMIT - 2 code points; the first window with the highest worth wins.
3. The text from the start is cut to fit LIMIT with "…" at each cut: when more text follows,
   the kept part is cut back to its last white space if that lies in its second half, then
   trailing white space is dropped and "…" appended; a "…" is prefixed when the start is > 0.
Without a matching token, the fallback is `cut(fallback)` (builder/text.cut).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..bm25 import analyze
from ..bm25.pipeline import WordMemo
from ..bm25.tokenizer import JS_WHITESPACE, SEPARATOR_RE
from ..kernel.text import EXCERPT_CHARS, cut

LEAD = 40
SPACE = " \t\n\r\f\v"
_SEPARATORS = JS_WHITESPACE + "\\-"   # lunr's separators, as a regex class (SEPARATOR_RE)


def _matches(text: str, terms: set[str], memo: WordMemo | None) -> list[tuple[int, int, str]]:
    """(start, end, term) of each token of `text` whose lunr term is in `terms`, in order.
    Speed-up only (results are the same without it): the stemmer keeps a word's first two
    letters, so a token whose analysed form (_analysed) holds none of the terms' first two
    letters is not analysed, and each distinct token is analysed once. Where analysing the
    whole text keeps its positions, one regex pass over it finds the tokens worth analysing."""
    heads = {t[:2] for t in terms}
    if text.isascii():
        low = text.lower()
    elif unicodedata.is_normalized("NFKC", text):
        low = _analysed(text)
    else:   # NFKC would move positions (ﬁ → fi)
        return _token_by_token(text, terms, heads, memo)
    if len(low) != len(text):   # a letter lower-cased to two (İ): positions moved
        return _token_by_token(text, terms, heads, memo)
    if not any(h in low for h in heads):
        return []
    out, seen = [], {}
    for start, end in _spans_with(low, tuple(sorted(heads))):
        token = text[start:end]
        found = seen.get(token)
        if found is None:
            found = seen[token] = analyze(token, memo)
        if found and found[0] in terms:
            out.append((start, end, found[0]))
    return out


def _analysed(text: str) -> str:
    """`text` as the analysis reads it before splitting words (pipeline._word): NFKC, lower
    case, σ for ς. (Lower-casing a whole text differs from lower-casing its tokens only in
    Σ, which becomes σ or ς by the letters around it: σ either way here.)"""
    return unicodedata.normalize("NFKC", text).lower().replace("ς", "σ")


def _token_by_token(text: str, terms: set[str], heads: set[str], memo: WordMemo | None) -> list[tuple[int, int, str]]:
    """_matches() where analysing the whole text moves positions: a Python step per token."""
    out, start = [], 0
    for m in [*SEPARATOR_RE.finditer(text), None]:
        end = m.start() if m else len(text)
        if end > start:
            token = text[start:end]
            if any(h in _analysed(token) for h in heads):
                found = analyze(token, memo)
                if found and found[0] in terms:
                    out.append((start, end, found[0]))
        if m:
            start = m.end()
    return out


_TOKEN = re.compile(f"[^{_SEPARATORS}]*")   # a token's rest from a position (lunr's separators end it)


@lru_cache(maxsize=256)
def _heads(heads: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(map(re.escape, heads)))


def _spans_with(low: str, heads: tuple[str, ...]):
    """(start, end) of each whole token of `low` (a run between lunr's separators) that holds
    one of `heads`, in order, each once. A head is found by a regex of the heads alone, and its
    token's ends by _TOKEN each way (over the reversed text backwards): a pattern of the heads
    and the separators' class took a third of a millisecond to compile, and a fresh session's
    every query has heads of its own. Heads hold no separator (terms are tokens' analyses)."""
    rev, n, end = None, len(low), -1
    for m in _heads(heads).finditer(low):
        at = m.start()
        if at < end:   # in the token just taken
            continue
        if rev is None:
            rev = low[::-1]
        start, end = at - (_TOKEN.match(rev, n - at).end() - (n - at)), _TOKEN.match(low, at).end()
        if end > start:
            yield start, end


def has_phrase(text: str, phrase: list[str], memo: WordMemo | None = None) -> bool:
    """Do the terms of `phrase` occur one after another in `text` (stop words skipped on both sides)?
    `memo`: the caller's (pipeline.WordMemo), for the words of many texts."""
    if not phrase:
        return True
    terms, n, i = analyze(text, memo), len(phrase), -1
    while True:   # each place of the phrase's first term
        try:
            i = terms.index(phrase[0], i + 1)
        except ValueError:
            return False
        if terms[i:i + n] == phrase:
            return True


def _window_start(text: str, at: int) -> int:
    start = max(0, at - LEAD)
    if start > 0 and text[start - 1] not in SPACE:
        k = start
        while k < at and text[k] not in SPACE:
            k += 1
        start = k + 1 if k < at else at
    return start


def excerpt(text: str, terms: set[str], fallback: str, limit: int = EXCERPT_CHARS, memo: WordMemo | None = None) -> str:
    hits = _matches(text, terms, memo) if terms else []
    if not hits:
        return cut(fallback, limit)
    best_start, best_worth = 0, -1
    for start_i, _, _ in hits:
        start = _window_start(text, start_i)
        reach = start + limit - 2
        worth = len({term for s, e, term in hits if s >= start and e <= reach})
        if worth > best_worth:
            best_start, best_worth = start, worth
    prefix = "…" if best_start > 0 else ""
    room = limit - len(prefix)
    rest = text[best_start:]
    if len(rest) <= room:
        return prefix + rest.rstrip()
    kept = rest[:room - 1]
    space = max(kept.rfind(c) for c in SPACE)
    if space > len(kept) // 2:
        kept = kept[:space]
    return prefix + kept.rstrip() + "…"
