"""The one write path of a build: into a staging folder, refusing two outputs for one file,
reusing (hard-linking) the previous site's file when the bytes are the same, then swapping
the staging folder in atomically (SPEC §10)."""
from __future__ import annotations

import copy
import json
import os
import shutil
from pathlib import Path

from ..errors import BuildError


def canonical_json(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Writer:
    def __init__(self, out: Path):
        self.out = out
        self.stage = out.parent / f".{out.name}.building-{os.getpid()}"
        self.previous = out if out.is_dir() else None
        self.written: dict[str, str] = {}     # site path → who wrote it
        self.reused = 0
        if self.stage.exists():
            shutil.rmtree(self.stage)
        self.stage.mkdir(parents=True)

    def write(self, path: str, data: bytes | str, owner: str = "") -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        if path in self.written:
            raise BuildError(f"two outputs claim {path}: {self.written[path]} and {owner}")
        self.written[path] = owner or path
        target = self.stage / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if self.previous is not None and self._same(path, data):
            try:
                os.link(self.previous / path, target)
                self.reused += 1
                return
            except OSError:
                pass
        target.write_bytes(data)

    def part(self) -> "Writer":
        """A writer into the same staging folder for a worker process; merge() its record back."""
        part = copy.copy(self)
        part.written, part.reused = {}, 0
        return part

    def merge(self, written: dict[str, str], reused: int) -> None:
        for path, owner in written.items():
            if path in self.written:
                raise BuildError(f"two outputs claim {path}: {self.written[path]} and {owner}")
            self.written[path] = owner
        self.reused += reused

    def write_json(self, path: str, obj, owner: str = "") -> None:
        self.write(path, canonical_json(obj), owner)

    def copy(self, source: Path, path: str) -> None:
        data = source.read_bytes()
        self.write(path, data, str(source))

    def _same(self, path: str, data: bytes) -> bool:
        old = self.previous / path
        try:
            return old.stat().st_size == len(data) and old.read_bytes() == data
        except OSError:
            return False

    def commit(self) -> None:
        """Swap the staged site in. Between the two renames the old site is at `.NAME.old`;
        `recover()` puts it back if a build dies right there."""
        old = self.out.parent / f".{self.out.name}.old"
        if old.exists():
            shutil.rmtree(old)
        if self.out.exists():
            os.rename(self.out, old)
        os.rename(self.stage, self.out)
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)

    def abort(self) -> None:
        shutil.rmtree(self.stage, ignore_errors=True)


def recover(out: Path) -> None:
    """A build killed between its two renames leaves no `out` but `.out.old`: restore it.
    Also drop staging folders of dead builds."""
    old = out.parent / f".{out.name}.old"
    if not out.exists() and old.is_dir():
        os.rename(old, out)
    for stale in out.parent.glob(f".{out.name}.building-*"):
        pid = stale.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
