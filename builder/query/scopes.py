"""Search scopes (docs/replies.md#scopes): parse one scope, then say which items it admits. JS twin:
site/engine/scopes.js.

Parsing, in order (every refusal is InvalidInput("scope", why)):
1. `bf://BRAIN/REF`: a note or an identity in one brain; a section, a record or a page's
   address (folder, tag, source, memories, period, home) is refused.
2. A trailing "/" is dropped; "home" and "" are refused.
3. `TYPE:NAME[/PERIOD]` (a colon before any slash) is an identity; a record ref is refused.
4. A path holding "#" is refused: a fragment on a source, else a section.
5. A last segment that reads as a period (`7d`, `2026-12` …) is the period, unless the whole
   text names a folder holding notes (`meetings/2026`); the rest, if any, is the base. A base
   that is itself a period, or `memories/SOURCE/undated`, is refused.
6. The base: `memories`, `memories/SOURCE`, `memories/SOURCE/undated` (nothing else below a
   source), `tags/TAG`, a note (`….md`), else a folder. An unknown source is refused, naming
   the closest known one; a folder, note or identity naming nothing admits nothing.
Periods place records by event time, else observation, and notes by their event time, else
modification time (views/lists.placed, stored as `placed`); an item is in a period when
start ≤ placed < end and placed ≤ as_of, as on period pages.

admits() rules on an item's metadata; admits_doc() gives the same answer for a search hit from
the index alone (its group, ref spans, facets and placed seconds: bm25/FORMAT.md), so a
scoped search reads the metadata of the items it returns only.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime

from ..kernel import refs
from ..kernel.errors import InvalidInput
from ..kernel.periods import parse_period
from ..kernel.times import rfc3339
from .store import BrainStore, Entry

NOTE_KINDS = ("folder", "note", "tag")         # authored scopes: notes alone
RECORD_KINDS = ("memories", "source", "undated")
MAX_SCOPE = 4096


@dataclass(frozen=True)
class Scope:
    text: str | None     # as given (None: no scope)
    kind: str            # none | folder | note | tag | memories | source | undated | identity | period
    value: str = ""      # the folder, note ref, tag, source or identity
    period: str | None = None
    brain: str | None = None   # a bf:// address names one brain

    @property
    def notes(self) -> bool:
        return self.kind not in RECORD_KINDS

    @property
    def records(self) -> bool:
        return self.kind not in NOTE_KINDS


NONE = Scope(None, "none")


def _bad(why: str) -> InvalidInput:
    return InvalidInput("scope", why)


def parse_scope(text, stores: dict[str, BrainStore]) -> Scope:
    """`stores`: the selected brains' stores (folders and sources are looked up there)."""
    if text is None:
        return NONE
    if not isinstance(text, str):
        raise _bad("must be a string")
    if len(text) > MAX_SCOPE or any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise _bad(f"longer than {MAX_SCOPE} characters or holds control characters")
    brain, ref = refs.split_address(text.strip())
    if brain is not None:
        return _address(text, brain, ref, stores)
    return _relative(text, refs.normalize(ref), stores, None)


def _address(text: str, brain: str, ref: str, stores: dict[str, BrainStore]) -> Scope:
    if brain not in stores:
        raise _bad(f"unknown brain {brain!r} in {text} (valid: {', '.join(sorted(stores))})")
    if refs.is_record_like(ref):
        return _identity(text, ref, {brain: stores[brain]}, brain)
    if "#" in ref:
        raise _bad(f"{text} is a section: scope the whole note, then read the section")
    if not ref.endswith(".md") or ref.endswith("/"):
        plain = refs.normalize(ref)
        raise _bad(f"{text} is a page's address: use its brain-relative form ({plain}) with --brain {brain}")
    return Scope(text, "note", ref, None, brain)


def _relative(text: str, ref: str, stores: dict[str, BrainStore], brain: str | None) -> Scope:
    if ref == "home":
        raise _bad("empty or home: name a folder, note, tag, source, identity or period")
    if refs.is_record_like(ref):
        return _identity(text, ref, stores, brain)
    if "#" in ref:
        if ref == "memories" or ref.startswith("memories/"):
            raise _bad(f"{text}: a source has no fragments; scope memories/SOURCE")
        raise _bad(f"{text} is a section: scope the whole note, then read the section")
    base, period = _split_period(text, ref, lambda b: any(s.folder_exists(b) for s in stores.values()))
    if base is None:
        return Scope(text, "period", "", period, brain)
    parts = base.split("/")
    if parts[0] == "memories":
        if len(parts) == 1:
            return Scope(text, "memories", "", period, brain)
        _known_source(parts[1], stores)
        if len(parts) == 2:
            return Scope(text, "source", parts[1], period, brain)
        if len(parts) == 3 and parts[2] == "undated":
            if period:
                raise _bad(f"{text}: undated records have no event time, so no period applies")
            return Scope(text, "undated", parts[1], None, brain)
        raise _bad(f"{text}: only `undated` or a period may follow memories/{parts[1]}")
    if parts[0] == "tags" and len(parts) > 1:
        return Scope(text, "tag", "/".join(parts[1:]), period, brain)
    if base.endswith(".md"):
        return Scope(text, "note", base, period, brain)
    return Scope(text, "folder", base, period, brain)


def _split_period(text: str, ref: str, is_folder) -> tuple[str | None, str | None]:
    """(base or None, period or None) of a path scope."""
    base, _, last = ref.rpartition("/")
    if not refs.is_period_like(last) or is_folder(ref):
        return ref, None
    if not base:
        return None, last
    if refs.is_period_like(base.rpartition("/")[2]) and not is_folder(base):
        raise _bad(f"{text}: a period cannot be combined with another period")
    if base.endswith("/undated") and base.startswith("memories/"):
        raise _bad(f"{text}: undated records have no event time, so no period applies")
    return base, last


def _identity(text: str, ref: str, stores: dict[str, BrainStore], brain: str | None) -> Scope:
    base, _, last = ref.rpartition("/")
    period = None
    if base and refs.is_period_like(last):
        ref, period = base, last
        if refs.is_period_like(ref.rpartition("/")[2]) and "/" in ref:
            raise _bad(f"{text}: a period cannot be combined with another period")
    for store in stores.values():
        if store.meta.get("records", {}).get(ref.partition(":")[0]) and store.record_entry(ref):
            raise _bad(f"{text} is a record, not a scope: scope its source, memories/{ref.partition(':')[0]}")
    return Scope(text, "identity", ref, period, brain)


def _known_source(name: str, stores: dict[str, BrainStore]) -> None:
    known = sorted({s for store in stores.values() for s in store.sources()})
    if name in known:
        return
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean memories/{close[0]}?)" if close else f" (known: {', '.join(known) or 'none'})"
    raise _bad(f"unknown source: memories/{name}{hint}")


def window(scope: Scope, timezone: str, as_of: datetime, form=rfc3339) -> tuple | None:
    """(start, end, as_of) as RFC 3339 strings (they compare like instants), or None; `form`
    kernel.times.seconds: as whole seconds, as the index stores placed instants."""
    if scope.period is None:
        return None
    try:
        _, start, end, _ = parse_period(scope.period, timezone, as_of)
    except InvalidInput:
        raise _bad(f"invalid period: {scope.period}") from None
    return form(start), form(end), form(as_of)


def admits_doc(scope: Scope, store: BrainStore, doc: int, group: str, owner: int,
               bounds: tuple[int, int, int] | None) -> bool:
    """admits() of the item of doc id `doc` in index group `group` ranking as doc `owner` (a
    section's note): a note's ref is in its folder's span of refs, a section shares its
    note's facets, placed seconds compare as the RFC 3339 texts do. `bounds`: window()'s in seconds."""
    kind, reader = scope.kind, store.reader
    if scope.brain is not None and store.brain != scope.brain:
        return False
    if kind in NOTE_KINDS and group or kind in RECORD_KINDS and not group:
        return False
    if kind == "folder" and owner not in store.span("", scope.value + "/"):
        return False
    if kind == "note" and owner not in store.span("", scope.value, exact=True):
        return False
    if kind == "tag" and owner not in reader.facet(f"tag:{scope.value}"):
        return False
    if kind in ("source", "undated") and group != scope.value:
        return False
    if kind == "undated" and doc not in reader.facet("undated"):
        return False
    if kind == "identity" and owner not in reader.facet(f"entity:{scope.value}"):
        return False
    if bounds is not None:
        placed = reader.placed(doc)
        start, end, now = bounds
        if placed is None or not (start <= placed < end and placed <= now):
            return False
    return True


def admits(scope: Scope, entry: Entry, bounds: tuple[str, str, str] | None) -> bool:
    """Does the scope hold this item? `bounds` from window() for the item's brain."""
    kind = scope.kind   # entry.meta only where needed: a record's meta is read on first use
    if scope.brain is not None and entry.brain != scope.brain:
        return False
    if kind in NOTE_KINDS and entry.kind == "record" or kind in RECORD_KINDS and entry.kind != "record":
        return False
    if kind == "folder" and not entry.note.startswith(scope.value + "/"):
        return False
    if kind == "note" and entry.note != scope.value:
        return False
    if kind == "tag":
        tags = entry.meta.get("tags", [])
        if not any(t == scope.value or t.startswith(scope.value + "/") for t in tags):
            return False
    if kind in ("source", "undated") and entry.source != scope.value:
        return False
    if kind == "undated" and entry.meta.get("time") is not None:
        return False
    if kind == "identity" and scope.value not in entry.meta.get("entities", []):
        return False
    if bounds is not None:
        placed = entry.meta.get("placed")
        start, end, now = bounds
        if placed is None or not (start <= placed < end and placed <= now):
            return False
    return True
