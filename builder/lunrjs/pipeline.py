"""lunr.js 2.3.9 English pipeline: tokenizer -> trimmer -> stopWordFilter ->
stemmer at index time; the search pipeline is the stemmer alone.

One deliberate difference: tokens that the trimmer empties ("--", "...",
"é") are dropped. Stock lunr.js and lunr.py keep them as the term "" and
count them in field lengths; our index, and the stock-lunr.py reference in
tests (via ``lunr_py_functions``), both drop them.
"""
from __future__ import annotations

from .stemmer import stem
from .tokenizer import split
from .trimmer import trim

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

# Memo of raw token -> indexed term ("" when dropped). Vocabularies are far
# smaller than token streams, so this turns the Porter regexes into a dict hit.
_memo: dict[str, str] = {}
_MEMO_MAX = 1_000_000


def _term(tok: str) -> str:
    t = trim(tok)
    if not t or t in STOP_WORDS:
        return ""
    return stem(t)


def analyze(text: str) -> list[str]:
    """Index-time terms of *text*, in order (the full lunr.js pipeline)."""
    memo = _memo
    toks = split(text)
    try:
        terms = [memo[t] for t in toks]
    except KeyError:
        if len(memo) > _MEMO_MAX:
            memo.clear()
        for t in toks:
            if t not in memo:
                memo[t] = _term(t)
        terms = [memo[t] for t in toks]
    return [t for t in terms if t]


def analyze_query_word(word: str) -> str:
    """Search-time term of one query word: lower-case (as lunr's query
    parser does) then stem. May be "" (then the word is ignored)."""
    return stem(word.lower())


def query_words(text: str) -> list[str]:
    """Prose -> query words: tokenize, trim, drop stop words, no stemming.
    Feeding these to ``IndexReader.search`` equals analysing the prose with
    the index-time pipeline."""
    out = []
    for tok in split(text):
        t = trim(tok)
        if t and t not in STOP_WORDS:
            out.append(t)
    return out


def lunr_py_functions():
    """(trimmer, stop_word_filter, stemmer) as lunr.py pipeline functions,
    registered under their own labels; for building a reference lunr.py
    index with this pipeline."""
    from lunr.pipeline import Pipeline

    def js_trimmer(token, i=None, tokens=None):
        token.update(lambda s, m=None: trim(s))
        return token if str(token) else None

    def js_stop_word_filter(token, i=None, tokens=None):
        return None if str(token) in STOP_WORDS else token

    def js_stemmer(token, i=None, tokens=None):
        return token.update(lambda s, m=None: stem(s))

    for fn in (js_trimmer, js_stop_word_filter, js_stemmer):
        if fn.__name__ not in Pipeline.registered_functions:
            Pipeline.register_function(fn, fn.__name__)
    reg = Pipeline.registered_functions
    return reg["js_trimmer"], reg["js_stop_word_filter"], reg["js_stemmer"]
