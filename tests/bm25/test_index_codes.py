"""Posting codes (builder/bm25/FORMAT.md): one integer per (term frequency, field length)."""
from __future__ import annotations

from builder.bm25.index import _MASK, codes
from builder.bm25.postings import _decode


def test_codes_pack_tf_and_length_as_the_format_says_and_decode_back():
    pairs = [(tf, length) for tf in (0, 1, 15, 16, 17, 300, _MASK) for length in (0, 1, 2, 1000, _MASK)]
    entries = [5 << 48 | length << 24 | tf for tf, length in pairs]
    expected = [length * 16 + tf if tf < 16 else -(tf * 16777216 + length) for tf, length in pairs]
    assert codes(entries) == expected
    assert [_decode(c) for c in codes(entries)] == pairs
