"""Hold an index's per-doc files in memory (bf mcp's startup): what a search reads by doc id.

A long-lived process answers many first questions, each of which would read the r/, l/, o/
and c/ chunks of its hits afresh (FORMAT.md); read once, they are a few megabytes at 10k
notes and 50k records, and the lengths are kept as one float64 array per field, so weighing
a common word's postings is one gather (reader.length_array).
"""
from __future__ import annotations


def hold(reader) -> None:
    """Read every chunk of reader's r/, l/, o/ and c/ files for the ids in use (an unused span
    has none), and keep the lengths as arrays over the id space."""
    import numpy as np
    meta = reader.meta
    for kind, size in (("r", meta["refChunk"]), ("l", meta["lengthChunk"]), ("o", meta["convChunk"]),
                       ("c", meta["convChunk"])):
        for _, first, count in meta["groups"]:
            for k in range(first // size, (first + count - 1) // size + 1) if count else ():
                reader._chunk(kind, k)
    size, lengths = meta["lengthChunk"], [np.zeros(meta["ids"]) for _ in meta["fields"]]
    for key, chunk in list(reader._chunks.items()):
        if key[0] == "l" and len(key) == 2:
            for column, values in zip(lengths, chunk):
                column[key[1] * size:key[1] * size + len(values)] = values
    reader.resident = lengths
