"""Which links a change of the resolver's inputs may resolve otherwise (bf serve --watch):
a new record or a renamed note reaches the few links naming it, not the brain's every link."""
from __future__ import annotations

import posixpath

from .resolve import path_key


def reaches(old: tuple | None, new: tuple):
    """A function of the last resolution (resolve.Resolved) giving the sources one of whose links
    may resolve otherwise under the resolver inputs `new` (Resolver.inputs) than under `old`;
    None when any may (no `old`, or the sources or attachments changed)."""
    if old is None:
        return None
    notes0, records0, names0, sources0, files0, claims0 = old
    notes1, records1, names1, sources1, files1, claims1 = new
    if sources0 != sources1 or files0 != files1:   # identities and attachments: rare, not followed
        return None
    notes, records = notes0 ^ notes1, records0 ^ records1
    # a target as written: a note's ref (with or without .md), a record's id (a heading's
    # `target#heading` too), a claimed name whose holders changed
    targets = set(notes) | {ref[:-3] for ref in notes if ref.endswith(".md")}
    targets.update(ref[:i] for ref in records for i, c in enumerate(ref) if c == "#")
    targets |= records
    names = set() if names0 is names1 else \
        {name for name in names0.keys() | names1.keys() if names0.get(name) != names1.get(name)}
    idents = {i for i in claims0.keys() | claims1.keys() if claims0.get(i) != claims1.get(i)}
    if idents:   # a note merged with an identity it claims (Resolver.resolve): the names it holds
        names.update(name for table in (names0, names1) for name, refs in table.items() if not idents.isdisjoint(refs))
    targets |= names
    files = {posixpath.basename(path_key(ref)) for ref in notes}   # Obsidian's path rule (PathIndex)

    def reached(known) -> set[str]:
        """The sources (resolve.Resolved) whose links name a target the change may reach."""
        names = [t for t in targets if t in known.by_target]
        if files:
            names += [t for t in known.by_target if posixpath.basename(path_key(t.strip().lstrip("/"))) in files]
        return set().union(*map(known.by_target.__getitem__, names))
    return reached
