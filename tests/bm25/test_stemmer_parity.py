"""The Python ports of lunr.js 2.3.9's stemmer, trimmer and tokenizer equal lunr.js (vendored)
run in node; for plain ASCII English words our analysis equals lunr's pipeline."""
from pathlib import Path

import pytest

from builder.bm25 import analyze, stem, tokenize, trim

WORDS = Path(__file__).resolve().parents[1] / "fixtures" / "words.txt"

TRICKY = [
    "Hello, World!", "don't stop", "rock'n'roll’s", "'quoted'", "“smart” ‘quotes’",
    "e-mail co-operate --dash-- —emdash—", "co\u2011op", "a\u00a0b\u2003c\u3000d\ufeffe",
    "x\u200by", "x\u180ey", "fs\x1cgs\x1drs\x1eus\x1fnel\x85end", "tab\tnew\nline\r\nls\u2028ps\u2029z",
    "İstanbul", "ΣΑΣ ΟΔΟΣ", "Straße ǅemal", "ﬁle ﬂow", "Éclair café naïve", "日本語 テキスト",
    "😀 key😀 😀key a😀bs 😀😀 y😀ing 😀es", "𝐁𝐨𝐥𝐝 𝔉𝔯𝔞𝔨", "..." , "-", "", "   ", "___init__",
    "C++ c# .NET node.js v1.2.3 3.14 1,000 #tag @user", "keys: value; (paren) [brack] {brace}",
    "Yelling YES yyy y ys", "The quick brown fox's jumps over lazy dogs",
]

EDGE_WORDS = ["", "a", "ab", "yes", "y", "yy", "yyy", "Y", "sky", "by", "say", "caresses", "ponies",
              "ties", "feed", "agreed", "plastered", "motoring", "sing", "conflated", "troubled",
              "sized", "hopping", "falling", "hissing", "failing", "filing", "happy", "relational",
              "😀es", "a😀s", "y😀ing", "e😀ed", "x\u2028ed", "x\ned", "é", "généralement",
              "ǅemal", "İs"]


def load_words():
    words = [w for w in WORDS.read_text("utf-8").splitlines() if w and not w.startswith("#")]
    assert len(set(words)) >= 10_000
    return words


def test_stemmer_and_pipeline_equal_lunr_js(run_node):
    words = load_words() + EDGE_WORDS
    js = run_node("node_pipeline.mjs", {"words": words, "strings": TRICKY})
    py_stems = [stem(w) for w in words]
    diffs = [(w, p, j) for w, p, j in zip(words, py_stems, js["stems"]) if p != j]
    assert not diffs[:20], f"{len(diffs)} of {len(words)} stems differ"
    assert js["twinStems"] == js["stems"]
    assert [trim(s) for s in TRICKY] == js["trims"] == js["twinTrims"]
    py_tokens = [[list(t) for t in tokenize(s)] for s in TRICKY]
    assert py_tokens == js["tokens"] == js["twinTokens"]
    # lunr's pipeline (tokenize, trim, stop words, stem) and ours agree on plain ASCII words
    plain = [i for i, s in enumerate(TRICKY) if all(t.isascii() and t.isalnum() for t, _, _ in tokenize(s))]
    assert len(plain) >= 3
    assert [analyze(TRICKY[i]) for i in plain] == [js["analyze"][i] for i in plain]


def test_known_lunr_js_stems():
    assert [stem(w) for w in ["key", "day", "display", "array", "try", "fly", "sky", "dry"]] == [
        "key", "day", "display", "array", "tri", "fli", "ski", "dri"]


@pytest.mark.parametrize("text,expected", [
    ("a😀 b", [("a😀", 0, 3), ("b", 4, 1)]),
    ("x-y", [("x", 0, 1), ("y", 2, 1)]),
])
def test_positions_are_utf16(text, expected):
    assert tokenize(text) == expected
