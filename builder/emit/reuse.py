"""HTML pages a rebuild need not render again (issue 15): those whose every input is what it was
when the last build in this process rendered them (emit/state.py keeps a PageMemo per brain).

A page is a function of its view's reply pages and of what the page shows of other things:
- a note page: the note itself (body, slots), each item it links to or is linked from (a
  record's anchor lives on its day page, a heading link needs the target's sections) and, through
  embeds, what each embedded note links to;
- a listing, period or day page: its items' listed dicts (a record's URL follows from its
  times) and, on a day page, each item and a record's whole read and the items it links to,
  its relation lists, its neighbouring days, and the newest day of its source;
- every page: the brain's config, attachments, which notes, identities and listing pages exist,
  the build instant's day (due badges), the base URL and whether it is the site's first brain
  (index.html); the pages that print the build instant (listing_pages.stamped), the instant.
Items are compared as model objects, by value. The key holds all of these; when a shared thing
changes every page is rendered. A kept page is taken from the previous site only when the
writer's file index vouches it holds the bytes this memo saw written (Writer.keep), so a site
written by another build is never mistaken for it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..kernel.model import Brain
from ..views import View
from ..views.graph import Graph
from .data import stored_in_files
from .days import local_day
from .listing_pages import DAY_TEMPLATE, TEMPLATES, SiteViews, stamped
from .pages import offset_variant
from .urls import page_path, reply_path


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


def _note_key(brain: Brain, g: Graph, view: View) -> tuple:
    return view.pages, tuple((d, _item(brain, d)) for d in sorted(_deps(brain, g, view.ref)))


def _listing_key(brain: Brain, site: SiteViews, view: View, as_of: str) -> tuple:
    relations = tuple(v.pages for v in sorted(site.relations.get(view.ref, []), key=lambda v: v.variant))
    newest = site.days.get(view.pages[0].get("source"), [None])[-1]
    key = (view.pages, view.extra, relations, site.neighbours.get(view.ref), newest, stamped(view, as_of) and as_of)
    if view.template != DAY_TEMPLATE and view.pages[0].get("page") != "undated":
        return key    # its items are shown from their listed dicts (in view.pages) alone
    items = [it["ref"] for p in view.pages for it in p.get("items", ())]
    return key + tuple((r, _item(brain, r), site.records[r].pages if r in site.records else None,
                        _linked(brain, site.records[r]) if r in site.records else None) for r in items)


def _linked(brain: Brain, record: View) -> tuple:
    """What a record shown in full shows of the items it links to: their titles (their objects)."""
    return tuple(_item(brain, link["ref"]) for p in record.pages for link in p.get("links", ()) if link["ref"])


def page_keys(brain: Brain, g: Graph, site: SiteViews, views, root: bool, as_of: str) -> dict[str, tuple]:
    """{site path: key} of every HTML page the views scope renders (emit/pages.py, listing_pages.py)
    and of every reply file (its bytes are a function of its page alone)."""
    keys = {}
    for view in views:
        if stored_in_files(view):
            for page in view.pages:
                keys[reply_path(view.brain, view.ref, *offset_variant(view, page))] = page
        if view.template == "note.html":
            keys[page_path(brain.name, view.ref)] = _note_key(brain, g, view)
        elif not view.variant and view.template in TEMPLATES + (DAY_TEMPLATE,):
            key = keys[page_path(brain.name, view.ref)] = _listing_key(brain, site, view, as_of)
            if root and view.ref == "home":
                keys["index.html"] = key
    return keys


@dataclass
class PageMemo:
    shared: tuple | None = None
    pages: dict[str, tuple] = field(default_factory=dict)   # site path → (key, digest of the page written)

    def begin(self, brain: Brain, site: SiteViews, as_of: str, base_url: str | None, root: bool) -> None:
        """A change to what every page shares forgets every page."""
        shared = (brain.config, brain.attachments, frozenset(brain.notes), frozenset(brain.identities),
                  frozenset(site.known), local_day(as_of, brain.config.timezone), base_url, root)
        if shared != self.shared:
            self.shared, self.pages = shared, {}

    def keep(self, writer, keys: dict[str, tuple]) -> set[str]:
        """The site paths `writer` took from the previous site unchanged."""
        kept = set()
        for path, key in keys.items():
            old = self.pages.get(path)
            if old is not None and old[0] == key and writer.keep(path, old[1], path):
                kept.add(path)
        return kept

    def remember(self, writer, keys: dict[str, tuple]) -> None:
        """After the pages are written: what each page's key gave."""
        self.pages = {path: (key, writer.digests[path]) for path, key in keys.items() if path in writer.digests}
