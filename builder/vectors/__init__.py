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
from itertools import chain, islice
from pathlib import Path

from .wordpiece import WordPiece

HERE = Path(__file__).resolve().parent
DOC_TOKENS = 512     # a document's vector reads its first 512 tokens: title, headings, then body


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


def doc_vector(text: str, memo: "Chunks | None" = None) -> np.ndarray:
    return quantize(embed(doc_tokens(text, memo)))


class Chunks(dict):
    """Text between two spaces → its token ids, for a caller that embeds many texts (a build's
    workers): most such pieces recur, so the tokenizer runs once per distinct piece, not per
    character of every text. wordpiece.words never looks across a space (no step joins or
    reorders characters around one), so a text's tokens are its pieces' in order. Past MAX
    pieces it starts over: a bound on memory, never a change of result."""
    MAX = 500_000

    def __missing__(self, piece: str) -> tuple[int, ...]:
        if len(self) >= self.MAX:
            self.clear()
        ids = self[piece] = tuple(wordpiece().tokens(piece))
        return ids


def doc_tokens(text: str, memo: Chunks | None = None) -> list[int]:
    """The first DOC_TOKENS tokens of `text`'s first DOC_TOKENS * 8 characters (512 tokens rarely
    need more than 8 characters each: no need to tokenize a long note whole); its pieces between
    spaces are tokenized only until there are enough (Chunks: `memo` keeps them for the next)."""
    pieces = text[:DOC_TOKENS * 8].split(" ")
    found = map((Chunks() if memo is None else memo).__getitem__, pieces)
    return list(islice(chain.from_iterable(found), DOC_TOKENS))
