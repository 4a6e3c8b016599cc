"""The shape every page uses for one listed item (docs/replies.md#listings) and for a search hit's fields."""
from __future__ import annotations

from ..kernel import refs
from ..kernel.times import rfc3339
from ..kernel.model import Brain
from ..kernel.text import cut, plain


def kind_of(brain: Brain, ref: str) -> str:
    if ref in brain.notes:
        return "note"
    if ref in brain.records:
        return "record"
    if "#" in ref and ref.split("#", 1)[0] in brain.notes:
        return "section"
    return "identity"


def title_of(brain: Brain, ref: str) -> str:
    if ref in brain.notes:
        return brain.notes[ref].title
    if ref in brain.records:
        return brain.records[ref].title
    note_ref, _, sid = ref.partition("#")
    note = brain.notes.get(note_ref)
    if note:
        for s in note.sections:
            if s.id == sid:
                return s.title
    return ref


def listed(brain: Brain, ref: str, excerpt: str | None = None) -> dict:
    """One item of a listing page."""
    base = {"brain": brain.name, "ref": ref, "uri": refs.uri(brain.name, ref), "kind": kind_of(brain, ref)}
    if ref in brain.notes:
        note = brain.notes[ref]
        return base | {
            "title": note.title, "type": note.type, "path": ref, "tags": list(note.tags),
            "fields": dict(note.fields), "modified": rfc3339(brain.modified[ref]),
            "excerpt": excerpt if excerpt is not None else note.excerpt,
        }
    if ref in brain.records:
        rec = brain.records[ref]
        return base | {
            "title": rec.title, "type": None, "path": rec.path, "tags": [],
            "fields": {}, "modified": rfc3339(rec.modified), "source": rec.source,
            "time": rfc3339(rec.time), "observed": rfc3339(rec.observed),
            "excerpt": excerpt if excerpt is not None else cut(" ".join(rec.text.split())),
        }
    return base | {"title": title_of(brain, ref), "excerpt": excerpt or "", "modified": None}
