"""The writer's file index (emit/writer.py): site path → the sha256 of the bytes a build wrote
there, with the file's size, mtime and inode once committed. Saved in the cache folder as JSON,
only read back when the file is ours and writable by no one else; an entry is trusted only
while the file's stat still matches it. A watch session keeps the index it saved (`Saved`) and
reads it back from memory while the file is the one it wrote."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..kernel.owned import ours

INDEX_VERSION = 1


@dataclass
class Saved:
    """The index a watch session saved last: its entries, each one's JSON, and the file's stat."""
    index: dict[str, tuple] = field(default_factory=dict)
    json: dict[str, str] = field(default_factory=dict)
    stat: tuple | None = None


def _stat(file: Path) -> tuple | None:
    try:
        st = file.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino


def load_index(file: Path | None, saved: Saved | None = None) -> dict:
    """site path → (sha256, size, mtime_ns, inode) of the committed site's files."""
    if saved is not None and saved.stat is not None and file is not None and saved.stat == _stat(file):
        return saved.index
    try:
        st = file.stat()
        if not ours(st):
            return {}
        data = json.loads(file.read_bytes())
        if data.get("version") != INDEX_VERSION:
            return {}
        return {path: (bytes.fromhex(d), size, mtime, ino) for path, (d, size, mtime, ino) in data["files"].items()}
    except Exception:   # no or a damaged index only costs reading the old files
        return {}


def save_index(file: Path, out: Path, digests: dict[str, bytes], known: dict, saved: Saved | None = None) -> None:
    """The index of the site just committed at `out`, whose files hold `digests`; `known` is the
    index the build started from; `saved` (a watch session's) is left holding this one."""
    index, parts = {}, {}
    old_index, old_parts = (saved.index, saved.json) if saved is not None else ({}, {})
    for path, digest in digests.items():
        entry = known.get(path)
        if entry is None or entry[0] != digest:
            try:
                st = os.stat(out / path)
            except OSError:
                continue
            entry = (digest, st.st_size, st.st_mtime_ns, st.st_ino)
        # else most likely the old file kept or linked in; if not, its stat differs and readers of
        # the index (Writer._same, keep) compare bytes or render again: never trusted wrongly
        index[path] = entry
        part = old_parts.get(path)
        if part is None or old_index.get(path) is not entry:     # the JSON made of this very entry
            part = f'{json.dumps(path, ensure_ascii=False)}:["{digest.hex()}",{entry[1]},{entry[2]},{entry[3]}]'
        parts[path] = part
    file.parent.mkdir(parents=True, exist_ok=True)
    file.with_suffix(".pickle").unlink(missing_ok=True)   # an older bf's index: never read
    tmp = file.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(f'{{"version":{INDEX_VERSION},"files":{{{",".join(parts.values())}}}}}', encoding="utf-8")
    os.chmod(tmp, 0o600)
    tmp.replace(file)
    if saved is not None:
        saved.index, saved.json, saved.stat = index, parts, _stat(file)
