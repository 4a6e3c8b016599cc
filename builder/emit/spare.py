"""The folders around a build's staging folder (emit/writer.py): a watch session's spare site
(the site before the last, staged into again), the trash, and what a killed build or an ended
session left behind (recover)."""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .fileindex import Saved


@dataclass
class Spare:
    """What a watch session keeps between builds for the writer (emit/state.py): the site before
    the last one (a folder in the cache folder) with the files and folders it holds, the packs'
    JSON and bytes of the last build (a pack whose JSON is unchanged is not compressed again)
    and the file index it saved."""
    folder: Path | None = None
    files: set[str] = field(default_factory=set)
    folders: set[str] = field(default_factory=set)
    packs: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)
    saved: Saved = field(default_factory=Saved)


def recycle(spare: Spare | None, stage: Path) -> tuple[set[str], set[str]]:
    """A watch session's spare site moved in as the staging folder: its files and folders."""
    if spare is None or spare.folder is None:
        return set(), set()
    folder, spare.folder = spare.folder, None
    try:
        os.rename(folder, stage)
    except OSError:
        remove_later(folder)
        return set(), set()
    return spare.files, spare.folders


def keep_spare(old: Path, folder: Path, spare: Spare) -> bool:
    """Keep the replaced site as a watch session's spare at `folder` (in the cache folder: beside
    the site, on its file system), to stage the next build into."""
    files, folders = set(), {""}
    root = str(old) + os.sep
    for here, dirs, names in os.walk(old):
        rel = here[len(root):].replace(os.sep, "/")
        folders.update(f"{rel}/{d}" if rel else d for d in dirs)
        files.update(f"{rel}/{n}" if rel else n for n in names)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        if folder.exists():
            shutil.rmtree(folder)
        os.rename(old, folder)
    except OSError:
        return False
    spare.folder, spare.files, spare.folders = folder, files, folders
    return True


def stage_spare(out: Path, cache: Path, spare: Spare) -> bool:
    """A watch session's first spare, made from the site itself: its files hard-linked into the
    cache folder. The first rebuild would otherwise stage into an empty folder and link every
    file it keeps there, on the path from a save to the page's reload. The
    links are the site's own inodes, which the file index vouches for; a build replaces a file
    of its staging folder by moving it away, never by writing into it, so the site is untouched."""
    if spare.folder is not None or not out.is_dir():
        return False
    folder = cache / f"spare-{os.getpid()}-{out.name}"
    linking = folder.with_name(folder.name + ".linking")
    try:
        shutil.rmtree(linking, ignore_errors=True)
        cache.mkdir(parents=True, exist_ok=True)
        shutil.copytree(out, linking, symlinks=True, copy_function=os.link)
    except (OSError, shutil.Error):
        remove_later(linking)
        return False
    return keep_spare(linking, folder, spare)


def remove_later(tree: Path) -> None:
    """`rm -rf` in a detached process (it outlives the build); in process where there is no rm."""
    try:
        subprocess.Popen(["rm", "-rf", str(tree)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        shutil.rmtree(tree, ignore_errors=True)


def recover(out: Path, cache: Path | None = None) -> None:
    """A build killed between its two renames leaves no `out` but `.out.old`: restore it.
    Also drop staging folders of dead builds, old sites a background removal left behind and
    the spares of ended watch sessions."""
    old = out.parent / f".{out.name}.old"
    if not out.exists() and old.is_dir():
        os.rename(old, out)
    for stale in out.parent.glob(f".{out.name}.building-*"):
        pid = stale.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    if cache is not None and cache.is_dir():
        for trash in [*cache.glob("trash-*"), *cache.glob("spare-*")]:   # spare: keep_spare
            pid = trash.name.split("-")[1]
            if pid.isdigit() and not alive(int(pid)):
                remove_later(trash)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
