"""Open a built site: manifest, version check, reply files, staleness (docs/replies.md#paths-the-site-and-output, docs/site.md#staleness)."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..kernel.bundle import BUNDLE_VERSION, MANIFEST
from ..bm25.pipeline import WordMemo
from ..kernel import packs, refs
from ..kernel.canon import parsed
from ..kernel.errors import IndexMissing
from ..kernel.fingerprint import FINGERPRINT_FORMAT, SHARDS, Staleness, fingerprint_files, fingerprint_main
from .data import BrainData

def find_site(site: str | None) -> Path:
    return Path(site or os.environ.get("BF_SITE") or "_site")


@dataclass
class Site:
    path: Path
    manifest: dict
    _stale: dict = field(default_factory=dict)
    _data: dict = field(default_factory=dict)     # brain → BrainData (its packs, loaded on demand)
    stores: dict = field(default_factory=dict)    # brain → store.BrainStore (store.open_store)
    words: WordMemo = field(default_factory=WordMemo)   # the analysis of the words its searches read
    vector_table: object = None   # vectorstore.Table, read on first use (vectorstore.table)

    @property
    def build_id(self) -> str:
        return self.manifest["build_id"]

    @property
    def as_of(self) -> str:
        return self.manifest["as_of"]

    @property
    def brains(self) -> list[dict]:
        return self.manifest["brains"]

    def brain_names(self) -> list[str]:
        return [b["name"] for b in self.brains]

    def brain(self, name: str) -> dict | None:
        return next((b for b in self.brains if b["name"] == name), None)

    def load_json(self, rel: str, packed: bool = False) -> dict | None:
        """A file of the site (the pack file of `rel` when `packed`, builder/kernel/packs.py), or None
        when it is missing or unreadable. `rel` comes from refs.ref_file or the data layout only."""
        try:
            return parsed(packs.read(self.path, rel, packed))
        except (OSError, ValueError):
            return None

    def load_raw(self, rel: str, packed: bool = False) -> bytes | None:
        """load_json's file as its UTF-8 bytes, unparsed (BrainData cuts a record's pages from
        them), or None."""
        try:
            return packs.read(self.path, rel, packed)
        except (OSError, ValueError):
            return None

    def brain_data(self, brain: str) -> BrainData:
        if brain not in self._data:
            self._data[brain] = BrainData(self.load_json, brain, self.load_raw)
        return self._data[brain]

    def reply(self, brain: str, ref: str, *variant: str) -> dict | None:
        """A reply page: from the brain's compact data, or from its own file (notes, home)."""
        handled, page = self.brain_data(brain).reply(ref, variant)
        return page if handled else self.load_json(refs.ref_file(brain, ref, *variant))

    def available(self, brain: str) -> bool:
        return (self.path / refs.ref_file(brain, "home")).is_file() or (self.path / packs.packed_name(fingerprint_main(brain))).is_file()

    def _files_of(self, brain: str, folder: str, shard: int | None = None) -> dict:
        """The build's files of `folder` (kernel/fingerprint.py): its shards joined, or one."""
        files: dict = {}
        for k in range(SHARDS) if shard is None else (shard,):
            part = self.load_json(fingerprint_files(brain, folder, k), packed=True)
            files.update(part if isinstance(part, dict) else {})
        return files

    def stale(self, brain: str, paths=()) -> dict | None:
        """{built_at, changed} when the brain folder is here and differs from the build, as far
        as kernel/fingerprint.Staleness sees it for a reply returning the files `paths`; else None."""
        if brain not in self._stale:
            info = self.brain(brain) or {}
            root = Path(info.get("root", ""))
            before = self.load_json(fingerprint_main(brain), packed=True)
            found = None
            if info.get("root") and root.is_dir() and isinstance(before, dict) and before.get("format") == FINGERPRINT_FORMAT:
                found = Staleness(root, before, lambda folder, shard=None: self._files_of(brain, folder, shard))
            self._stale[brain] = found
        found = self._stale[brain]
        n = found.changed(paths) if found is not None else 0
        return {"built_at": self.as_of, "changed": n} if n else None


def open_site(site: str | Path | None) -> Site:
    path = find_site(str(site) if site else None)
    shown = str(path)
    manifest_file = path / MANIFEST
    if not manifest_file.is_file():
        old = path.parent / f".{path.name}.old"   # a build died mid-swap: the previous site is here
        if (old / MANIFEST).is_file():
            path, manifest_file = old, old / MANIFEST
        else:
            raise IndexMissing(shown)
    try:
        manifest = json.loads(manifest_file.read_bytes())
    except (OSError, ValueError):
        raise IndexMissing(shown, "unreadable manifest") from None
    if not isinstance(manifest, dict) or manifest.get("bundle_version") != BUNDLE_VERSION:
        raise IndexMissing(shown, f"built by an incompatible version (bundle {manifest.get('bundle_version') if isinstance(manifest, dict) else '?'}, need {BUNDLE_VERSION})")
    return Site(path=path, manifest=manifest)


class LiveSite:
    """A built site kept open across rebuilds (`bf mcp`, `builder.open_site`): `current()` looks at
    the manifest and reopens the site when a rebuild changed its build id."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.site: Site | None = None
        self._stamp = None

    def current(self) -> Site:
        try:
            st = (self.path / MANIFEST).stat()
            stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None      # open_site raises IndexMissing, or finds a mid-swap copy
        if self.site is None or stamp is None or stamp != self._stamp:
            fresh = open_site(self.path)
            if self.site is None or fresh.build_id != self.site.build_id:
                self.site = fresh
            self._stamp = stamp
        return self.site
