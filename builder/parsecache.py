"""The parse cache: Notes of the last build, kept as JSON lines beside --out so a rebuild
re-parses only changed files. UTF-8, written and read by orjson: a long multilingual note's
text escaped to ASCII by the json module took three times the bytes and most of the save.

Nothing here can run code: the file is JSON, and decoding builds only the model's own
dataclasses (Note, Section, RawLink, Task) field by field. It is versioned: a file written by
another bf, by other parser code, or for other model fields is ignored (a full parse). A
value JSON cannot hold exactly is tagged ({"$": kind, "v": ...}): tuples, dicts (as pairs, so
keys keep their type and order), dates, datetimes with their zone, bytes, sets. A note holding
anything else, or what orjson refuses (an integer past 64 bits, a lone surrogate), is simply
not cached. A file that is not ours (another owner, writable by group or others) is not read
either.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import os
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo
from types import MappingProxyType

import orjson

from . import __version__
from .kernel.formats import PARSE_CACHE_FORMAT
from .kernel.model import Note, RawLink, Section, Task
from .kernel.owned import ours

CLASSES = MappingProxyType({cls.__name__: cls for cls in (Note, Section, RawLink, Task)})


def _code_digest() -> str:
    """Any change to bf's code (a parser fix, a new slot kind) invalidates the cache."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def version() -> list:
    fields = {name: [f.name for f in dataclasses.fields(cls)] for name, cls in sorted(CLASSES.items())}
    return [PARSE_CACHE_FORMAT, __version__, _code_digest(), fields]


class Unencodable(ValueError):
    pass


_ATOMS = frozenset({type(None), bool, int, str})
_FIELDS = MappingProxyType({cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in CLASSES.values()})


def encode(value):
    kind = type(value)   # by exact type first: a note holds a hundred values or more
    if kind in _ATOMS:
        return value
    names = _FIELDS.get(kind)
    if names is not None:
        return {"$": kind.__name__, "v": _each(getattr(value, name) for name in names)}
    if isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else {"$": "float", "v": repr(value)}
    if isinstance(value, list):
        return _each(value)
    if isinstance(value, tuple):
        return {"$": "tuple", "v": _each(value)}
    if isinstance(value, dict):
        return {"$": "dict", "v": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, datetime):
        return {"$": "datetime", "v": [value.replace(tzinfo=None).isoformat(), value.fold, _zone(value.tzinfo)]}
    if isinstance(value, date):
        return {"$": "date", "v": value.isoformat()}
    if isinstance(value, bytes):
        return {"$": "bytes", "v": base64.b64encode(value).decode("ascii")}
    if isinstance(value, (set, frozenset)):
        return {"$": type(value).__name__, "v": [encode(v) for v in value]}
    raise Unencodable(type(value).__name__)


def _each(values) -> list:
    """[encode(v) for v in values], without a call for the atoms."""
    return [v if type(v) in _ATOMS else encode(v) for v in values]


def _zone(tz):
    if tz is None:
        return None
    if isinstance(tz, ZoneInfo) and tz.key:
        return ["zone", tz.key]
    if isinstance(tz, timezone):
        offset = tz.utcoffset(None)
        return ["offset", offset.days * 86400 + offset.seconds, offset.microseconds]
    raise Unencodable(type(tz).__name__)


def decode(value):
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    kind, v = value["$"], value["v"]
    if kind in CLASSES:
        return CLASSES[kind](*[decode(x) for x in v])
    if kind == "tuple":
        return tuple(decode(x) for x in v)
    if kind == "dict":
        return {decode(k): decode(x) for k, x in v}
    if kind == "datetime":
        text, fold, zone = v
        tz = None if zone is None else ZoneInfo(zone[1]) if zone[0] == "zone" else \
            timezone(timedelta(seconds=zone[1], microseconds=zone[2]))
        return datetime.fromisoformat(text).replace(tzinfo=tz, fold=fold)
    if kind == "date":
        return date.fromisoformat(v)
    if kind == "bytes":
        return base64.b64decode(v)
    if kind in ("set", "frozenset"):
        return (set if kind == "set" else frozenset)(decode(x) for x in v)
    if kind == "float":
        return float(v)
    raise ValueError(f"unknown tag {kind!r}")


class Cache:
    """notes: {brain root: {(ref, sha256, config key): Note}}, filled in place by brain.load (which
    also keeps ("record", path, sha256): Record there, for a process that builds again; those are
    never saved). Each loaded note keeps its JSON line, so saving re-encodes only notes parsed since.
    `memos`: {brain root: brain.LoadMemo}, what a process that builds again reuses; never saved."""

    def __init__(self, unused: str | None = None):
        self.notes: dict[str, dict] = {}
        self.lines: dict[tuple, tuple] = {}   # (root, key) → (the Note loaded, its line)
        self.memos: dict[str, object] = {}
        self.unused = unused   # why a cache file there was not read: the build says so, once


def load(path: Path) -> Cache:
    """The cache saved at `path`; an empty one when there is none we can use, saying why when
    there was a file (`Cache.unused`, docs/site.md#the-cache-folder)."""
    try:
        st = os.stat(path)
    except OSError:
        return Cache()
    if not ours(st):
        return Cache(f"the parse cache {path.name} is not this user's alone: every note parsed again")
    cache = Cache()
    try:
        with path.open("rb") as fh:
            stamp = orjson.loads(fh.readline())
            if stamp != version():
                made = stamp[1] if isinstance(stamp, list) and len(stamp) > 1 and isinstance(stamp[1], str) else "?"
                return Cache(f"the parse cache {path.name} was written by another bf ({made}, or other code): "
                             "every note parsed again")
            for line in fh:
                root, key, note = orjson.loads(line)
                key, note = decode(key), decode(note)
                cache.notes.setdefault(root, {})[key] = note
                cache.lines[root, key] = (note, line if line.endswith(b"\n") else line + b"\n")
    except Exception:   # a damaged cache only costs a full parse
        return Cache(f"the parse cache {path.name} is damaged: every note parsed again")
    return cache


def save(path: Path, cache: Cache) -> None:
    """One line of version, then one line per note: [root, key, note]. The lines written stay
    in `cache.lines`, so a process that saves again (bf serve --watch) writes them as they are,
    and writes nothing when every line is the one it last wrote (a rebuild whose notes all came
    from the cache)."""
    lines, fresh = {}, False
    for root, entries in cache.notes.items():
        for key, note in entries.items():
            if key[0] == "record":   # records are kept in memory only (brain.load): cheap to parse
                continue
            old = cache.lines.get((root, key))
            if old is None or old[0] is not note:
                try:
                    old = (note, orjson.dumps([root, encode(key), encode(note)]) + b"\n")
                except (Unencodable, orjson.JSONEncodeError):   # e.g. a lone surrogate, an int past 64 bits
                    continue
                fresh = True
            lines[root, key] = old
    if not fresh and lines.keys() == cache.lines.keys() and path.is_file():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    with tmp.open("wb") as fh:
        os.chmod(tmp, 0o600)
        fh.write(orjson.dumps(version()) + b"\n")
        fh.writelines(line for _, line in lines.values())
    tmp.replace(path)
    cache.lines = lines
