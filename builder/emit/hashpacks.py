"""Hashed packs (docs/data.md, Keys and packs): a family's entries (key → its serialized value)
as the JSON objects of n packs, n chosen so a pack holds about PACK_BYTES; a key is in pack
`refs.pack_of(key, n)`, so a reader finds it by its key and n alone."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..kernel import refs

PACK_BYTES = 128 * 1024


@dataclass
class HashedPacks:
    """One family's packs, kept between the builds of a process: setting or dropping a key joins
    again only its pack (every pack when n changes)."""
    entries: dict[str, str | bytes] = field(default_factory=dict)
    size: int = 0                                              # Σ len(key) + len(value)
    hashes: dict[str, int] = field(default_factory=dict)       # key → refs.pack_of(key, 2**32)
    groups: list[set[str]] = field(default_factory=list)       # pack → its keys
    texts: list[str | bytes | None] = field(default_factory=list)   # pack → its JSON, None to join again
    dirty: set[str] = field(default_factory=set)

    def set(self, key: str, value: str | bytes) -> None:
        old = self.entries.get(key)
        if old is value:
            return
        self.size += len(value) - (len(old) if old is not None else -len(key))
        self.entries[key] = value
        self.dirty.add(key)

    def drop(self, key: str) -> None:
        old = self.entries.pop(key, None)
        if old is not None:
            self.size -= len(key) + len(old)
            self.dirty.add(key)

    def packs(self) -> list[str | bytes]:
        """The packs' JSON texts (an unchanged pack: the same text object as last time)."""
        n = max(1, -(-self.size // PACK_BYTES))
        if n != len(self.groups):
            self.groups, self.texts = [set() for _ in range(n)], [None] * n
            self.dirty = set(self.entries) | self.dirty
            self.hashes = {key: self.hashes.get(key) or refs.pack_of(key, 2 ** 32) for key in self.entries}
        for key in self.dirty:
            h = self.hashes.get(key)
            if h is None:
                h = self.hashes[key] = refs.pack_of(key, 2 ** 32)
            if key not in self.entries:
                del self.hashes[key]
            group = self.groups[h % n]
            group.add(key) if key in self.entries else group.discard(key)
            self.texts[h % n] = None
        self.dirty = set()
        for i, text in enumerate(self.texts):
            if text is None:
                self.texts[i] = _joined(self.entries, sorted(self.groups[i]))
        return list(self.texts)


def _joined(entries: dict, keys: list[str]) -> str | bytes:
    """A pack's JSON object, of the type of its values (str, or JSON bytes: emit/data.py's)."""
    if keys and isinstance(entries[keys[0]], bytes):
        return b"{" + b",".join(json.dumps(k, ensure_ascii=False).encode("utf-8") + b":" + entries[k] for k in keys) + b"}"
    return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{entries[k]}" for k in keys) + "}"

