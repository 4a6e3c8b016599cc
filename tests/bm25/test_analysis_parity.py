"""Unicode analysis (builder/bm25/pipeline.py) equals its JS twin (site/engine/bm25/)
token for token: on a corpus of every script bf promises, on every single word character, and
the shared Unicode tables are the ones this Python generates. Chromium: tests/browser/test_multilingual_browser.py."""
import random
import struct

from builder.bm25 import analyze, analyze_pairs, unitable
from builder.bm25.scoring import ln

from bm25_corpus import MULTILINGUAL
from test_stemmer_parity import TRICKY, load_words

CORPUS = [text for row in MULTILINGUAL for text in row] + TRICKY + [
    "Android ANDROID android's", "ΣΑΣ σας Σ ς ΌΣΟΣ.", "İIıi", "ǅǄǆ", "ﬀ ﬃ ﬅ", "Ⅻ ⅻ ① ⑽ ㊿", "㍻ ㎏ ℃ ™",
    "\u200c\u200d zwnj\u200cjoin", "a\u0301\u0327", "\u0e01\u0e49\u0e33", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛", "ℌ𝔢𝔩𝔩𝔬",
    "ﾊﾝｶｸ ｶﾞｷﾞ", "ㄱㄴㄷ ᄀ", "〇々〆 〻", "𠮷野家", "日本語 テキスト", "Ⓐⓑ", "ǰ̌", "ΐ ΰ", "ẞ ß ss",
]


def test_tables_are_this_pythons_unicode():
    assert unitable.generate() == {"UNICODE_VERSION": unitable.UNICODE_VERSION, "WORD": unitable.WORD,
                                   "MN": unitable.MN}


def test_corpus_tokens_equal_node(run_node):
    words = load_words()[:3000]
    strings = CORPUS + words + [" ".join(words[i:i + 40]) for i in range(0, 3000, 40)]
    js = run_node("node_analysis.mjs", {"strings": strings})
    assert js["word"] == unitable.WORD and js["mn"] == unitable.MN
    py = [[list(p) for p in analyze_pairs(s)] for s in strings]
    bad = [(s, p, j) for s, p, j in zip(strings, py, js["pairs"]) if p != j]
    assert not bad, bad[:5]
    assert sum(len(p) for p in py) > 6_000


def test_every_word_character_equal_node(run_node):
    js = run_node("node_analysis.mjs", {"strings": [], "codePoints": True})["codePoints"]
    py = [[list(p) for p in analyze_pairs(chr(cp))]
          for a, b in unitable.decode(unitable.WORD) for cp in range(a, b + 1)]
    assert len(py) == len(js) > 100_000
    bad = [(p, j) for p, j in zip(py, js) if p != j]
    assert not bad, bad[:5]


def test_ln_bit_equal_node(run_node):
    rnd = random.Random(4)
    xs = [1.0, 1.5, 2.0, 1.4142135623730951, 1.4142135623730954, 3.0, 1e300, 5e-324 * 2 ** 60]
    xs += [1 + abs(rnd.random() * 10 ** rnd.randint(0, 9)) for _ in range(3000)]
    xs += [1 + (n - df + 0.5) / (df + 0.5) for n in (10, 999, 60000) for df in range(1, 200)]
    js = run_node("node_analysis.mjs", {"strings": [], "logs": xs})["logs"]
    assert [struct.pack("<d", ln(x)) for x in xs] == [struct.pack("<d", y) for y in js]


def test_rules():
    assert analyze_pairs("Café MALMÖ") == [("café", "cafe"), ("malmö", "malmo")]
    assert analyze("备份仓库") == ["备份", "份仓", "仓库"]
    assert analyze("库") == ["库"]
    assert analyze("x_y co-op don't") == ["x", "y", "co", "op", "don", "t"]
    assert analyze("The running dogs") == ["run", "dog"]            # stop word, stemmer
    assert analyze("Бегущие собаки") == ["бегущие", "собаки"]         # not stemmed
    assert analyze_pairs("ёлка") == [("ёлка", "елка")]
    assert analyze("ΣΑΣ σας") == ["σασ", "σασ"]                       # final sigma folded
    assert analyze("ﬁle ＡＢＣ") == ["file", "abc"]                   # NFKC
    assert analyze("Python入門") == ["python", "入門"]
    assert analyze_pairs("Straße") == [("straße", "strass")]
