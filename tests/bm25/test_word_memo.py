"""The analysis holds no state of its own (issue 20): a caller that analyses many texts owns a
WordMemo and passes it; the result never depends on the memo."""
from builder.bm25 import pipeline
from builder.bm25.pipeline import WordMemo, analyze_pairs, name_key, term_counts

TEXTS = ["Café MALMÖ café", "the visitors want a clear explanation", "東京タワー 東京", "Straße straße ёлка",
         "Running runs ran; running!"]


def _module_dicts() -> dict[str, int]:
    return {name: len(value) for name, value in vars(pipeline).items() if isinstance(value, (dict, set, list))}


def test_a_memo_changes_no_result():
    memo = WordMemo()
    for text in TEXTS + TEXTS:
        assert analyze_pairs(text, memo) == analyze_pairs(text)
        assert term_counts(text, memo) == term_counts(text)
        assert name_key(text, memo) == name_key(text)
    assert "café" in memo.pairs and "café" in memo.counts


def test_the_module_keeps_nothing_between_calls():
    before = _module_dicts()
    for text in TEXTS:
        analyze_pairs(text)
        term_counts(text)
    assert _module_dicts() == before


def test_a_full_memo_starts_over(monkeypatch):
    monkeypatch.setattr(WordMemo, "MAX", 2)
    memo = WordMemo()
    for text in TEXTS:
        assert analyze_pairs(text, memo) == analyze_pairs(text)
        assert term_counts(text, memo) == term_counts(text)
    words = {w for text in TEXTS for w in pipeline._words(text)}
    assert len(memo.pairs) < len(words) and len(memo.counts) < len(words)
