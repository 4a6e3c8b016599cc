"""Which views the compact data (data.py) stores and what of them changed since the last build in
this process, found from the views that came and went (by identity: views.compute keeps an
unchanged view's object) instead of a look at every view of the brain."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..kernel import refs
from ..kernel.canon import canonical_json
from ..query.sections import section_reply
from ..views import View


def json_bytes(value) -> bytes:
    """Canonical JSON bytes of exactly their size: orjson's own keep the whole buffer it wrote
    into (4 KB for a card of 500 bytes), and the compact data keeps ~200k of them at once."""
    return bytes(memoryview(canonical_json(value)))


@dataclass
class Seen:
    """The views of the last build by id (kept alive: an id stays its view's), each note's reply
    (one page) by ref, each note's sections' views, and home."""
    views: dict[int, View] = field(default_factory=dict)
    notes: dict[str, dict] = field(default_factory=dict)
    sections: dict[str, dict[int, View]] = field(default_factory=dict)
    home: View | None = None


def came_went(last: dict[int, View], views: Sequence[View]) -> tuple[dict[int, View], list[View], list[View]]:
    """The views by id, those not among `last` (the last build's by id, kept alive so an id stays
    its view's) and those of `last` gone. Callers keep the first as their next `last`; never
    mutate it."""
    now = dict(zip(map(id, views), views))
    return now, [now[i] for i in now.keys() - last.keys()], [last[i] for i in last.keys() - now.keys()]


class CameWent:
    """came_went remembering its last answer, for the stages of one brain's views in one build:
    the data and pages stages ask alike (70k views: 0.05 s each)."""

    def __init__(self):
        self.asked: tuple = (None, None, None)   # (last, views, answer)

    def __call__(self, last: dict[int, View], views: Sequence[View]) -> tuple:
        asked = self.asked
        if asked[1] is views and (asked[0] is last or asked[0] == last):   # ==: by identity, in C
            return asked[2]
        answer = came_went(last, views)
        self.asked = (last, views, answer)
        return answer


def family_of(view: View) -> str:
    page = view.pages[0].get("page")
    if page == "section":
        return "sections"
    if page == "record":
        return "records/" + refs.escape_segment(view.pages[0]["source"])
    return "lists"


def computed_from(note: dict | None, view: View, laid: dict | None = None) -> bool:
    """Whether readers compute this section's reply exactly from its note's reply `note`
    (`laid`: query/sections.section_reply's)."""
    return not view.variant and [section_reply(note, view.ref, laid)] == list(view.pages)


def _note_reply(view: View) -> bool:
    return view.template == "note.html" and len(view.pages) == 1 and not view.variant


def entries(brain: str, views: Sequence[View], memo, came_went=came_went) -> tuple[dict[int, tuple], list[tuple], View | None]:
    """id(pages) → (pages, ref, variant, family, key, value, note) of every view stored in the
    data (memo: data.DataMemo), the last build's tuple while its pages are the same (and a
    section's note); the new tuples; home."""
    seen, last = memo.seen, memo.views
    now, came, went = came_went(seen.views, views)
    fresh, new, notes = dict(last) if seen.views else {}, [], set()
    for view in went:
        pages = view.pages
        if view.template == "note.html":
            if _note_reply(view) and seen.notes.get(view.ref) is pages[0]:
                del seen.notes[view.ref]
                notes.add(view.ref)
            continue
        if view is seen.home:
            seen.home = None
        old = fresh.get(id(pages))
        if old is not None and old[1] == view.ref and old[2] == view.variant:
            del fresh[id(pages)]
        if family_of(view) == "sections":
            seen.sections.get(pages[0].get("note"), {}).pop(id(view), None)
    check = []
    for view in came:
        pages = view.pages
        if view.template == "note.html":
            if _note_reply(view):
                seen.notes[view.ref] = pages[0]
                notes.add(view.ref)
            continue
        if view.ref == "home" and not view.variant:     # never kept: it is not stored here
            seen.home = view
            continue
        old = last.get(id(pages))
        if old is None or old[0] is not pages or old[1] != view.ref or old[2] != view.variant:
            family = family_of(view)
            key = refs.data_key(brain, view.ref, *view.variant)
            if family == "sections":
                old = (pages, view.ref, view.variant, family, key, None, None)
            else:
                value = memo.listing(pages) if family == "lists" else json_bytes(list(pages))
                old = (pages, view.ref, view.variant, family, key, value, None)
                new.append(old)
        if old[3] == "sections":
            seen.sections.setdefault(pages[0].get("note"), {})[id(view)] = view
            check.append(view)
        fresh[id(pages)] = old
    check += [v for ref in notes for v in seen.sections.get(ref, {}).values()]
    laid: dict = {}   # seen.notes keeps every note reply alive meanwhile
    for view in {id(v): v for v in check}.values():      # after the loops: every note's reply known
        old, note = fresh[id(view.pages)], seen.notes.get(view.pages[0].get("note"))
        if old[6] is None or old[6] is not note:
            stored = None if computed_from(note, view, laid) else json_bytes(list(view.pages))
            old = fresh[id(view.pages)] = old[:5] + (stored, note)
            new.append(old)
    seen.views = now
    return fresh, new, seen.home
