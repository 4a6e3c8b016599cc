"""Make a pagefind 1.5.2 bundle byte-deterministic (used by emit/pagefind.py).

Identical between runs of pagefind over the same pages: every fragment, index, wasm
and JS/CSS file. Not identical, raw (measured: 60 pages, 12 runs), from one cause —
pagefind writes hash maps in iteration order, random per process:

- ``filter/<lang>_<hash>.pf_filter`` (one per filter name): values in random order, so
  the bytes *and the file name* (a content hash) change;
- ``pagefind.<lang>_<hash>.pf_meta``: lists the filter files by name and the filters in
  random order;
- ``pagefind-entry.json``: names the meta file's hash, and lists the languages (one index
  each, by ``<html lang>``) in random order.

`canonicalize` decodes those files (gzip around the ``pagefind_dcd`` signature and CBOR),
sorts filter values by value and the meta's filter list by name, re-encodes them
(shortest-form CBOR, as pagefind writes it; gzip level 9, mtime 0), renames them after a
SHA-256 of the new content (same ``<lang>_`` prefix and hash length as pagefind's) and
rewrites the hash in ``pagefind-entry.json``, whose languages it sorts by name. Each
decoded file must re-encode to pagefind's exact bytes before it is touched; if a future
pagefind changes the format so that it does not, the bundle is left as pagefind wrote it
and the files that may then differ are returned. After post-processing, 12 of 12 runs
gave byte-identical bundles (and 6 of 6 over pages in three languages).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import struct
from pathlib import Path

__all__ = ["canonicalize"]

_SIGNATURE = b"pagefind_dcd"


def canonicalize(bundle: Path) -> list[str]:
    """Sort filter values and the meta's filter list; rename by content hash.

    Returns the files left nondeterministic (empty on success).
    """
    entry_path = bundle / "pagefind-entry.json"
    filter_files = sorted((bundle / "filter").glob("*.pf_filter")) if (bundle / "filter").is_dir() else []
    meta_files = sorted(bundle.glob("pagefind.*.pf_meta"))
    suspects = [p.relative_to(bundle).as_posix() for p in [*filter_files, *meta_files, entry_path]]
    try:
        entry = _read_entry(entry_path)
        decoded_filters = [(p, _read_exact(p)) for p in filter_files]
        decoded_metas = [(p, _read_exact(p)) for p in meta_files]
    except _NotCanonical:
        return suspects
    languages = entry["languages"]

    renames: dict[str, str] = {}
    for path, value in decoded_filters:
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], list)
                and all(isinstance(v, list) and v and isinstance(v[0], str) for v in value[1])):
            return suspects
        value = [value[0], sorted(value[1], key=lambda v: v[0])]
        old = path.name[: -len(".pf_filter")]
        new = _rehash(old, value)
        renames[old] = new
        _write(path.with_name(new + ".pf_filter"), value)
        if new + ".pf_filter" != path.name:
            path.unlink()

    for path, value in decoded_metas:
        value = _rewrite_meta(value, renames)
        old = path.name[len("pagefind."): -len(".pf_meta")]
        new = _rehash(old, value)
        _write(path.with_name(f"pagefind.{new}.pf_meta"), value)
        if path.name != f"pagefind.{new}.pf_meta":
            path.unlink()
        named = [index for index in languages.values() if index.get("hash") == old]
        if len(named) != 1:
            return suspects
        named[0]["hash"] = new
    entry["languages"] = dict(sorted(languages.items()))
    entry_path.write_text(_json(entry), encoding="utf-8")
    return []


def _json(value) -> str:
    """JSON as pagefind writes its entry file: compact, UTF-8 as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _read_entry(path: Path) -> dict:
    """pagefind-entry.json, when it re-encodes to pagefind's exact bytes and has languages."""
    try:
        text = path.read_text(encoding="utf-8")
        entry = json.loads(text)
    except ValueError as exc:    # UnicodeDecodeError included
        raise _NotCanonical(path) from exc
    languages = entry.get("languages") if isinstance(entry, dict) else None
    if _json(entry) != text or not isinstance(languages, dict) or not all(isinstance(i, dict) for i in languages.values()):
        raise _NotCanonical(path)
    return entry


def _rewrite_meta(value, renames: dict[str, str]):
    """Replace filter-file hashes; sort lists of [filter name, filter hash] by name."""
    if isinstance(value, str):
        return renames.get(value, value)
    if isinstance(value, list):
        items = [_rewrite_meta(v, renames) for v in value]
        if items and all(isinstance(v, list) and len(v) == 2 and v[1] in renames.values() for v in items):
            items.sort(key=lambda v: v[0])
        return items
    if isinstance(value, dict):
        return {k: _rewrite_meta(v, renames) for k, v in value.items()}
    return value


def _rehash(old: str, value) -> str:
    prefix, _, digest = old.rpartition("_")
    new = hashlib.sha256(_encode(value)).hexdigest()[: len(digest) or 10]
    return f"{prefix}_{new}" if prefix else new


class _NotCanonical(ValueError):
    pass


def _read_exact(path: Path):
    raw = gzip.decompress(path.read_bytes())
    if not raw.startswith(_SIGNATURE):
        raise _NotCanonical(path)
    try:
        value, end = _decode(raw, len(_SIGNATURE))
    except (ValueError, IndexError, KeyError, struct.error, UnicodeDecodeError) as exc:
        raise _NotCanonical(path) from exc
    if end != len(raw) or _encode(value) != raw[len(_SIGNATURE):]:
        raise _NotCanonical(path)
    return value


def _write(path: Path, value) -> None:
    path.write_bytes(gzip.compress(_SIGNATURE + _encode(value), compresslevel=9, mtime=0))


# --- the CBOR subset pagefind writes --------------------------------------


def _decode(b: bytes, i: int):
    ib = b[i]
    major, info = ib >> 5, ib & 31
    i += 1
    if info < 24:
        n = info
    elif info == 24:
        n = b[i]; i += 1
    elif info == 25:
        (n,) = struct.unpack_from(">H", b, i); i += 2
    elif info == 26:
        (n,) = struct.unpack_from(">I", b, i); i += 4
    elif info == 27:
        (n,) = struct.unpack_from(">Q", b, i); i += 8
    else:
        raise ValueError(f"unsupported CBOR item {ib:#x}")
    if major == 0:
        return n, i
    if major == 1:
        return -1 - n, i
    if major == 2:
        return _Bytes(b[i:i + n]), i + n
    if major == 3:
        return b[i:i + n].decode("utf-8"), i + n
    if major == 4:
        out = []
        for _ in range(n):
            v, i = _decode(b, i)
            out.append(v)
        return out, i
    if major == 5:
        d = {}
        for _ in range(n):
            k, i = _decode(b, i)
            d[k], i = _decode(b, i)
        return d, i
    if major == 7 and n in (20, 21, 22):
        return {20: False, 21: True, 22: None}[n], i
    raise ValueError(f"unsupported CBOR item {ib:#x}")


class _Bytes(bytes):
    """CBOR byte string (kept apart from text)."""


def _head(major: int, n: int) -> bytes:
    if n < 24:
        return bytes([major << 5 | n])
    if n < 0x100:
        return bytes([major << 5 | 24, n])
    if n < 0x10000:
        return bytes([major << 5 | 25]) + struct.pack(">H", n)
    if n < 0x100000000:
        return bytes([major << 5 | 26]) + struct.pack(">I", n)
    return bytes([major << 5 | 27]) + struct.pack(">Q", n)


def _encode(v) -> bytes:
    if v is False:
        return b"\xf4"
    if v is True:
        return b"\xf5"
    if v is None:
        return b"\xf6"
    if isinstance(v, int):
        return _head(0, v) if v >= 0 else _head(1, -1 - v)
    if isinstance(v, bytes):
        return _head(2, len(v)) + v
    if isinstance(v, str):
        data = v.encode("utf-8")
        return _head(3, len(data)) + data
    if isinstance(v, list):
        return _head(4, len(v)) + b"".join(_encode(x) for x in v)
    if isinstance(v, dict):
        return _head(5, len(v)) + b"".join(_encode(k) + _encode(x) for k, x in v.items())
    raise TypeError(f"cannot encode {type(v).__name__}")
