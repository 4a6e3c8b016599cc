"""The vector arm's tokenizer (builder/vectors/wordpiece.py) equals its JS twin
(site/engine/wordpiece.js) token for token, on a corpus of many scripts."""
import random
import string
import unicodedata

import pytest

from builder import vectors
from builder.bm25.pipeline import LATIN, SPACELESS
from builder.vectors.wordpiece import CJK, OTHER, normalize, unicode_words, words

from bm25_corpus import MULTILINGUAL
from test_analysis_parity import CORPUS
from test_stemmer_parity import load_words


def test_corpus_tokens_equal_node(run_node):
    plain = load_words()[:3000]
    strings = CORPUS + plain + [" ".join(plain[i:i + 40]) for i in range(0, 3000, 40)] + [
        "Ünïcödé façade naïve", "e-mail: x@y.z (test)!", "don't stop", "\x00\ufffd\u200b zero", "a" * 150,
        "東京 タワー 서울", "unaffable antidisestablishmentarianism", "\t tabs\nand\rreturns\u3000ideographic"]
    wp = vectors.wordpiece()
    js = run_node("node_wordpiece.mjs", {"vocab": vectors.vocab(), "strings": strings})["tokens"]
    py = [wp.tokens(s) for s in strings]
    bad = [(s, p, j) for s, p, j in zip(strings, py, js) if p != j]
    assert not bad, bad[:5]
    assert sum(len(p) for p in py) > 10_000
    assert len(MULTILINGUAL) > 5


def test_ascii_shortcut_equals_the_general_path():
    strings = [s for s in CORPUS + load_words()[:2000] if s.isascii()] + [
        "e-mail: x@y.z (test)!", "\x00a\x7fb\tc\nd\re  f", "[a]{b}~c`d^e_f|g\\h", "don't"]
    assert all(words(s) == unicode_words(s) for s in strings)
    assert len(strings) > 1000


def test_words_by_split_equal_the_findall():
    """unicode_words splits at spaces once punctuation is spaced; the findall it stands for decides."""
    import importlib
    pattern = importlib.import_module("builder.vectors.wordpiece")._classes()[3]
    strings = CORPUS + [t for row in MULTILINGUAL for t in row] + [
        "a\u2028b\u2029c, d", "x\u3000y\u00a0z\u1680w", "«¿qué?» — “ok”… 𝔸𝔹! 😀.", "fs\x1cgs\x1dus\x1fnel\x85end", "東京。タワー、서울!"]
    assert all(unicode_words(s) == _by_findall(pattern, s) for s in strings)


def test_character_classes_equal_the_steps_per_character():
    """_classes writes step 1's and the punctuation's tests over categories, for speed: over the
    whole BMP they must pick what the per-character steps (_clean, _unmarked, _spaced_punct) do."""
    import importlib
    wp = importlib.import_module("builder.vectors.wordpiece")   # builder.vectors.wordpiece is also a function
    dropped, spaces, marks, _, punct = wp._classes()
    clean, unmarked, spaced = wp._clean.__wrapped__, wp._unmarked.__wrapped__, wp._spaced_punct.__wrapped__
    for ch in map(chr, range(0x10000)):
        assert bool(dropped.fullmatch(ch)) == (clean(ch) == ""), hex(ord(ch))
        assert bool(spaces.fullmatch(ch)) == (clean(ch) == " " and ch != " "), hex(ord(ch))
        assert bool(marks.fullmatch(ch)) == (unmarked(ch) == ""), hex(ord(ch))
        assert bool(punct.fullmatch(ch)) == (spaced(ch) != ch), hex(ord(ch))


def _by_findall(pattern, text):
    from builder.vectors.wordpiece import _astral, _spaced_punct
    return pattern.findall(_astral(normalize(text), _spaced_punct))


def test_rules():
    assert normalize("Café\tMALMÖ") == "cafe malmo"
    assert words("don't stop!") == ["don", "'", "t", "stop", "!"]
    assert words("東京") == ["東", "京"]
    wp, ids = vectors.wordpiece(), vectors.wordpiece().ids
    assert wp.tokens("unaffable") == [ids["una"], ids["##ffa"], ids["##ble"]]
    assert wp.tokens("a" * 101) == []          # longer than 100 characters: [UNK], dropped
    assert wp.tokens("pricing tiers", 1) == [ids["pricing"]]


# Every script the analysis tells apart (builder/bm25/pipeline.py: the spaceless ones, Latin, the
# rest kept as they are), by block, and what separates words: each gets 100k characters.
OTHER_SCRIPTS = [(0x370, 0x3FF), (0x400, 0x52F), (0x530, 0x58F), (0x590, 0x5FF), (0x600, 0x6FF), (0x750, 0x77F),
                 (0x900, 0x97F), (0x980, 0x9FF), (0xB80, 0xBFF), (0x10A0, 0x10FF), (0x1200, 0x137F),
                 (0x2000, 0x206F), (0x3000, 0x303F), (0xFF00, 0xFFEF), (0x1F300, 0x1F64F), (0x10000, 0x1007F)]


def _script_texts(ranges, size=100_000, seed=0) -> list[str]:
    rng = random.Random(seed)
    chars = [chr(c) for lo, hi in ranges for c in range(lo, hi + 1) if unicodedata.category(chr(c)) != "Cn"]
    seps = [" ", " ", " ", ", ", ". ", "\n", "\t", "-", "\u00a0", "\u3000", "\u0301 ", " x\u0308y "]
    out, total = [], 0
    while total < size:
        text = "".join("".join(rng.choices(chars, k=rng.randint(1, 9))) + rng.choice(seps) for _ in range(300))
        out.append(text)
        total += len(text)
    return out


def _reference_words(text: str) -> list[str]:
    """wordpiece.py's steps as its docstring states them, one character at a time."""
    cjk = lambda ch: any(lo <= ord(ch) <= hi for lo, hi in CJK)
    kept = [" " if ch in "\t\n\r" or unicodedata.category(ch) == "Zs" else f" {ch} " if cjk(ch) else ch
            for ch in text if ch in "\t\n\r" or not (ch == "\ufffd" or unicodedata.category(ch) in OTHER)]
    norm = "".join(ch for ch in unicodedata.normalize("NFD", "".join(kept)) if unicodedata.category(ch) != "Mn").lower()
    spaced = "".join(f" {ch} " if ch in string.punctuation or unicodedata.category(ch)[0] == "P" else ch for ch in norm)
    return [w for w in spaced.split(" ") if w]


@pytest.mark.parametrize("ranges", [[r] for r in (*SPACELESS, *OTHER_SCRIPTS)] + [LATIN],
                         ids=lambda ranges: f"{ranges[0][0]:x}")
def test_every_script_tokens_equal_the_reference_and_node(ranges, run_node):
    texts = _script_texts(ranges)
    assert sum(map(len, texts)) >= 100_000
    assert [words(t) for t in texts] == [_reference_words(t) for t in texts]
    wp = vectors.wordpiece()
    js = run_node("node_wordpiece.mjs", {"vocab": vectors.vocab(), "strings": texts})["tokens"]
    py = [wp.tokens(t) for t in texts]
    bad = [i for i, (p, j) in enumerate(zip(py, js)) if p != j]
    assert not bad, (len(bad), texts[bad[0]][:200] if bad else None)
