"""The vector arm's tokenizer (builder/vectors/wordpiece.py) equals its JS twin
(site/engine/wordpiece.js) token for token, on a corpus of many scripts."""
from builder import vectors
from builder.vectors.wordpiece import normalize, unicode_words, words

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


def test_rules():
    assert normalize("Café\tMALMÖ") == "cafe malmo"
    assert words("don't stop!") == ["don", "'", "t", "stop", "!"]
    assert words("東京") == ["東", "京"]
    wp, ids = vectors.wordpiece(), vectors.wordpiece().ids
    assert wp.tokens("unaffable") == [ids["una"], ids["##ffa"], ids["##ble"]]
    assert wp.tokens("a" * 101) == []          # longer than 100 characters: [UNK], dropped
    assert wp.tokens("pricing tiers", 1) == [ids["pricing"]]
