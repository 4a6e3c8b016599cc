"""Note pages a rebuild need not render again (issue 15): those whose every input is what it was
when the last build in this process rendered them (emit/state.py keeps a NotePages per brain).

A note page is a function of its reply (view pages: title, links with their resolution,
backlinks, tags, signals, as_of …), of the items its HTML shows or points into — its own note
(body, slots), each item it links to or is linked from (a record's anchor lives on its day page,
a heading link needs the target's sections), and, through embeds, what each embedded note links
to — and of things every page shares: the brain's config, attachments, which notes and identities
exist, the base URL. The key holds all of these (items by their model objects, compared by
value); when a shared thing changes, every page is rendered. A kept page is taken from the
previous site only when the writer's file index vouches it holds the bytes this memo saw
written (Writer.keep), so a site written by another build is never mistaken for it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..kernel.model import Brain
from ..views import View
from ..views.graph import Graph
from .urls import page_path


def _shared(brain: Brain, as_of: str, base_url: str | None) -> tuple:
    return (brain.config, brain.attachments, frozenset(brain.notes), frozenset(brain.identities), as_of, base_url)


def _deps(brain: Brain, g: Graph, ref: str) -> set[str]:
    """Items the page of note `ref` shows or points into: its links' targets, its backlinks'
    sources, and through embeds (transitively) the embedded notes' own link targets."""
    out, todo = {ref}, [ref]
    while todo:
        source = todo.pop()
        note = brain.notes.get(source)
        embeds = {(raw.target, raw.heading) for raw in note.links if raw.embed} if note else set()
        for link in g.outgoing.get(source, ()):
            if link.ref and link.ref not in out:
                out.add(link.ref)
                if (link.target, link.heading) in embeds and link.ref in brain.notes:
                    todo.append(link.ref)
    out.update(link.source for link in g.backlinks.get(ref, ()))
    return out


def _item(brain: Brain, ref: str):
    """What of item `ref` a page can show: its model object, or what kind of thing it is."""
    note = ref.partition("#")[0]
    if note in brain.notes:
        return brain.notes[note]
    if ref in brain.records:
        return brain.records[ref]
    return "identity" if ref in brain.identities else "attachment" if ref in brain.attachments else None


@dataclass
class NotePages:
    shared: tuple | None = None
    pages: dict[str, tuple] = field(default_factory=dict)   # note ref → (key, digest of the page written)

    def key(self, brain: Brain, g: Graph, view: View) -> tuple:
        return view.pages, tuple((d, _item(brain, d)) for d in sorted(_deps(brain, g, view.ref)))

    def keys(self, brain: Brain, g: Graph, views, as_of: str, base_url: str | None) -> dict[str, tuple]:
        """{note ref: key} of every note view (a change to what all pages share forgets every page)."""
        shared = _shared(brain, as_of, base_url)
        if shared != self.shared:
            self.shared, self.pages = shared, {}
        return {v.ref: self.key(brain, g, v) for v in views if v.template == "note.html"}

    def keep(self, writer, keys: dict[str, tuple], brain: Brain) -> set[str]:
        """The note refs whose page `writer` took from the previous site unchanged."""
        kept = set()
        for ref, key in keys.items():
            old = self.pages.get(ref)
            if old is not None and old[0] == key and writer.keep(page_path(brain.name, ref), old[1], ref):
                kept.add(ref)
        return kept

    def remember(self, writer, keys: dict[str, tuple], brain: Brain) -> None:
        """After the pages are written: what each note page's key gave."""
        self.pages = {ref: (key, writer.digests[page_path(brain.name, ref)]) for ref, key in keys.items()
                      if page_path(brain.name, ref) in writer.digests}
