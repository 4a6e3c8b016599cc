"""Pack files: the compact data (`_bf/BRAIN/data/`) and the search files (`_bf/search/BRAIN/`) are
stored as gzip'd JSON named `NAME.json.gz`; each folder's `meta.json` stays plain JSON, so a
format check costs one small read (docs/data.md). Static hosts serve the `.gz` files as they are
and the browser inflates them (site/engine/packs.js, its twin), so the site holds a fifth of the
bytes of plain JSON.

Compression level 6, for the site's byte budget (docs/performance.md#targets); inflating costs
the same at any level. The search index's files (`numbers`: postings, gaps, lengths) pack at
level 4 with zlib's Z_FILTERED strategy, which favours Huffman coding over short matches: smaller
and faster for numbers, larger for text (records, cards, the store), which stays at level 6.
The figures: docs/decisions.md#pack-files-gzip-level-6-the-indexs-numbers-at-level-4-filtered."""
from __future__ import annotations

import json
import os
import zlib
from functools import partial

# Inflating is what a search waits for (a result's meta, text and vector files, each a pack):
# ISA-L inflates the same bytes 3-4x faster than zlib (docs/decisions.md#reading-packs-with-isa-l).
# Deflating stays zlib's: its output at level 6 is the site's bytes.
from isal import isal_zlib

SUFFIX = ".gz"
LEVEL = 6
_GZIP = 31   # zlib window bits for a gzip wrapper; its header has mtime 0, so output is deterministic


def packed_name(rel: str) -> str:
    return rel + SUFFIX


def read(folder, rel: str, packed: bool) -> bytes:
    """The JSON bytes of `rel` under `folder`: its pack file's content when `packed`. Raises
    OSError when missing, ValueError when a pack file is not one."""
    with open(os.path.join(folder, packed_name(rel) if packed else rel), "rb") as fh:
        data = fh.read()
    return unpack(data) if packed else data


def pack(data: bytes, numbers: bool = False) -> bytes:
    level, strategy = (4, zlib.Z_FILTERED) if numbers else (LEVEL, zlib.Z_DEFAULT_STRATEGY)
    z = zlib.compressobj(level, zlib.DEFLATED, _GZIP, 8, strategy)
    return z.compress(data) + z.flush()


THREADED = 4   # packs compressed at once in threads from this many: zlib lets go of the GIL


def pack_all(datas: list[bytes], numbers: bool = False) -> list[bytes]:
    """pack() each, in threads when they are several (threads start in microseconds)."""
    one = partial(pack, numbers=numbers)
    if len(datas) < THREADED:
        return list(map(one, datas))
    from concurrent.futures import ThreadPoolExecutor
    from .parallel import cores
    with ThreadPoolExecutor(cores()) as pool:
        return list(pool.map(one, datas))


def members(datas: list[bytes]) -> tuple[bytes, list[tuple[int, int]]]:
    """A file of one gzip member per value of `datas` (a search's item texts: docs/site.md#search-data),
    and each member's (start, length) in it: a reader fetches a member's bytes alone (an HTTP
    Range request, read_member) rather than a pack of many items' texts."""
    parts = pack_all(datas)
    spans, at = [], 0
    for part in parts:
        spans.append((at, len(part)))
        at += len(part)
    return b"".join(parts), spans


def read_member(folder, rel: str, start: int, length: int) -> bytes:
    """The JSON bytes of the member at (`start`, `length`) of the file `rel` (members()) under
    `folder`. Raises OSError when missing, ValueError when those bytes are not a gzip member."""
    with open(os.path.join(folder, packed_name(rel)), "rb") as fh:
        fh.seek(start)
        return unpack(fh.read(length))


def unpack(data: bytes) -> bytes:
    """The JSON bytes of a pack file; raises ValueError when it is not one."""
    try:
        return isal_zlib.decompress(data, _GZIP)
    except isal_zlib.error as exc:
        raise ValueError(f"not a gzip pack: {exc}") from None


_DECODER = json.JSONDecoder()


def cut(data: bytes | None, key: str, fits):
    """The first value of `key` in the canonical JSON `data` (a pack's UTF-8: keys as orjson
    writes them, str unescaped) for which fits(value) holds, else None; None too when `data`
    is. `"KEY":` in JSON is always an object key (a quote inside a string is escaped). Raises
    ValueError when the value there is not JSON (a damaged file), as parsing it whole would."""
    if data is None:
        return None
    needle = (json.dumps(key, ensure_ascii=False) + ":").encode()
    at = data.find(needle)
    while at >= 0:
        value = _value(data, at + len(needle))
        if value is _MALFORMED:
            raise ValueError(f"malformed JSON after {key!r}")
        if fits(value):
            return value
        at = data.find(needle, at + 1)
    return None


_MALFORMED = object()


def _value(data: bytes, start: int):
    """The JSON value at byte `start` of `data`, decoding only a window from there, widened
    until the value ends in it (a pack holds many values: decoding or parsing it all cost a
    search more than its cut). A value cut short never parses (an array or object lacks its close);
    a character cut in two at the window's end is dropped."""
    size = 4096
    while True:
        try:
            return _DECODER.raw_decode(data[start:start + size].decode("utf-8", "ignore"))[0]
        except ValueError:
            if start + size >= len(data):
                return _MALFORMED
            size *= 4
