"""Exact reads of notes, sections and records (docs/replies.md#bf-read), before paging. Pure functions of the brain."""
from __future__ import annotations

import posixpath

from ..kernel import refs
from ..kernel.times import rfc3339
from ..kernel.model import Brain, Note
from .graph import Graph
from .items import kind_of, title_of


def backlinks(brain: Brain, g: Graph, ref: str, links=None) -> list[dict]:
    out = []
    for link in g.backlinks.get(ref, ()) if links is None else links:
        out.append({"relation": link.relation, "ref": link.source,
                    "kind": kind_of(brain, link.source), "title": title_of(brain, link.source),
                    "line": link.line or None, "excerpt": g.excerpts[link]})
    return sorted(out, key=lambda b: (b["relation"], b["ref"], b["line"] or 0))


def item_object(brain: Brain, ref: str):
    """What a reply shows of a linking item (its kind, its title): its model object, else its ref."""
    return brain.notes.get(ref) or brain.records.get(ref) or ref


def back_stamp(brain: Brain, g: Graph, ref: str) -> tuple:
    """All that backlinks(brain, g, ref) is made of (views/memo.py)."""
    links = g.backlinks.get(ref, ())
    return links, tuple(g.excerpts[link] for link in links), tuple(item_object(brain, link.source) for link in links)


def outgoing(brain: Brain, g: Graph, ref: str) -> list[dict]:
    out = []
    for link in g.outgoing.get(ref, ()):
        out.append({"target": link.target, "relation": link.relation, "status": link.status,
                    "ref": link.ref,
                    "heading": link.heading or None, "line": link.line or None})
    return out


def _claimed(note: Note) -> list[tuple[str, str]]:
    stem = posixpath.splitext(posixpath.basename(note.ref))[0]
    return [(note.title, "title"), (stem, "stem")] + [(a, "alias") for a in note.aliases] + [(e, "entity") for e in note.entities]


def claims_stamp(brain: Brain, note: Note) -> tuple:
    """All that claims(brain, note) is made of besides the note (views/memo.py)."""
    return tuple(brain.names.get(name) for name, _ in _claimed(note))


def claims(brain: Brain, note: Note) -> list[dict]:
    kinds = _claimed(note)
    out, seen = [], set()
    for name, kind in kinds:
        if (name, kind) in seen:
            continue
        seen.add((name, kind))
        if kind == "entity":
            holders = sorted(set(brain.names.get(name, ())) | {name})
            target = name
        else:
            holders = list(brain.names.get(name, ()))
            target = holders[0] if len(holders) == 1 else None
        out.append({"name": name, "kind": kind, "shared": len(holders) > 1,
                    "target_ref": refs.uri(brain.name, target) if target else None})
    return out


def _outline(brain: Brain, note: Note, within=None) -> list[dict]:
    out = []
    for s in note.sections:
        if within is not None and not (within.start <= s.start < within.end and s.ref != within.ref):
            continue
        out.append({"ref": refs.uri(brain.name, s.ref), "title": s.heading, "level": s.level, "line": s.line})
    return out


def _tasks(note: Note) -> list[dict]:
    return [{"ref": t.ref, "line": t.line, "text": t.text, "done": t.done, "due": t.due} for t in note.tasks]


def problems_by_path(brain: Brain) -> dict[str, list]:
    """The brain's problems by the path they are about, in the brain's order: each reply reads
    its own list instead of scanning them all (a brain may have thousands of broken links)."""
    out: dict[str, list] = {}
    for p in brain.problems:
        out.setdefault(p.path, []).append(p)
    return out


def _problems(brain: Brain, path: str, problems: list | None) -> list[dict]:
    """`problems`: the path's own (problems_by_path); None: found by scanning the brain's."""
    if problems is None:
        problems = [p for p in brain.problems if p.path == path]
    return [p.to_json() for p in problems]


def note_stamp(brain: Brain, g: Graph, note: Note, signals: dict | None = None, problems: list | None = None) -> tuple:
    """All that note_reply(brain, g, note, signals, problems) is made of (views/memo.py): beside it,
    so a field the reply gains from elsewhere joins its stamp here."""
    return (note, brain.modified[note.ref], g.outgoing.get(note.ref), back_stamp(brain, g, note.ref),
            claims_stamp(brain, note), problems, signals)


def note_reply(brain: Brain, g: Graph, note: Note, signals: dict | None = None, problems: list | None = None) -> dict:
    """`problems`: the note's own (problems_by_path)."""
    reply = {
        "page": "note", "brain": brain.name, "ref": note.ref, "uri": refs.uri(brain.name, note.ref),
        "kind": "note", "title": note.title, "path": note.ref, "type": note.type, "fields": dict(note.fields),
        "tags": list(note.tags), "aliases": list(note.aliases), "entities": list(note.entities),
        "text": note.text, "sha256": note.sha256, "modified": rfc3339(brain.modified[note.ref]),
        "deprecated": note.deprecated, "outline": _outline(brain, note), "backlinks": backlinks(brain, g, note.ref),
        "claims": claims(brain, note), "links": outgoing(brain, g, note.ref), "tasks": _tasks(note),
        "problems": _problems(brain, note.ref, problems),
    }
    if signals is not None:
        reply.update(signals)
    return reply


def _links_to_section(g: Graph, note: Note, section) -> list:
    """Links resolve to the note; `[[Note#Heading]]` (heading text or id) points at this section."""
    return [l for l in g.backlinks.get(note.ref, ()) if l.heading and l.heading in (section.heading, section.id)]


def section_stamp(note_stamped: tuple) -> tuple:
    """All that section_reply(brain, g, note, section) is made of, for any section of the note
    whose note_stamp is `note_stamped` (views/memo.py): the note, its modified time and its
    backlinks (a section's are among the note's), taken from that stamp rather than made again."""
    note, modified, _, back, *_ = note_stamped
    return note, modified, back


def section_reply(brain: Brain, g: Graph, note: Note, section) -> dict:
    data = note.text.encode("utf-8")
    return {
        "page": "section", "brain": brain.name, "ref": section.ref, "uri": refs.uri(brain.name, section.ref),
        "kind": "section", "title": section.title, "heading": section.heading, "level": section.level,
        "note": note.ref, "path": note.ref, "type": note.type, "tags": list(note.tags),
        "text": data[section.start:section.end].decode("utf-8"), "sha256": note.sha256,
        "modified": rfc3339(brain.modified[note.ref]), "outline": _outline(brain, note, within=section),
        "backlinks": backlinks(brain, g, section.ref, _links_to_section(g, note, section)),
        "problems": [],
    }


def record_stamp(brain: Brain, g: Graph, rec, problems: list | None = None) -> tuple:
    """All that record_reply(brain, g, rec, problems) is made of (views/memo.py)."""
    return rec, g.outgoing.get(rec.ref), back_stamp(brain, g, rec.ref), problems


def record_reply(brain: Brain, g: Graph, rec, problems: list | None = None) -> dict:
    """`problems`: the record's file's own (problems_by_path)."""
    record = {
        "source": rec.source, "id": rec.id, "time": rfc3339(rec.time), "observed": rfc3339(rec.observed),
        "edited": rfc3339(rec.edited), "text": rec.text, "title": rec.title, "uri": rec.uri,
        "author": rec.author, "refs": list(rec.refs), "relations": {k: list(v) for k, v in rec.relations.items()},
        "priority": rec.priority, "attributes": rec.attributes,
    }
    entities = sorted({link.ref for link in g.outgoing.get(rec.ref, ())
                       if link.status == "resolved" and link.ref in brain.identities})
    return {
        "page": "record", "brain": brain.name, "ref": rec.ref, "uri": refs.uri(brain.name, rec.ref),
        "kind": "record", "title": rec.title, "source": rec.source, "record": record,
        "sha256": rec.sha256, "modified": rfc3339(rec.modified), "entities": entities,
        "backlinks": backlinks(brain, g, rec.ref), "links": outgoing(brain, g, rec.ref),
        "problems": _problems(brain, rec.path, problems),
    }
