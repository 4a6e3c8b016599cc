"""A cheap fingerprint of a brain folder (size and mtime of every file) to tell a reply is stale (docs/site.md#staleness).

Shared by the build (which records it) and the query engine (which compares it); it never parses files.

The cold path of a query must not stat every file (there may be 60,000): Staleness reads
folders' listings for files added or removed, stats only brain.toml, the unpublished files and
the files of a reply's items, and lists a source folder only when its own signature changed, it
changed in the last `RECENT_NS`, or it holds a subfolder: collectors rename records into place,
which always changes their folder's mtime. What this cannot see is in docs/site.md#staleness.
Only published files are listed by name (docs/site.md#staleness): every other file of a folder
(drafts, private notes, `.bfignore`d paths, unpublished sources) is only counted, and folded
into a digest of their stat signatures without their paths (`private_sign`).
The files of each folder ("" for those outside the source folders) are kept in SHARDS files by
a hash of their path, so an edit or a new record rewrites one of them, not a chat folder's
whole list of 50,000 records.
"""
from __future__ import annotations

import hashlib
import os
import stat
import time
import zlib
from pathlib import Path

from .canon import canonical_json
from .formats import FINGERPRINT_FORMAT
from .refs import escape_segment

SHARDS = 8
MEMORIES = "memories"
CACHE_DIR = ".bf-cache"   # the build's cache folder, beside --out (build.cache_path)
RECENT_NS = 5_000_000_000   # a folder changed this recently may still change within its mtime tick


def fingerprint_main(brain: str) -> str:
    """Site path (before packing: a pack file, `….json.gz`) of the brain's fingerprint."""
    return f"_bf/{brain}/fingerprint.json"   # unescaped, as site/engine/site.js looks for it


def fingerprint_files(brain: str, folder: str, shard: int) -> str:
    """Site path (before packing) of one shard of the build's files of `folder`: a source folder
    (`memories/SOURCE`), or "" for every file outside them."""
    where = "files" if not folder else "/".join(map(escape_segment, folder.split("/")))
    return f"_bf/{escape_segment(brain)}/fingerprint/{where}/{shard}.json"


def shard_of(rel: str) -> int:
    return zlib.crc32(rel.encode("utf-8", "surrogateescape")) % SHARDS


def _walk(root: Path, rel_dir: str, files: dict, dirs: dict | None, skip: frozenset = frozenset(),
          enter: bool = False, sign: bool = True) -> None:
    """Every file below `rel_dir` into `files`; with `dirs`, sign source folders and stop there
    (`enter`: go on into them). `skip`: brain-relative folders left out (a site built inside
    its brain, `--out docs`). `sign=False`: files by name only (None), read from the folder's
    listing without a stat each: what a cold query can afford at 60,000 files."""
    stack = [rel_dir]
    while stack:
        rel_dir = stack.pop()
        try:
            entries = list(os.scandir(root / rel_dir if rel_dir else root))
        except OSError:
            continue
        for entry in entries:
            if _unlisted(entry.name, rel_dir):
                continue
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if rel in skip:
                continue
            try:
                folder = entry.is_dir(follow_symlinks=False)
                if not folder and not sign:
                    files[rel] = None
                    continue
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not folder:
                files[rel] = _file(st.st_size, st.st_mtime_ns)
                continue
            if dirs is not None and rel_dir == MEMORIES:
                dirs[rel] = _signature(st)
                if not enter:
                    continue
            stack.append(rel)


def _unlisted(name: str, rel_dir: str) -> bool:
    return name.startswith(".") or (not rel_dir and name in ("_site", CACHE_DIR))


def _file(size: int, mtime_ns: int) -> str:
    return f"{size}:{mtime_ns}"


def _signature(st: os.stat_result) -> str:
    return _folder(st.st_mtime_ns, st.st_size, st.st_nlink)


def _folder(mtime_ns: int, size: int, links: int) -> str:
    """mtime:size of a source folder, ":sub" when it may hold a folder (whose changes its mtime does
    not show). A folder's link count is 2 + its subfolders on POSIX file systems; any other count
    (some report 1) is treated as "may hold one", without listing it."""
    return f"{mtime_ns}:{size}" + ("" if links == 2 else ":sub")


def recorded(root: Path, skip: list[str] = ()) -> tuple[dict, dict[str, dict]]:
    """What a build records: {format, dirs (source folders' signatures), skip (the site's own
    folder when it is inside the brain: its files are the build's, not the brain's)}, and per
    folder its files ("": those outside the source folders) — kept apart, so a query loads only
    the folders it lists."""
    files: dict[str, str] = {}
    dirs: dict[str, str] = {}
    _walk(Path(root), "", files, dirs, frozenset(skip), enter=True)
    split = Listing.split(files, dirs)
    main = split.main()
    if skip:
        main["skip"] = sorted(skip)
    return main, {folder: mine.files for folder, mine in split.folders.items()}


class Files:
    """One folder's {path: signature}, in SHARDS dicts by shard_of(path); each shard's JSON is
    made once per shard dict, and a watch rebuild keeps the object while the folder's files are
    unchanged (Listing.split), or the shards an edit did not touch (put)."""

    def __init__(self, files: dict[str, str] | None = None, shards: list[dict] | None = None):
        if shards is None:
            shards = [{} for _ in range(SHARDS)]
            for rel, sign in (files or {}).items():
                shards[shard_of(rel)][rel] = sign
        self.shards, self._json, self._own = shards, [None] * SHARDS, set(range(SHARDS))

    @property
    def files(self) -> dict[str, str]:
        return {rel: sign for shard in self.shards for rel, sign in shard.items()}

    def copy(self) -> "Files":
        """The same files, sharing every shard (and its JSON) until put() changes it."""
        other = Files(shards=list(self.shards))
        other._json, other._own = list(self._json), set()
        return other

    def put(self, rel: str, sign: str | None) -> None:
        """Set `rel`'s signature (None: it went), in a shard of its own."""
        k = shard_of(rel)
        if k not in self._own:
            self.shards[k] = dict(self.shards[k])
            self._own.add(k)
        self._json[k] = None
        if sign is None:
            self.shards[k].pop(rel, None)
        else:
            self.shards[k][rel] = sign

    def encoded(self, k: int) -> bytes:
        """Shard k's JSON as every JSON file of the site is written."""
        if self._json[k] is None:
            self._json[k] = canonical_json(self.shards[k])
        return self._json[k]


class Listing:
    """What the fingerprint records of a brain: `dirs` (source folders' signatures), `folders`
    (per source folder its Files, and "" the Files of all others); `seen`: what discovery saw
    (listing()), to patch it from."""

    def __init__(self, dirs: dict[str, str], folders: dict[str, Files], seen: tuple = ()):
        self.dirs, self.folders, self.seen = dirs, folders, seen

    def main(self) -> dict:
        return {"format": FINGERPRINT_FORMAT, "dirs": self.dirs}

    @staticmethod
    def split(files: dict[str, str], dirs: dict[str, str], kept: dict | None = None) -> "Listing":
        """`files` (every file) apart by folder; a folder whose files are those of its Files in
        `kept` keeps that object."""
        folders: dict[str, dict] = {"": {}, **{folder: {} for folder in dirs}}
        for rel, sign in files.items():
            folder = _folder_of(rel)
            folders[folder if folder in folders else ""][rel] = sign
        kept = kept or {}
        return Listing(dirs, {folder: kept[folder] if folder in kept and kept[folder].files == mine else Files(mine)
                              for folder, mine in folders.items()})

    def patched(self, changes: dict[str, str | None], dirs: dict[str, str]) -> "Listing":
        """This listing with the files `changes` (path → its signature, None when it went) and
        the same source folders signed `dirs`: a copy of the Files they are in (only their
        shards that changed are new); every Files they are not in is kept, the same object."""
        folders = dict(self.folders)
        for rel, sign in changes.items():
            folder = _folder_of(rel)
            folder = folder if folder in folders else ""
            if folders[folder] is self.folders[folder]:
                folders[folder] = folders[folder].copy()
            folders[folder].put(rel, sign)
        return Listing(dirs, folders)


def _folder_of(rel: str) -> str | None:
    """The source folder a file would be in: memories/SOURCE/…"""
    parts = rel.split("/", 2)
    return f"{MEMORIES}/{parts[1]}" if len(parts) == 3 and parts[0] == MEMORIES else None


def listing(root: Path, stats: dict[str, tuple], others: dict[str, tuple], unread: list[str],
            kept: Listing | None = None) -> Listing:
    """What recorded(root) records, from what discovery saw (brain/discover.py): `stats`, each
    regular file's (mtime, ctime, size, inode); `others`, every other entry it looked at:
    (folder?, size, mtime, links); `unread`, the entries it did not look at or into, which are
    walked here. `kept`: the last call's Listing, patched with the files whose stat changed
    when the same source folders are there and nothing was left unread."""
    extra: dict[str, str] = {}
    dirs: dict[str, str] = {}
    for rel, (folder, size, mtime, links) in others.items():
        if not folder:
            extra[rel] = _file(size, mtime)
        elif rel.rpartition("/")[0] == MEMORIES:
            dirs[rel] = _folder(mtime, size, links)
    if kept is not None and kept.seen and not unread and dirs.keys() == kept.dirs.keys():
        old, old_extra = kept.seen
        changes = {rel: _file(st[2], st[0]) for rel, st in stats.items() if old.get(rel) != st}
        if len(stats) - len(changes) < len(old):   # some went
            changes.update((rel, None) for rel in old.keys() - stats.keys())
        if extra != old_extra:
            changes.update((rel, extra.get(rel)) for rel in extra.keys() | old_extra.keys() if extra.get(rel) != old_extra.get(rel))
        done = kept.patched(changes, dirs) if changes or dirs != kept.dirs else kept
        done.seen = (stats, extra)
        return done
    files = {rel: _file(st[2], st[0]) for rel, st in stats.items()}
    files.update(extra)
    for rel in unread:
        parent, _, name = rel.rpartition("/")
        if _unlisted(name, parent):
            continue
        try:
            st = os.lstat(root / rel)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            files[rel] = _file(st.st_size, st.st_mtime_ns)
            continue
        if parent == MEMORIES:
            dirs[rel] = _signature(st)
        _walk(root, rel, files, dirs, enter=True)
    done = Listing.split(files, dirs, kept.folders if kept is not None else None)
    done.seen = () if unread else (stats, extra)   # what was walked here is not patched: walk again
    return done


def private_sign(files: dict[str, str]) -> list:
    """[how many, digest of their stat signatures]: files not listed by name. Their paths are
    left out of the digest, so it cannot be tested against a guessed name."""
    digest = hashlib.sha256("\n".join(sorted(files.values())).encode())
    return [len(files), digest.hexdigest()]


def _private_changed(before: list | None, now: dict[str, str]) -> int:
    """How many unlisted files changed, as far as their count and digest tell: the count's
    difference, else 1 when the digest differs."""
    count, digest = before if isinstance(before, list) and len(before) == 2 else (0, "")
    if len(now) != count:
        return abs(len(now) - count)
    return int(bool(now) and private_sign(now)[1] != digest)


def _sign_of(root: Path, rel: str) -> str | None:
    try:
        st = os.lstat(root / rel)
    except OSError:
        return None
    return _file(st.st_size, st.st_mtime_ns)


class Staleness:
    """What changed in a brain since the build recorded `before` (docs/replies.md#problems-and-staleness),
    as a cold query can afford to ask: files added or removed anywhere (a walk that reads
    folders' listings without a stat per file, and a source folder only when its own signature
    moved, as the build signed it), every file the site does not publish (counted and signed:
    private_sign) and brain.toml; a published file edited in place only when a reply returns
    its item (`changed(paths)`). `files_of(folder, shard=None)`: the build's published files of
    a source folder, or of all others for "" (one shard of them with `shard`)."""

    def __init__(self, root: Path, before: dict, files_of):
        self.root, self.files_of = Path(root), files_of
        files: dict[str, str | None] = {}
        dirs: dict[str, str] = {}
        skip = frozenset(before.get("skip", ()))
        _walk(self.root, "", files, dirs, skip, sign=False)
        private = before.get("private", {})
        private = private if isinstance(private, dict) else {}
        old_dirs = before.get("dirs", {})
        now = time.time_ns()
        self.listed = {"": files_of("") or {}}
        self.moved = set()   # source folders listed again (their files compared here already)
        rest: dict[str, str] = {}   # the files of folders no source folder of the build holds
        n = 0
        for folder in sorted(old_dirs.keys() | dirs.keys()):
            sign = dirs.get(folder)
            if sign == old_dirs.get(folder) and not sign.endswith(":sub") and now - int(sign.split(":")[0]) > RECENT_NS:
                continue
            inside: dict[str, str] = {}
            if sign is not None:
                _walk(self.root, folder, inside, None, skip)
            if folder not in old_dirs:   # a new source folder, or one the build did not publish
                rest.update(inside)
                continue
            self.moved.add(folder)
            n += _compared(files_of(folder) or {}, inside, private.get(folder))
        listed = self.listed[""]
        gone = sum(1 for rel in listed if rel not in files)
        others = {rel: _sign_of(self.root, rel) for rel in files if rel not in listed}
        others = {rel: sign for rel, sign in others.items() if sign is not None}
        others.update(rest)
        toml = "brain.toml"
        edited = int(toml in listed and toml in files and _sign_of(self.root, toml) != listed[toml])
        self.base = n + gone + edited + _private_changed(private.get(""), others)
        self.present = files

    def changed(self, paths=()) -> int:
        """How many files changed, counting a published file edited in place among `paths` (the
        brain-relative files of a reply's items)."""
        n = self.base
        for rel in set(paths):
            folder = _folder_of(rel)
            if folder in self.moved or rel == "brain.toml":
                continue   # compared whole already
            if folder is None:
                listed = self.listed[""]
                if rel in listed and rel in self.present and _sign_of(self.root, rel) != listed[rel]:
                    n += 1
                continue
            key = (folder, shard_of(rel))
            if key not in self.listed:
                self.listed[key] = self.files_of(folder, key[1]) or {}
            old = self.listed[key].get(rel)
            if old is not None and _sign_of(self.root, rel) != old:
                n += 1
        return n


def _compared(listed: dict[str, str], now: dict[str, str], private: list | None) -> int:
    """Changes of a folder's listed files, and of the rest against its private digest."""
    mine = {rel: sign for rel, sign in now.items() if rel in listed}
    others = {rel: sign for rel, sign in now.items() if rel not in listed}
    return changed(listed, mine) + _private_changed(private, others)


def changed(before: dict[str, str], now: dict[str, str]) -> int:
    """How many files were added, removed or modified."""
    return sum(1 for k in before.keys() | now.keys() if before.get(k) != now.get(k))


def published_files(brain) -> set[str]:
    """The brain's files the site names anyway: its published notes, records and attachments,
    the files its look copies, brain.toml and the published sources' status files."""
    out = set(brain.notes) | set(brain.attachments) | set(brain.config.site.files()) | {"brain.toml"}
    out.update(rec.path for rec in brain.records.values())
    out.update(f"{MEMORIES}/{name}/_source.json" for name in brain.sources)
    return out


def published_only(main: dict, folders: dict[str, "Files"], published: set[str], sources: set[str]) -> tuple[dict, dict]:
    """The fingerprint's main part and folders with only `published` files by name: each
    folder's others folded into main["private"][folder] (private_sign), and the folders of
    sources not among `sources` (none of their files is published) folded into ""."""
    dirs = {folder: sign for folder, sign in main["dirs"].items() if folder.split("/", 1)[1] in sources}
    rest = {rel: sign for folder, files in folders.items() if folder and folder not in dirs
            for rel, sign in files.files.items()}
    out, private = {}, {}
    for folder, files in folders.items():
        if folder and folder not in dirs:
            continue
        mine = files.files
        hidden = {rel: sign for rel, sign in mine.items() if rel not in published}
        out[folder] = files if not hidden else Files({rel: sign for rel, sign in mine.items() if rel in published})
        private[folder] = hidden
    private[""] = {**private.get("", {}), **rest}
    out.setdefault("", Files())
    main = {**main, "dirs": dirs, "private": {folder: private_sign(hidden) for folder, hidden in private.items() if hidden}}
    return main, out


def write_fingerprint(writer, brain) -> None:
    """Through `writer` (emit/writer.py): what staleness compares against, the source folders'
    signatures, and each folder's files apart (a source folder's read only when it changed), in
    shards, as pack files: a path and its stat signature compress 4× (3 of 4 MB at 10k notes +
    50k records). What discovery saw (brain.listing) is recorded: the files the build read,
    without walking them again. A site built inside its brain (`--out docs`) is not the
    brain's: the previous site must not count."""
    root = Path(brain.root)
    try:
        skip = [writer.out.resolve().relative_to(root).as_posix()]
    except ValueError:
        skip = []
    if skip or brain.listing is None:
        main, records = recorded(root, skip)
        records = {folder: Files(files) for folder, files in records.items()}
    else:
        main, records = brain.listing.main(), brain.listing.folders
    main, records = published_only(main, records, published_files(brain), set(brain.sources))
    writer.write_json(fingerprint_main(brain.name), main, brain.name, packed=True)
    for folder, files in records.items():
        for k in range(SHARDS):
            if files.shards[k]:   # a missing shard reads as empty
                writer.write_pack(fingerprint_files(brain.name, folder, k), files.encoded(k), brain.name)
