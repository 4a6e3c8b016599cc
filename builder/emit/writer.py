"""The one write path of a build: into a staging folder, refusing two outputs for one file,
reusing (hard-linking) the previous site's file when the bytes are the same, then swapping
the staging folder in atomically (SPEC §10).

Each written file's sha256 is kept (the manifest's build_id hashes them; nothing is read back).
With a cache folder, the digests of the site just committed are saved there (JSON, only read
back when the file is ours and writable by no one else) with each file's size, mtime and
inode: the next build compares bytes with the previous site through that
index instead of reading every old file, and trusts an entry only while the old file's stat
still matches it (a hand-edited site is never mistaken for the index's version)."""
from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from ..kernel.errors import BuildError
from ..kernel.packs import pack, packed_name


def canonical_json(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Writer:
    def __init__(self, out: Path, cache: Path | None = None, packs: dict | None = None):
        """`packs`: pack path → (JSON, packed bytes) of the last build in this process (a watch
        rebuild's BuildState): a pack whose JSON is unchanged is not compressed again. It is
        left holding this build's packs once the writer commits."""
        self.out, self.cache = out, cache
        self.packs, self.packed = packs, {}
        self.stage = out.parent / f".{out.name}.building-{os.getpid()}"
        self.previous = out if out.is_dir() else None
        self.written: dict[str, str] = {}     # site path → who wrote it
        self.digests: dict[str, bytes] = {}   # site path → sha256 of its bytes
        self.parent_written: dict[str, str] = {}   # a part's: its parent's `written` (see staged)
        self.reused = 0
        self.folders: set[Path] = set()       # staged folders known to exist
        self.index = _load_index(self._index_file()) if self.previous is not None else {}
        if self.stage.exists():
            shutil.rmtree(self.stage)
        self.stage.mkdir(parents=True)

    def _index_file(self) -> Path | None:
        return self.cache / f"{self.out.name}.files.json" if self.cache else None

    def write(self, path: str, data: bytes | str, owner: str = "") -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        if path in self.written:
            raise BuildError(f"two outputs claim {path}: {self.written[path]} and {owner}")
        self.written[path] = owner or path
        digest = self.digests[path] = hashlib.sha256(data).digest()
        target = self._target(path)
        if self.previous is not None and self._same(path, data, digest) and self._link_previous(path, target):
            return
        target.write_bytes(data)

    def keep(self, path: str, digest: bytes, owner: str = "") -> bool:
        """Take the previous site's `path` as it is, without its bytes, when the file index
        vouches that it holds `digest` (what the caller knows it would write); False (nothing
        done) when it cannot: then the caller writes the file."""
        if self.previous is None or path in self.written:
            return False
        try:
            st = (self.previous / path).stat()
        except OSError:
            return False
        if self._vouched(path, st) != digest or not self._link_previous(path, self._target(path)):
            return False
        self.written[path], self.digests[path] = owner or path, digest
        return True

    def _target(self, path: str) -> Path:
        """`path` in the staging folder, its folder made."""
        target = self.stage / path
        if target.parent not in self.folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.folders.add(target.parent)
        return target

    def _link_previous(self, path: str, target: Path) -> bool:
        try:
            os.link(self.previous / path, target)
        except OSError:
            return False
        self.reused += 1
        return True

    def _vouched(self, path: str, st: os.stat_result) -> bytes | None:
        """The digest the file index holds for `path` while the old file's stat still matches it."""
        known = self.index.get(path)
        return known[0] if known is not None and known[1:] == (st.st_size, st.st_mtime_ns, st.st_ino) else None

    def part(self) -> "Writer":
        """A writer into the same staging folder for a worker process; merge() its record() back."""
        part = copy.copy(self)
        part.written, part.digests, part.reused, part.parent_written = {}, {}, 0, self.written
        return part

    def staged(self, path: str) -> bool:
        """Whether this build has staged `path`: this writer, or the one it is a part of (in a
        forked child, as that one was at the fork)."""
        return path in self.written or path in self.parent_written

    def record(self) -> tuple:
        return self.written, self.digests, self.reused

    def merge(self, written: dict[str, str], digests: dict[str, bytes], reused: int) -> None:
        for path, owner in written.items():
            if path in self.written:
                raise BuildError(f"two outputs claim {path}: {self.written[path]} and {owner}")
            self.written[path] = owner
        self.digests.update(digests)
        self.reused += reused

    def write_json(self, path: str, obj, owner: str = "", packed: bool = False) -> None:
        """`obj` as canonical JSON at `path`, or (`packed`) as the pack file of `path`."""
        if packed:
            self.write_pack(path, canonical_json(obj), owner)
        else:
            self.write(path, canonical_json(obj), owner)

    def write_pack(self, path: str, data: bytes, owner: str = "") -> str:
        """Write bytes (JSON, or vectors' int8 rows) as the pack file of `path` (kernel/packs.py);
        returns its site path."""
        old = self.packs.get(path) if self.packs is not None else None
        packed = old[1] if old is not None and old[0] == data else pack(data)
        if self.packs is not None:
            self.packed[path] = (data, packed)
        self.write(packed_name(path), packed, owner)
        return packed_name(path)

    def staged_size(self, path: str) -> int:
        """Bytes of a file this build staged (written, or linked from the previous site)."""
        return (self.stage / path).stat().st_size

    def copy(self, source: Path, path: str) -> None:
        data = source.read_bytes()
        self.write(path, data, str(source))

    def _same(self, path: str, data: bytes, digest: bytes) -> bool:
        old = self.previous / path
        try:
            st = old.stat()
            if st.st_size != len(data):
                return False
            known = self._vouched(path, st)
            if known is not None:
                return known == digest
            return old.read_bytes() == data     # not in the index (or changed since): compare bytes
        except OSError:
            return False

    def commit(self) -> None:
        """Swap the staged site in. Between the two renames the old site is at `.NAME.old`;
        `recover()` puts it back if a build dies right there. The old tree is then removed
        in the background when there is a cache folder to move it into (deleting a large
        site takes seconds); otherwise right here."""
        old = self.out.parent / f".{self.out.name}.old"
        if old.exists():
            shutil.rmtree(old)
        if self.out.exists():
            os.rename(self.out, old)
        os.rename(self.stage, self.out)
        if self.packs is not None:
            self.packs.clear()
            self.packs.update(self.packed)
        if old.exists():
            _discard(old, self.cache)
        if self.cache is not None:
            self._save_index()

    def _save_index(self) -> None:
        index = {}
        for path, digest in self.digests.items():
            known = self.index.get(path)
            if known is not None and known[0] == digest:
                # most likely the old file linked in; if not, its stat differs and readers of the
                # index (_same, keep) compare bytes or render again: never trusted wrongly
                index[path] = [digest.hex(), *known[1:]]
                continue
            try:
                st = os.stat(self.out / path)
            except OSError:
                continue
            index[path] = [digest.hex(), st.st_size, st.st_mtime_ns, st.st_ino]
        file = self._index_file()
        file.parent.mkdir(parents=True, exist_ok=True)
        file.with_suffix(".pickle").unlink(missing_ok=True)   # an older bf's index: never read
        tmp = file.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"version": INDEX_VERSION, "files": index}, separators=(",", ":")), encoding="utf-8")
        os.chmod(tmp, 0o600)
        tmp.replace(file)

    def abort(self) -> None:
        shutil.rmtree(self.stage, ignore_errors=True)


INDEX_VERSION = 1


def _load_index(file: Path | None) -> dict:
    """site path → (sha256, size, mtime_ns, inode) of the committed site's files."""
    try:
        st = file.stat()
        if (hasattr(os, "getuid") and st.st_uid != os.getuid()) or st.st_mode & 0o022:
            return {}
        data = json.loads(file.read_bytes())
        if data.get("version") != INDEX_VERSION:
            return {}
        return {path: (bytes.fromhex(d), size, mtime, ino) for path, (d, size, mtime, ino) in data["files"].items()}
    except Exception:   # no or a damaged index only costs reading the old files
        return {}


def _discard(tree: Path, cache: Path | None) -> None:
    """Remove a folder: moved into the cache folder (same file system: out's parent) and deleted
    there in the background; synchronously when it cannot move. recover() retries leftovers."""
    if cache is not None:
        try:
            cache.mkdir(parents=True, exist_ok=True)
            trash = cache / f"trash-{os.getpid()}-{os.urandom(4).hex()}"
            os.rename(tree, trash)
            _remove_later(trash)
            return
        except OSError:
            pass
    shutil.rmtree(tree, ignore_errors=True)


def _remove_later(tree: Path) -> None:
    """`rm -rf` in a detached process (it outlives the build); in process where there is no rm."""
    try:
        subprocess.Popen(["rm", "-rf", str(tree)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        shutil.rmtree(tree, ignore_errors=True)


def recover(out: Path, cache: Path | None = None) -> None:
    """A build killed between its two renames leaves no `out` but `.out.old`: restore it.
    Also drop staging folders of dead builds, and old sites a background removal left behind."""
    old = out.parent / f".{out.name}.old"
    if not out.exists() and old.is_dir():
        os.rename(old, out)
    for stale in out.parent.glob(f".{out.name}.building-*"):
        pid = stale.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    if cache is not None and cache.is_dir():
        for trash in cache.glob("trash-*"):
            pid = trash.name.split("-")[1]
            if pid.isdigit() and not _alive(int(pid)):
                _remove_later(trash)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
