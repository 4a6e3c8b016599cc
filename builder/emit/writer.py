"""The one write path of a build: into a staging folder, refusing two outputs for one file,
reusing the previous site's file when the bytes are the same, then swapping the staging
folder in atomically (docs/site.md#atomic-builds).

Each written file's sha256 is kept (the manifest's build_id hashes them; nothing is read back).
With a cache folder, the digests of the site just committed are saved there (emit/fileindex.py)
with each file's size, mtime and inode: the next build compares bytes with the previous site
through that index instead of reading every old file, and trusts an entry only while the file's
stat still matches it (a hand-edited site is never mistaken for the index's version).

A watch rebuild (a `Spare` kept in its BuildState) stages into the site before the last one,
moved out of the cache folder: a file there whose stat matches the index's entry is the
committed site's own file (a hard link to it), so a file this build would give the same bytes
is left in place, and only files that changed are replaced (the old one moved out first: never
written through a link into the live site) or removed. Without a spare, the staging folder starts
empty and every unchanged file is linked in from the previous site. Either way the live site
is never touched before the swap, and a killed build leaves only a staging folder that
recover() removes."""
from __future__ import annotations

import copy
import hashlib
import os
import posixpath
import shutil
from pathlib import Path

from ..kernel.canon import canonical_json
from ..kernel.errors import BuildError
from ..kernel.packs import pack, pack_all, packed_name
from .fileindex import load_index, save_index
from .spare import Spare, keep_spare, recycle, remove_later


class Writer:
    def __init__(self, out: Path, cache: Path | None = None, spare: Spare | None = None):
        self.out, self.cache, self.spare = out, cache, spare
        self.packed = {}
        self.stage = out.parent / f".{out.name}.building-{os.getpid()}"
        self.root = str(self.stage) + os.sep
        self.previous = out if out.is_dir() else None
        self.written: dict[str, str] = {}     # site path → who wrote it
        self.digests: dict[str, bytes] = {}   # site path → sha256 of its bytes
        self.parent_written: dict[str, str] = {}   # a part's: its parent's `written` (see staged)
        self.reused = 0
        self.index = load_index(self._index_file(), spare and spare.saved) if self.previous is not None else {}
        if self.stage.exists():
            shutil.rmtree(self.stage)
        self.recycled, self.folders = recycle(spare, self.stage)
        self.stage.mkdir(parents=True, exist_ok=True)
        # recycled files replaced or left over go here, removed in the background after the swap:
        # freeing a file's blocks can take a millisecond or more (it did on this ext4 with discard)
        self.trash = cache / f"trash-{os.getpid()}-{os.urandom(4).hex()}" if self.recycled else None
        if self.trash is not None:
            self.trash.mkdir(parents=True)

    def _index_file(self) -> Path | None:
        return self.cache / f"{self.out.name}.files.json" if self.cache else None

    def write(self, path: str, data: bytes | str, owner: str = "") -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        target = self._claim(path, data, owner)
        if target is not None:
            with open(target, "xb") as fh:
                fh.write(data)

    def link(self, source: Path, path: str) -> None:
        """copy() a file another program wrote on the staging folder's file system (pagefind's
        bundles), as a hard link where the staging folder needs its bytes: its caller then
        removes `source` without freeing the file. On this ext4 without a journal, creating a
        file costs up to 20 times more while many were freed in the last minutes (docs/decisions.md)."""
        data = source.read_bytes()
        target = self._claim(path, data, str(source))
        if target is None:
            return
        try:
            os.link(source, target)
        except OSError:   # another file system after all
            with open(target, "xb") as fh:
                fh.write(data)

    def _claim(self, path: str, data: bytes, owner: str) -> str | None:
        """Take `path` for `data`: where in the staging folder to put the bytes, or None when
        they are there already (recycled in place, or linked from the previous site)."""
        if path in self.written:
            raise BuildError(f"two outputs claim {path}: {self.written[path]} and {owner}")
        self.written[path] = owner or path
        digest = self.digests[path] = hashlib.sha256(data).digest()
        if self._in_place(path, digest):
            return None
        target = self._target(path)
        if self.previous is not None and self._same(path, data, digest) and self._link_previous(path, target):
            return None
        return target

    def keep(self, path: str, digest: bytes, owner: str = "") -> bool:
        """Take the previous site's `path` as it is, without its bytes, when the file index
        vouches that it holds `digest` (what the caller knows it would write); False (nothing
        done) when it cannot: then the caller writes the file."""
        if self.previous is None or path in self.written:
            return False
        if not self._in_place(path, digest):
            try:
                st = os.stat(f"{self.previous}/{path}")
            except OSError:
                return False
            if self._vouched(path, st) != digest or not self._link_previous(path, self._target(path)):
                return False
        self.written[path], self.digests[path] = owner or path, digest
        return True

    def keep_all(self, wanted: dict[str, bytes]) -> list[str]:
        """keep() each path of `wanted` (site path → digest): the paths it could not keep."""
        return [path for path, digest in wanted.items() if not self.keep(path, digest, path)]

    def _in_place(self, path: str, digest: bytes) -> bool:
        """Whether the recycled staging folder already holds `path` with `digest` (the committed
        site's file, by the index); if it holds another file there, that one is removed."""
        if path not in self.recycled:
            return False
        staged = self.root + path
        try:
            if self._vouched(path, os.stat(staged)) == digest:
                self.reused += 1
                return True
        except (FileNotFoundError, NotADirectoryError):   # not there (gone with its folder: _target)
            return False
        self._drop(path)
        return False

    def _drop(self, path: str) -> None:
        """Move the recycled file at `path` out of the staging folder, into the trash."""
        os.rename(self.root + path, f"{self.trash}/{path.replace('/', '%')}")

    def _target(self, path: str) -> str:
        """`path` in the staging folder, its folder made."""
        folder = posixpath.dirname(path)
        if folder not in self.folders:
            try:
                os.makedirs(self.root + folder, exist_ok=True)
            except (FileExistsError, NotADirectoryError):   # a recycled file where a folder goes now
                self._clear_way(folder)
            self.folders.add(folder)
        target = self.root + path
        if path in self.folders:           # a recycled folder where a file goes now
            self._drop(path)
            self.folders.discard(path)
        return target

    def _clear_way(self, folder: str) -> None:
        """Remove the recycled files standing where `folder` and its parents go, then make it."""
        parts = folder.split("/")
        for i in range(1, len(parts) + 1):
            here = self.root + "/".join(parts[:i])
            if os.path.lexists(here) and not os.path.isdir(here):
                self._drop(here[len(self.root):])
        os.makedirs(self.root + folder, exist_ok=True)

    def _link_previous(self, path: str, target: str) -> bool:
        try:
            os.link(f"{self.previous}/{path}", target)
        except OSError:
            return False
        self.reused += 1
        return True

    def _vouched(self, path: str, st: os.stat_result) -> bytes | None:
        """The digest the file index holds for `path` while the file's stat still matches it."""
        known = self.index.get(path)
        return known[0] if known is not None and known[1:] == (st.st_size, st.st_mtime_ns, st.st_ino) else None

    def part(self) -> "Writer":
        """A writer into the same staging folder for a worker process; merge() its record() back."""
        part = copy.copy(self)
        part.written, part.digests, part.reused, part.parent_written = {}, {}, 0, self.written
        return part

    def plan(self) -> tuple:
        """What a writer into this build's staging folder needs in another process (from_plan)."""
        return self.out, self.cache, self.stage, self.previous, self.trash, self.recycled, self.folders, self.index

    @classmethod
    def from_plan(cls, plan: tuple, spare: Spare | None) -> "Writer":
        """A part (see part()) of the writer that made `plan`, in a process it did not fork
        (runner.py's search worker); `spare`: that process's own, for its packs."""
        part = cls.__new__(cls)
        part.out, part.cache, part.stage, part.previous, part.trash, part.recycled, part.folders, part.index = plan
        part.root, part.spare, part.packed = str(part.stage) + os.sep, spare, {}
        part.written, part.digests, part.reused, part.parent_written = {}, {}, 0, {}
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

    def write_pack(self, path: str, data: bytes, owner: str = "", packed: bytes | None = None) -> str:
        """Write bytes (JSON, or vectors' int8 rows) as the pack file of `path` (kernel/packs.py);
        returns its site path. `packed`: pack(data), when the caller made it (write_packs)."""
        old = self.spare.packs.get(path) if self.spare is not None else None
        if packed is None:
            packed = old[1] if old is not None and old[0] == data else pack(data)
        if self.spare is not None:
            self.packed[path] = (data, packed)
        self.write(packed_name(path), packed, owner)
        return packed_name(path)

    def write_packs(self, items: list[tuple[str, bytes]], owner: str = "") -> list[str]:
        """write_pack each (path, bytes), those the last build did not pack compressed in threads."""
        packs = self.spare.packs if self.spare is not None else {}
        todo = [data for path, data in items if packs.get(path, (None,))[0] != data]
        made = dict(zip(map(id, todo), pack_all(todo)))
        return [self.write_pack(path, data, owner, made.get(id(data))) for path, data in items]

    def staged_size(self, path: str) -> int:
        """Bytes of a file this build staged (written, or kept from the previous site)."""
        return os.stat(self.root + path).st_size

    def copy(self, source: Path, path: str) -> None:
        data = source.read_bytes()
        self.write(path, data, str(source))

    def _same(self, path: str, data: bytes, digest: bytes) -> bool:
        old = f"{self.previous}/{path}"
        try:
            st = os.stat(old)
            if st.st_size != len(data):
                return False
            known = self._vouched(path, st)
            if known is not None:
                return known == digest
            with open(old, "rb") as fh:     # not in the index (or changed since): compare bytes
                return fh.read() == data
        except OSError:
            return False

    def commit(self) -> None:
        """Swap the staged site in. Between the two renames the old site is at `.NAME.old`;
        `recover()` puts it back if a build dies right there. The old tree is then a watch
        session's spare, or removed in the background when there is a cache folder to move it
        into (deleting a large site takes seconds); otherwise right here."""
        self._sweep()
        old = self.out.parent / f".{self.out.name}.old"
        if old.exists():
            shutil.rmtree(old)
        if self.out.exists():
            os.rename(self.out, old)
        os.rename(self.stage, self.out)
        if self.spare is not None:
            self.spare.packs = self.packed
        if old.exists() and not (self.spare is not None and self.cache is not None
                                 and keep_spare(old, self.cache / f"spare-{os.getpid()}-{self.out.name}", self.spare)):
            _discard(old, self.cache)
        if self.trash is not None:
            remove_later(self.trash)
        if self.cache is not None:
            save_index(self._index_file(), self.out, self.digests, self.index, self.spare and self.spare.saved)

    def _sweep(self) -> None:
        """Remove the recycled files this build did not write, and the folders that leaves empty."""
        folders = set()
        for path in self.recycled.difference(self.written):
            try:
                self._drop(path)
            except (FileNotFoundError, NotADirectoryError):   # gone with its folder (_target)
                pass
            folders.add(posixpath.dirname(path))
        for folder in sorted(folders, key=len, reverse=True):   # the deepest first
            while folder:
                try:
                    os.rmdir(self.root + folder)
                except OSError:             # not empty (or already gone with a deeper one's parent)
                    break
                folder = posixpath.dirname(folder)

    def abort(self) -> None:
        """Drop the staging folder: a watch session's spare again (its files are trusted only where
        the file index vouches for them, as a spare's are), else removed in the background; either
        way the next build need not wait (bf serve stops a build made moot by a newer save)."""
        spare = self.cache / f"spare-{os.getpid()}-{self.out.name}" if self.cache is not None else None
        if not (self.spare is not None and spare is not None and keep_spare(self.stage, spare, self.spare)):
            _discard(self.stage, self.cache)
        if self.trash is not None:
            remove_later(self.trash)


def _discard(tree: Path, cache: Path | None) -> None:
    """Remove a folder: moved into the cache folder (same file system: out's parent) and deleted
    there in the background; synchronously when it cannot move. recover() retries leftovers."""
    if cache is not None:
        try:
            cache.mkdir(parents=True, exist_ok=True)
            trash = cache / f"trash-{os.getpid()}-{os.urandom(4).hex()}"
            os.rename(tree, trash)
            remove_later(trash)
            return
        except OSError:
            pass
    shutil.rmtree(tree, ignore_errors=True)
