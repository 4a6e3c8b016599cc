"""Run pagefind over a rendered site and make its bundle byte-deterministic.

`run_pagefind(site_dir)` runs the pagefind 1.5.2 binary shipped by the
`pagefind_bin` wheel (``pagefind[bin]``) once over the whole folder — the CLI
indexes a directory in one pass (FACTS: 300 pages in ~0.55 s), whereas the
Python API's per-page calls sleep ~0.1 s each — and leaves the bundle in
``site_dir/pagefind/``.

Pages decide what is indexed: ``data-pagefind-body`` on the content only,
``data-pagefind-filter="type"`` (and ``tag``, ``source``, ``folder``) for
filters, ``data-pagefind-meta="title"`` (and ``date``, ``excerpt``) for
metadata. Prefer the attribute forms (``data-pagefind-filter="type:project"``,
``<meta data-pagefind-filter="tag[content]" content="web">``) for values that
should not also be indexed as body text: pagefind indexes hidden text too.

Determinism (measured on pagefind 1.5.2, 60 pages, 12 runs of the same input)
------------------------------------------------------------------------------
Identical between runs: every ``fragment/*.pf_fragment``, every
``index/*.pf_index``, the wasm files and all the JS/CSS.

Not identical, raw: three kinds of file, from one cause — pagefind writes
hash maps in iteration order, which is random per process:

- ``filter/<lang>_<hash>.pf_filter`` (one per filter name): the filter's
  values come out in random order, so the bytes *and the file name* (a
  content hash) change;
- ``pagefind.<lang>_<hash>.pf_meta``: it lists the filter files by name, and
  also lists the filters themselves in random order (``type`` before ``tag``
  in 8 of 12 runs), so its bytes and name change;
- ``pagefind-entry.json``: it names the meta file's hash.

`run_pagefind` removes that: it decodes those files (gzip around the
``pagefind_dcd`` signature and CBOR), sorts filter values by value and the
meta's filter list by name, re-encodes them (shortest-form CBOR, as pagefind
writes it; gzip level 9 with mtime 0), renames them after a SHA-256 of the new
content (same ``<lang>_`` prefix and hash length as pagefind's) and rewrites
the hash in ``pagefind-entry.json``. Each decoded file must re-encode to
pagefind's exact bytes before it is touched; if a future pagefind changes the
format so that it does not, the bundle is left as pagefind wrote it and
`last_nondeterministic` lists the files that may then differ. After
post-processing, 12 of 12 runs gave byte-identical bundles.

The bundle is produced in a temporary folder and then synced into
``site_dir/pagefind/``: files whose bytes are unchanged are not rewritten
(their mtime is kept), stale files from an earlier bundle are removed.
pagefind runs with a temporary working directory and without ``PAGEFIND_*``
variables, so a stray ``pagefind.yml`` or environment cannot change the
output.

Timing (this machine, whole `run_pagefind` call incl. post-processing and
sync): the 4 pages of tests/emit/test_pagefind.py in ~0.03 s; 60 pages of
~200 words in ~0.055 s (pagefind alone ~0.03 s).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["PagefindError", "run_pagefind", "pagefind_executable", "BUNDLE_DIR"]

BUNDLE_DIR = "pagefind"
_SIGNATURE = b"pagefind_dcd"

#: Files of the last `run_pagefind` bundle that could not be made
#: deterministic (empty when post-processing succeeded), relative to the
#: bundle folder.
last_nondeterministic: list[str] = []


class PagefindError(RuntimeError):
    """pagefind failed; the message carries its stderr (or stdout)."""


def pagefind_executable() -> Path:
    """The pagefind binary installed by the ``pagefind_bin`` wheel."""
    try:
        import pagefind_bin
    except ImportError as exc:  # pragma: no cover - dependency is required
        raise PagefindError("pagefind_bin is not installed (pip install 'pagefind[bin]==1.5.2')") from exc
    try:
        return Path(pagefind_bin.get_executable()).absolute()
    except FileNotFoundError as exc:  # pragma: no cover
        raise PagefindError(f"pagefind binary not found: {exc}") from exc


def run_pagefind(site_dir: Path, *, glob: str = "**/*.html", quiet: bool = True) -> list[Path]:
    """Index the HTML of `site_dir` into `site_dir/pagefind/`.

    Returns every file of the bundle (sorted). Raises `PagefindError` when
    pagefind fails, for example when no page matches `glob`.
    """
    global last_nondeterministic
    site_dir = Path(site_dir).resolve()
    if not site_dir.is_dir():
        raise PagefindError(f"site folder not found: {site_dir}")
    with tempfile.TemporaryDirectory(prefix="bf-pagefind-") as tmp:
        work = Path(tmp)
        out = work / BUNDLE_DIR
        cmd = [
            str(pagefind_executable()),
            "--site", str(site_dir),
            "--output-path", str(out),
            "--glob", glob,
            *(["--quiet"] if quiet else []),
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAGEFIND_")}
        proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
        if not quiet and proc.stdout:
            sys.stderr.write(proc.stdout)
        if proc.returncode != 0 or not (out / "pagefind-entry.json").is_file():
            detail = (proc.stderr.strip() or proc.stdout.strip() or "(no output)")
            raise PagefindError(f"pagefind failed (exit {proc.returncode}) on {site_dir}:\n{detail}")
        last_nondeterministic = _canonicalize(out)
        return _sync(out, site_dir / BUNDLE_DIR)


# --- making the bundle deterministic -------------------------------------


def _canonicalize(bundle: Path) -> list[str]:
    """Sort filter values and the meta's filter list; rename by content hash.

    Returns the files left nondeterministic (empty on success).
    """
    entry_path = bundle / "pagefind-entry.json"
    entry_text = entry_path.read_text(encoding="utf-8")
    filter_files = sorted((bundle / "filter").glob("*.pf_filter")) if (bundle / "filter").is_dir() else []
    meta_files = sorted(bundle.glob("pagefind.*.pf_meta"))
    suspects = [p.relative_to(bundle).as_posix() for p in [*filter_files, *meta_files, entry_path]]
    try:
        decoded_filters = [(p, _read_exact(p)) for p in filter_files]
        decoded_metas = [(p, _read_exact(p)) for p in meta_files]
    except _NotCanonical:
        return suspects

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
        needle = json.dumps(old)
        if entry_text.count(needle) != 1:
            return suspects
        entry_text = entry_text.replace(needle, json.dumps(new))
    entry_path.write_text(entry_text, encoding="utf-8")
    return []


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


# --- writing the bundle into the site --------------------------------------


def _sync(src: Path, dest: Path) -> list[Path]:
    """Make `dest` equal `src`, rewriting only changed files."""
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        dest.unlink()
    dest.mkdir(parents=True, exist_ok=True)
    wanted = {p.relative_to(src) for p in src.rglob("*") if p.is_file()}
    for rel in sorted(wanted):
        target = dest / rel
        data = (src / rel).read_bytes()
        if target.is_file() and not target.is_symlink():
            if target.stat().st_size == len(data) and target.read_bytes() == data:
                continue
        elif target.is_dir():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    for path in sorted(dest.rglob("*"), reverse=True):
        rel = path.relative_to(dest)
        if path.is_dir() and not path.is_symlink():
            if not any(path.iterdir()):
                path.rmdir()
        elif rel not in wanted:
            path.unlink()
    return sorted(dest / rel for rel in wanted)
