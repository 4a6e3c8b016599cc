"""The static token table of the vector arm (docs/replies.md#the-reply), shipped in the package.

table.bin: one int8 row of `dims` values per token of the teacher's vocabulary (vocab.txt, one
token a line, line k is token id k); table.json: where it came from (scripts/distill-table, the
pinned sha256 of the teacher's files) and its shape. NOTICE credits the teacher. Nothing is
downloaded at run time.

A text's vector is the sum of its tokens' rows as integers, each row times its token's weight
in the brain in sixteenths (weights.py; the SIF weights of English are baked into the rows), so
Python and JS compute the same vector exactly; documents are stored as int8 vectors scaled to a
largest component of ±127 (doc_vectors).
"""
from __future__ import annotations

import json
from array import array
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


def token_ids(texts: list[str], memo: "Chunks | None" = None) -> list[tuple[bytes, bytes]]:
    """Each text's (doc_tokens, their distinct ids ascending: the tokens its document holds), as
    uint16 bytes (every id of the vocabulary fits): what doc_vectors sums and the brain's token
    weights count (weights.py)."""
    memo = Chunks() if memo is None else memo
    out = []
    for text in texts:
        ids = list(_first_tokens(text, memo))   # a list, then an array: C loops, not a generator's
        out.append((array("H", ids).tobytes(), array("H", sorted(set(ids))).tobytes()))
    return out


def weighed_table(weights) -> np.ndarray:
    """The table's rows, each times its token's weight in sixteenths (weights.py): int16 holds
    any (127 × 16)."""
    import numpy as np   # lazily: `bf search` imports this package, numpy costs 50 ms
    return table().astype(np.int16) * np.asarray(weights, dtype=np.int16)[:, None]


def doc_vectors(tokens: list[bytes], weighed) -> list[bytes]:
    """Each text's int8 vector from its token_ids: the integer sum of its tokens' rows of
    `weighed` (weighed_table), scaled to a largest component of ±127 (no token: all zero). The
    rows of all the texts' tokens are taken from the table at once, and scaled at once: numpy
    calls per text are only the sums."""
    import numpy as np   # lazily: `bf search` imports this package, numpy costs 50 ms
    flat = np.frombuffer(b"".join(tokens), dtype=np.uint16).astype(np.intp)
    ends = np.cumsum([len(t) // 2 for t in tokens]).tolist()
    rows = weighed[flat]
    # int32 holds any sum (DOC_TOKENS rows of ±128 × 16 at most), and numpy adds int16 into it fast
    sums = np.zeros((len(tokens), meta()["dims"]), dtype=np.int32)
    for i, (start, end) in enumerate(zip([0, *ends], ends)):
        if end > start:
            rows[start:end].sum(axis=0, dtype=np.int32, out=sums[i])
    top = np.abs(sums).max(axis=1, initial=0)
    scale = 127 / np.where(top > 0, top, 1)   # float64, as 127 / top is; a zero vector stays zero
    return [row.tobytes() for row in np.rint(sums * scale[:, None]).astype(np.int8)]


class Chunks(dict):
    """Text between two spaces → its token ids, for a caller that embeds many texts (a build's
    workers): most such pieces recur, so the tokenizer runs once per distinct piece, not per
    character of every text. wordpiece.words never looks across a space (no step joins or
    reorders characters around one), so a text's tokens are its pieces' in order. Past MAX
    pieces it starts over: a bound on memory, never a change of result."""
    MAX = 200_000   # ~50 MB of pieces and ids

    def __missing__(self, piece: str) -> tuple[int, ...]:
        if len(self) >= self.MAX:
            self.clear()
        ids = self[piece] = tuple(wordpiece().tokens(piece))
        return ids


def doc_tokens(text: str, memo: Chunks | None = None) -> list[int]:
    """The first DOC_TOKENS tokens of `text`'s first DOC_TOKENS * 8 characters (512 tokens rarely
    need more than 8 characters each: no need to tokenize a long note whole); its pieces between
    spaces are tokenized only until there are enough (Chunks: `memo` keeps them for the next)."""
    return list(_first_tokens(text, Chunks() if memo is None else memo))


def _first_tokens(text: str, memo: Chunks):
    return islice(chain.from_iterable(map(memo.__getitem__, text[:DOC_TOKENS * 8].split(" "))), DOC_TOKENS)
