"""The static token table of the vector arm (docs/replies.md#the-reply), shipped in the package.

table.bin: one int8 row of `dims` values per token of the teacher's vocabulary (vocab.txt, one
token a line, line k is token id k); table.json: where it came from (scripts/distill-table, the
pinned sha256 of the teacher's files) and its shape. NOTICE credits the teacher. Nothing is
downloaded at run time.

A text's vector is the sum of its tokens' rows as integers (the SIF weights are baked into the
rows), so Python and JS compute the same vector exactly; documents are stored as int8 vectors
scaled to a largest component of ±127 (quantize).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from .wordpiece import WordPiece

HERE = Path(__file__).resolve().parent
DOC_TOKENS = 512     # a document's vector reads its first 512 tokens: title, headings, then body
READ = 768           # characters doc_tokens reads at once


@lru_cache(maxsize=1)
def meta() -> dict:
    return json.loads((HERE / "table.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def vocab() -> list[str]:
    return (HERE / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1]


@lru_cache(maxsize=1)
def table_bytes() -> bytes:
    """The token table's int8 rows, one after the other (`dims` bytes a row)."""
    return (HERE / "table.bin").read_bytes()


@lru_cache(maxsize=1)
def table() -> np.ndarray:
    import numpy as np   # lazily: `bf search` imports this package, numpy costs 50 ms
    return np.frombuffer(table_bytes(), dtype=np.int8).reshape(meta()["rows"], meta()["dims"])


@lru_cache(maxsize=1)
def wordpiece() -> WordPiece:
    return WordPiece(vocab())


def embed(ids: list[int]) -> np.ndarray:
    """The integer sum of the rows of `ids` (int64; all zero for no ids)."""
    import numpy as np   # lazily: `bf search` imports this package, numpy costs 50 ms
    if not ids:
        return np.zeros(meta()["dims"], dtype=np.int64)
    return table()[np.asarray(ids, dtype=np.int64)].sum(axis=0, dtype=np.int64)


def quantize(vec: np.ndarray) -> np.ndarray:
    """int8 with the largest component ±127 (a zero vector stays zero)."""
    import numpy as np   # lazily: `bf search` imports this package, numpy costs 50 ms
    top = int(np.abs(vec).max()) if vec.size else 0
    if top == 0:
        return np.zeros(vec.shape, dtype=np.int8)
    return np.rint(vec * (127 / top)).astype(np.int8)


def doc_vector(text: str) -> np.ndarray:
    return quantize(embed(doc_tokens(text)))


def doc_tokens(text: str) -> list[int]:
    """The first DOC_TOKENS tokens of `text`'s first DOC_TOKENS * 8 characters (512 tokens rarely
    need more than 8 characters each: no need to tokenize a long note whole), read in runs of
    about READ characters until there are enough: a text of few characters a token (an
    ideograph is one) stops early. Each run ends before a space, which no step of
    wordpiece.words looks across, so the runs' tokens are the whole's."""
    text, out, at = text[:DOC_TOKENS * 8], [], 0
    wp = wordpiece()
    while at < len(text) and len(out) < DOC_TOKENS:
        end = text.find(" ", at + READ) if at + READ < len(text) else -1
        end = len(text) if end < 0 else end
        out += wp.tokens(text[at:end], DOC_TOKENS - len(out))
        at = end
    return out
