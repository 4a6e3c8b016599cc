"""A section's read reply computed from its note's reply (docs/data.md#sections): the text from its heading's
line to the next heading of the same or a higher level, the headings inside it, and its title, the
note's title and the headings above it. Twin: site/engine/sections.js.

The build keeps in the compact data only the section replies this cannot give — a section someone
links to (its backlinks), a section of a note whose reply is paged, a file whose lines break on
something other than "\\n": builder/emit/data.py leaves a section out only when this function
returns its reply exactly."""
from __future__ import annotations

from ..kernel import refs


def line_starts(data: bytes) -> list[int]:
    """UTF-8 byte offset of the start of every line of `data`."""
    starts = [0]
    at = data.find(b"\n")
    while at >= 0:
        starts.append(at + 1)
        at = data.find(b"\n", at + 1)
    return starts


def _laid(note: dict) -> tuple[bytes, dict[int, int], dict[str, int]]:
    """(the note's text as UTF-8, each outline heading's byte offset by id(), each heading's
    place in the outline by its ref, the first where two share one)."""
    outline = note.get("outline") or []
    data = note["text"].encode("utf-8")
    starts = line_starts(data)
    at = {id(h): starts[h["line"] - 1] if 0 < h["line"] <= len(starts) else len(data) for h in outline}
    return data, at, {h["ref"]: i for i, h in reversed(list(enumerate(outline)))}


def section_reply(note: dict | None, ref: str, laid: dict | None = None) -> dict | None:
    """The reply of section `ref` from the whole reply `note` of its note; None when it has none.
    `laid`: a dict the caller keeps while the notes it asks about live, where a note's text is
    encoded and its lines found once for all its sections (the build asks of every section)."""
    if not isinstance(note, dict) or note.get("page") != "note" or note.get("offset") or note.get("next_offset") is not None:
        return None
    outline = note.get("outline") or []
    target = refs.uri(note["brain"], ref)
    if laid is None:
        data, at, where = _laid(note)
    else:
        if id(note) not in laid:
            laid[id(note)] = _laid(note)
        data, at, where = laid[id(note)]
    index = where.get(target)
    if index is None:
        return None
    head = outline[index]
    start = at[id(head)]
    end = next((at[id(h)] for h in outline[index + 1:] if h["level"] <= head["level"]), len(data))
    path = []
    for h in outline[:index + 1]:
        while path and path[-1]["level"] >= h["level"]:
            path.pop()
        path.append(h)
    text = data[start:end]
    return {
        "page": "section", "brain": note["brain"], "ref": ref, "uri": target, "kind": "section",
        "title": " — ".join([note["title"]] + [h["title"] for h in path]), "heading": head["title"],
        "level": head["level"], "note": note["ref"], "path": note["path"], "type": note["type"],
        "tags": note["tags"], "text": text.decode("utf-8"), "sha256": note["sha256"], "modified": note["modified"],
        "outline": [h for h in outline if h is not head and start <= at[id(h)] < end],
        "backlinks": [], "problems": [],
        "offset": 0, "next_offset": None, "total_bytes": len(text),
    }
