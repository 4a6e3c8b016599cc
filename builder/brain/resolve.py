"""Second pass (after every note and record is parsed): names, identities and link resolution (docs/brain.md#links, docs/brain.md#identities)."""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from itertools import chain, compress
from operator import is_not

from ..kernel.mdlinks import joined
from ..kernel.model import Link, Note, Problem, RawLink, Record
from .markdown import split_wikilink

IDENTITY = re.compile(r"^[A-Za-z][\w.-]*:(?!//)\S+$")


def is_identity(text: str, sources) -> bool:
    return bool(IDENTITY.match(text)) and text.split(":", 1)[0] not in sources


def claimed_names(note: Note) -> list[str]:
    stem = posixpath.splitext(posixpath.basename(note.ref))[0]
    return list(dict.fromkeys([note.title, stem, *note.aliases]))


def build_names(notes: dict[str, Note], identities: dict[str, tuple[str, ...]], last: tuple | None = None) -> dict[str, tuple[str, ...]]:
    """Claimed name → every ref claiming it (sorted), by name. Names match exactly (case-sensitive).
    `last`: (notes, identities, names) of the last call in this process: with the same identities,
    only the names of the notes whose object changed move (the same dict when none did)."""
    if last is None or last[1] != identities:
        table: dict[str, set[str]] = {}
        for ref, note in notes.items():
            for name in claimed_names(note):
                table.setdefault(name, set()).add(ref)
        for ident, aliases in identities.items():
            for alias in aliases:
                table.setdefault(alias, set()).add(ident)
        return {name: tuple(sorted(refs)) for name, refs in sorted(table.items())}
    old, _, names = last
    changed = (notes.keys() ^ old.keys()) | set(compress(notes, map(is_not, notes.values(), map(old.get, notes))))
    if not changed:
        return names
    table = dict(names)
    for ref in changed:
        for name in claimed_names(old[ref]) if ref in old else ():
            table[name] = tuple(r for r in table[name] if r != ref)
        for name in claimed_names(notes[ref]) if ref in notes else ():
            table[name] = tuple(sorted({*table.get(name, ()), ref}))
    for name in [name for name, refs in table.items() if not refs]:
        del table[name]
    # a name no one claimed joins at the end: the table is by name
    return table if table.keys() <= names.keys() else dict(sorted(table.items()))


def path_key(path: str) -> str:
    """A path as Obsidian compares it: case-insensitive, without `.md`."""
    path = path.lower()
    return path[:-3] if path.endswith(".md") else path


def nearest(source: str, candidates) -> tuple[str, str | None]:
    """Among several files matching a link, the one nearest the linking item: the longest common
    folder prefix with it. (status, ref): a tie stays ambiguous."""
    here = posixpath.dirname(source).split("/") if "/" in source else []

    def shared(ref: str) -> int:
        there = posixpath.dirname(ref).split("/") if "/" in ref else []
        n = 0
        while n < min(len(here), len(there)) and here[n] == there[n]:
            n += 1
        return n
    scores = {ref: shared(ref) for ref in candidates}
    best = max(scores.values())
    winners = sorted(ref for ref, n in scores.items() if n == best)
    return ("resolved", winners[0]) if len(winners) == 1 else ("ambiguous", None)


class PathIndex:
    """Files by Obsidian's path rule: a unique case-insensitive match of the path suffix
    (`Folder/Name`, `Name`), else the match nearest the linking item. A target named from one
    folder finds the same file each time: remembered by (folder, target) for this index's life."""

    def __init__(self, paths):
        self.by_name: dict[str, list[tuple[str, str]]] = {}
        self.found: dict[tuple[str, str], tuple[str, str | None] | None] = {}
        for path in sorted(paths):
            key = path_key(path)
            self.by_name.setdefault(posixpath.basename(key), []).append((path, key))

    def find(self, source: str, target: str) -> tuple[str, str | None] | None:
        want = path_key(target.strip().lstrip("/"))
        if not want:
            return None
        at = (posixpath.dirname(source), want)   # all nearest() reads of the source
        if at not in self.found:
            self.found[at] = self._find(source, want)
        return self.found[at]

    def _find(self, source: str, want: str) -> tuple[str, str | None] | None:
        found = [(p, key) for p, key in self.by_name.get(posixpath.basename(want), ())
                 if key == want or key.endswith("/" + want)]
        if not found:
            return None
        exact = [p for p, key in found if key == want]   # the whole path, in another case
        if len(exact) == 1:
            return "resolved", exact[0]
        return ("resolved", found[0][0]) if len(found) == 1 else nearest(source, [p for p, _ in found])


class Resolver:
    def __init__(self, notes, records, names, identities, sources, attachments=()):
        self.notes, self.records, self.names = notes, records, names
        self.attachments = set(attachments)
        self.note_paths = PathIndex(notes)
        self.attachment_paths = PathIndex(self.attachments)
        self.identities, self.sources = identities, sources
        self.claimed_by = {}   # identity → notes claiming it, to merge a note with the identity it is about
        for ref, note in notes.items():
            for ident in note.entities:
                self.claimed_by.setdefault(ident, set()).add(ref)

    def inputs(self) -> tuple:
        """All a resolution depends on besides the linking item: equal inputs resolve alike."""
        return (frozenset(self.notes), frozenset(self.records), self.names, frozenset(self.sources),
                frozenset(self.attachments), self.claimed_by)

    def attachment(self, source: str, target: str) -> str | None:
        """A linked or embedded file: path relative to the note, brain-relative path, else by
        Obsidian's path rule (file name anywhere in the brain; the nearest of several)."""
        for path in (joined(posixpath.dirname(source), target), target):
            if path in self.attachments:
                return path
        found = self.attachment_paths.find(source, target)
        return found[1] if found else None

    def resolve(self, target: str, source: str = "") -> tuple[str, str | None]:
        """(status, ref): status is resolved | ambiguous | broken. `source` is the linking
        item, for Obsidian's nearest-file rule."""
        if target in self.notes:
            return "resolved", target
        if target + ".md" in self.notes:
            return "resolved", target + ".md"
        if target in self.records:
            return "resolved", target
        found = self.note_paths.find(source, target)
        if found:
            return found
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


@dataclass
class Resolved:
    """The last link resolution in this process, by source ref: its object, its links, their
    problems; and each target as written → the sources naming it."""
    items: dict = field(default_factory=dict)
    links: dict = field(default_factory=dict)
    problems: dict = field(default_factory=dict)
    by_target: dict = field(default_factory=dict)

    def forget(self, ref: str) -> None:
        del self.items[ref], self.problems[ref]
        for link in self.links.pop(ref):
            sources = self.by_target.get(link.target)
            if sources is not None:
                sources.discard(ref)
                if not sources:
                    del self.by_target[link.target]


def resolve_links(brain_name, notes: dict[str, Note], records: dict[str, Record], resolver: Resolver,
                  known: Resolved | None = None, reached=None):
    """Every link of every note, then record, and the broken ones' problems. `known`: the last
    resolution in this process, left holding this one's: a source object unchanged since resolves
    as it did unless `reached(known)` names it (reach.py: the sources whose links the change of
    the resolver's inputs may reach; None: all)."""
    known = Resolved() if known is None else known
    objects = known.items
    todo = set(compress(notes, map(is_not, notes.values(), map(objects.get, notes))))
    todo.update(compress(records, map(is_not, records.values(), map(objects.get, records))))
    todo |= objects.keys() - notes.keys() - records.keys()       # gone
    todo |= set(objects) if reached is None else reached(known)
    for ref in todo:
        item, was, old = notes.get(ref, records.get(ref)), objects.get(ref), known.links.get(ref)
        if was is not None:
            known.forget(ref)
        if item is None:
            continue
        new = _note_links(brain_name, ref, item, resolver) if ref in notes else _record_links(ref, item, resolver)
        # an unchanged object's links that resolve as they did stay the same objects (views/delta.py)
        known.items[ref], known.links[ref], known.problems[ref] = item, old if was is item and old == new[0] else new[0], new[1]
        for link in known.links[ref]:
            known.by_target.setdefault(link.target, set()).add(ref)
    order = [*notes, *records]
    return (list(chain.from_iterable(map(known.links.__getitem__, order))),
            list(chain.from_iterable(map(known.problems.__getitem__, order))))


def missing_files(brain_name, notes: dict[str, Note], holds) -> list[Problem]:
    """A broken link for each Markdown link or image to a file (Note.files) that is not where
    the note's folder joined with it says, as the page links it (emit/html.py): `holds(path)`
    tells whether the brain holds a file at `path`. One climbing above the root is not reported,
    as a `.md` one is not."""
    out = []
    for ref, note in notes.items():
        for raw in note.files:
            at = joined(posixpath.dirname(ref), raw.target)
            if not at.startswith("..") and not holds(at):
                out.append(_broken(brain_name, ref, raw))
    return out


def _broken(brain_name, ref: str, raw: RawLink) -> Problem:
    where = f"line {raw.line}: " if raw.line else f"relations.{raw.relation}: "
    return Problem(brain_name, ref, "broken_link", f"{where}{raw.target!r} resolves to nothing")


def _note_links(brain_name, ref: str, note: Note, resolver: Resolver) -> tuple[list, list]:
    links, problems = [], []
    for raw in note.links:
        links.append(_link(ref, raw, resolver))
        if links[-1].status == "broken":
            problems.append(_broken(brain_name, ref, raw))
    return links, problems


def _record_links(ref: str, rec: Record, resolver: Resolver) -> tuple[list, list]:
    links = [_link(ref, _record_target(target, "links"), resolver) for target in rec.refs]
    for relation, targets in rec.relations.items():
        for target in targets:
            links.append(_link(ref, _record_target(target, relation), resolver))
    if rec.author:
        links.append(_link(ref, RawLink(target=rec.author, relation="author", line=0), resolver))
    return links, []


def _record_target(target: str, relation: str) -> RawLink:
    """Records may name a target bare or as a [[wikilink]], like notes' relations."""
    m = re.fullmatch(r"!?\[\[(.+?)\]\]", target.strip())
    if m:
        name, heading, _ = split_wikilink(m.group(1))
        return RawLink(target=name, relation=relation, line=0, heading=heading)
    return RawLink(target=target, relation=relation, line=0)


def _link(source: str, raw: RawLink, resolver: Resolver) -> Link:
    if not raw.target and raw.heading:   # [[#Heading]] points into the same note
        status, ref = "resolved", source
    elif raw.heading and f"{raw.target}#{raw.heading}" in resolver.records:   # a record id holding '#'
        status, ref = "resolved", f"{raw.target}#{raw.heading}"
    elif raw.embed and not raw.target.endswith(".md") and resolver.attachment(source, raw.target):
        status, ref = "resolved", resolver.attachment(source, raw.target)
    else:
        status, ref = resolver.resolve(raw.target, source)
        if status == "broken" and raw.kind == "wikilink" and not raw.target.endswith(".md") \
                and resolver.attachment(source, raw.target):   # [[report.pdf]] links a file
            status, ref = "resolved", resolver.attachment(source, raw.target)
    return Link(source=source, target=raw.target, relation=raw.relation, status=status, ref=ref,
                heading=raw.heading, line=raw.line)


def known_identities(config_identities, notes, records, sources, kept: dict | None = None) -> dict[str, tuple[str, ...]]:
    """Every identity the brain names: configured ones with their aliases, plus entities seen
    anywhere. `kept`: the notes and records of the last call in this process, the identities
    each names and how many name each identity, left holding this call's: while the sources are
    the same, only the items whose object changed are read again."""
    kept = {} if kept is None else kept
    if kept.get("sources") != list(sources):
        kept.update(sources=list(sources), notes={}, records={}, named={}, count={})
    named, count = kept["named"], kept["count"]
    changed = set()
    for now, last in ((notes, kept["notes"]), (records, kept["records"])):
        changed |= last.keys() - now.keys()
        changed.update(compress(now, map(is_not, now.values(), map(last.get, now))))
    for ref in changed:
        for ident in named.pop(ref, ()):
            count[ident] -= 1
            if not count[ident]:
                del count[ident]
        item = notes.get(ref, records.get(ref))
        if item is not None:
            named[ref] = _named(item, sources)
            for ident in named[ref]:
                count[ident] = count.get(ident, 0) + 1
    kept["notes"], kept["records"] = notes, records
    out = {k: tuple(v) for k, v in config_identities.items()}
    for ident in count:
        out.setdefault(ident, ())
    return dict(sorted(out.items()))


def _named(item, sources) -> tuple[str, ...]:
    """The identities a note or record names."""
    if isinstance(item, Note):
        found = list(item.entities) + [raw.target for raw in item.links
                                       if raw.kind in ("identity", "wikilink") and is_identity(raw.target, sources)]
    else:
        texts = (item.author or "", *item.refs, *(t for ts in item.relations.values() for t in ts))
        found = [text for text in texts if text and is_identity(text, sources)]
    return tuple(found)
