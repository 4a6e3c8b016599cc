"""Second pass (after every note and record is parsed): names, identities and link resolution (SPEC §2.1, §2.5)."""
from __future__ import annotations

import posixpath
import re

from ..model import Link, Note, Problem, RawLink, Record
from .markdown import split_wikilink

IDENTITY = re.compile(r"^[A-Za-z][\w.-]*:(?!//)\S+$")


def is_identity(text: str, sources) -> bool:
    return bool(IDENTITY.match(text)) and text.split(":", 1)[0] not in sources


def claimed_names(note: Note) -> list[str]:
    stem = posixpath.splitext(posixpath.basename(note.ref))[0]
    return list(dict.fromkeys([note.title, stem, *note.aliases]))


def build_names(notes: dict[str, Note], identities: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Claimed name → every ref claiming it (sorted). Names match exactly (case-sensitive)."""
    table: dict[str, set[str]] = {}
    for ref, note in notes.items():
        for name in claimed_names(note):
            table.setdefault(name, set()).add(ref)
    for ident, aliases in identities.items():
        for alias in aliases:
            table.setdefault(alias, set()).add(ident)
    return {name: tuple(sorted(refs)) for name, refs in sorted(table.items())}


class Resolver:
    def __init__(self, notes, records, names, identities, sources, attachments=()):
        self.notes, self.records, self.names = notes, records, names
        self.attachments = set(attachments)
        self.by_basename: dict[str, list[str]] = {}
        for path in sorted(self.attachments):
            self.by_basename.setdefault(posixpath.basename(path), []).append(path)
        self.identities, self.sources = identities, sources
        self.claimed_by = {}   # identity → notes claiming it, to merge a note with the identity it is about
        for ref, note in notes.items():
            for ident in note.entities:
                self.claimed_by.setdefault(ident, set()).add(ref)

    def attachment(self, source: str, target: str) -> str | None:
        """An embedded file: path relative to the note, brain-relative path, or a unique file name."""
        for path in (posixpath.normpath(posixpath.join(posixpath.dirname(source), target)), target):
            if path in self.attachments:
                return path
        found = self.by_basename.get(posixpath.basename(target), [])
        return found[0] if len(found) == 1 else None

    def resolve(self, target: str) -> tuple[str, str | None]:
        """(status, ref): status is resolved | ambiguous | broken."""
        if target in self.notes:
            return "resolved", target
        if target + ".md" in self.notes:
            return "resolved", target + ".md"
        if target in self.records:
            return "resolved", target
        candidates = self.names.get(target, ())
        if len(candidates) > 1:
            # A note and the identity it is about are one thing to link to.
            notes = {c for c in candidates if c in self.notes}
            idents = [c for c in candidates if c not in self.notes]
            if len(notes) == 1 and all(self.claimed_by.get(i) == notes for i in idents):
                return "resolved", notes.pop()
            return "ambiguous", None
        if candidates:
            return "resolved", candidates[0]
        if is_identity(target, self.sources):
            return "resolved", target
        return "broken", None


def resolve_links(brain_name, notes: dict[str, Note], records: dict[str, Record], resolver: Resolver):
    links, problems = [], []
    for ref, note in notes.items():
        for raw in note.links:
            links.append(_link(ref, raw, resolver, notes))
            if links[-1].status == "broken":
                where = f"line {raw.line}: " if raw.line else f"relations.{raw.relation}: "
                problems.append(Problem(brain_name, ref, "broken_link", f"{where}{raw.target!r} resolves to nothing"))
    for ref, rec in records.items():
        for target in rec.refs:
            links.append(_link(ref, _record_target(target, "links"), resolver, notes))
        for relation, targets in rec.relations.items():
            for target in targets:
                links.append(_link(ref, _record_target(target, relation), resolver, notes))
        if rec.author:
            links.append(_link(ref, RawLink(target=rec.author, relation="author", line=0), resolver, notes))
    return links, problems


def _record_target(target: str, relation: str) -> RawLink:
    """Records may name a target bare or as a [[wikilink]], like notes' relations."""
    m = re.fullmatch(r"!?\[\[(.+?)\]\]", target.strip())
    if m:
        name, heading, _ = split_wikilink(m.group(1))
        return RawLink(target=name, relation=relation, line=0, heading=heading)
    return RawLink(target=target, relation=relation, line=0)


def _link(source: str, raw: RawLink, resolver: Resolver, notes) -> Link:
    if not raw.target and raw.heading:   # [[#Heading]] points into the same note
        status, ref = "resolved", source
    elif raw.heading and f"{raw.target}#{raw.heading}" in resolver.records:   # a record id holding '#'
        status, ref = "resolved", f"{raw.target}#{raw.heading}"
    elif raw.embed and not raw.target.endswith(".md") and resolver.attachment(source, raw.target):
        status, ref = "resolved", resolver.attachment(source, raw.target)
    else:
        status, ref = resolver.resolve(raw.target)
    return Link(source=source, target=raw.target, relation=raw.relation, status=status, ref=ref,
                heading=raw.heading, line=raw.line)


def known_identities(config_identities, notes, records, sources) -> dict[str, tuple[str, ...]]:
    """Every identity the brain names: configured ones with their aliases, plus entities seen anywhere."""
    out = {k: tuple(v) for k, v in config_identities.items()}
    for note in notes.values():
        for ident in note.entities:
            out.setdefault(ident, ())
        for raw in note.links:
            if raw.kind in ("identity", "wikilink") and is_identity(raw.target, sources):
                out.setdefault(raw.target, ())
    for rec in records.values():
        for text in (rec.author or "", *rec.refs, *(t for ts in rec.relations.values() for t in ts)):
            if text and is_identity(text, sources):
                out.setdefault(text, ())
    return dict(sorted(out.items()))
