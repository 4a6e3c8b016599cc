"""HTML pages a rebuild need not render again (bf serve --watch): those whose every input is what it was
when the last build in this process rendered them (emit/state.py keeps a PageMemo per brain).

A page is a function of its view's reply pages and of what the page shows of other things:
- a note page: the note itself (body, slots), each item it links to or is linked from (a
  record's anchor lives on its day page, a heading link needs the target's sections) and, through
  embeds, what each embedded note links to;
- a listing, period or day page: its items' listed dicts (a record's URL follows from its
  times) and, on a day page, each item and a record's whole read and the items it links to,
  its relation lists, a day's neighbouring days, and a source page's newest day;
- a listing or day page: which of the pages it may link to exist (its crumbs' parents, a period's
  source days, a day's period);
- every page: the brain's config, attachments, which notes and identities exist, the base URL
  and whether it is the site's first brain (index.html); the pages that print the build
  instant (listing_pages.stamped), the instant;
- a note page whose text, or an embedded note's, holds a due badge: the badges as the build
  instant's day words them ("due tomorrow", "was due 20 Nov"). No other page shows the day (home
  and the periods still running are stamped), so a new day renders the notes whose badges read
  otherwise, the stamped pages and what the views changed, not every page.
Items are compared as model objects, by value. A page's key holds all of these; when a shared
thing changes every page is rendered. A kept page is taken from the previous site only when the
writer's file index vouches it holds the bytes this memo saw written (Writer.keep), so a site
written by another build is never mistaken for it.

A key is made again only for a page one of whose inputs may have changed: the memo remembers
what each key read (its own view, embedded notes' views, record views, items: `reads`) and which
of those changed since is found by identity (views keep an unchanged reply's pages, the parse
and link resolution an unchanged item's object; anything else counts as changed and its
readers' keys are compared).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from operator import is_not

from ..kernel.model import Brain
from ..views import View
from ..views.graph import Graph
from .data import stored_in_files
from .entries import came_went
from .days import due_badge, local_day
from .listing_pages import DAY_TEMPLATE, FRONT, PAGED, SiteViews, stamped
from .pages import offset_variant
from .recordtext import claims, text_names, text_targets
from .urls import page_path, reply_path


def _deps(brain: Brain, g: Graph, ref: str) -> tuple[set[str], list[str]]:
    """Items the page of note `ref` shows or points into: its links' targets, its backlinks'
    sources, and through embeds (transitively) the embedded notes' own link targets; and the
    embedded notes."""
    out, todo, embedded = {ref}, [ref], []
    while todo:
        source = todo.pop()
        note = brain.notes.get(source)
        embeds = {(raw.target, raw.heading) for raw in note.links if raw.embed} if note else set()
        for link in g.outgoing.get(source, ()):
            if link.ref and link.ref not in out:
                out.add(link.ref)
                if (link.target, link.heading) in embeds and link.ref in brain.notes:
                    todo.append(link.ref)
                    embedded.append(link.ref)
    out.update(link.source for link in g.backlinks.get(ref, ()))
    return out, embedded


def _token(brain: Brain, ref: str) -> str:
    """The item whose object `_item(ref)` is: a section's note, else the ref itself."""
    note = ref.partition("#")[0]
    return note if note in brain.notes else ref


def _item(brain: Brain, ref: str):
    """What of item `ref` a page can show: its model object, or what kind of thing it is."""
    note = ref.partition("#")[0]
    if note in brain.notes:
        return brain.notes[note]
    if ref in brain.records:
        return brain.records[ref]
    return "identity" if ref in brain.identities else "attachment" if ref in brain.attachments else None


def _text_key(brain: Brain, g: Graph, ref: str, reads: set, today) -> tuple:
    """What the text of note `ref` shows of other things, as its note page and home (the front
    page's text) show it: the items it links to or is linked from, and its due badges."""
    deps, embedded = _deps(brain, g, ref)
    reads.update((_token(brain, d),) for d in deps)
    reads.update(embedded)
    key = (tuple((d, _item(brain, d)) for d in sorted(deps)),)
    badges = _badges(brain, (ref, *embedded), today)
    if badges:
        reads.add(TODAY)
        key += (badges,)
    return key


def _badges(brain: Brain, refs, today) -> tuple:
    """The due badges the text of the notes `refs` shows on `today` (emit/html.py fills them)."""
    return tuple(due_badge(*value, today) for ref in refs if ref in brain.notes
                 for kind, value in brain.notes[ref].slots if kind == "due")


EXISTS = "exists"   # (EXISTS, ref): read by the pages that link to ref's page when it has one
DAYS = "days"       # (DAYS, source): read by the pages that show which days the source has
NAME = "name"       # (NAME, name): read by the day pages whose records' text links that name
TODAY = ("today",)  # read by the note pages that show a due badge: worded against the build's day


def _existence(view: View) -> list:
    """The tokens `view` coming or going changes (_changed): those of a listing or day page (one
    SiteViews.known holds)."""
    if view.variant or view.template not in PAGED:
        return []
    return [(EXISTS, view.ref)] + ([(DAYS, view.pages[0]["source"])] if view.template == DAY_TEMPLATE else [])


def _known(brain: Brain, site: SiteViews, view: View, reads: set) -> tuple:
    """Which of the refs a listing page may link to have a page (SiteViews.known): the parents in
    its crumbs, each source's day of a period, a day's own period. The page reads those views: one
    that comes or goes re-keys it (not every page: the first save of a day makes a day page, which
    must not render every page of the site again; docs/serve.md#speed)."""
    parts = view.ref.split("/")
    asked = ["/".join(parts[:i]) for i in range(1, len(parts))] + [parts[-1]]
    asked += [f"memories/{source}/{view.ref}" for source in sorted(brain.sources)]
    reads.update((EXISTS, ref) for ref in asked)   # not the views themselves: most change with any record
    return tuple(ref in site.known for ref in asked)


def _listing_key(brain: Brain, site: SiteViews, view: View, as_of: str, reads: set) -> tuple:
    relations = tuple(v.pages for v in sorted(site.relations.get(view.ref, []), key=lambda v: v.variant))
    # the source's page links its newest day; a day page only its neighbours (not every day of a
    # source again when a record makes a newest day)
    newest = site.days.get(view.pages[0]["source"], [None])[-1] if view.pages[0].get("page") == "source" else None
    key = (view.pages, view.extra, relations, site.neighbours.get(view.ref), newest, stamped(view, as_of) and as_of,
           _known(brain, site, view, reads))
    if view.pages[0].get("source"):   # a day's neighbours, a source's newest day: its days as a whole
        reads.add((DAYS, view.pages[0]["source"]))
    if view.template != DAY_TEMPLATE and view.pages[0].get("page") != "undated":
        return key    # its items are shown from their listed dicts (in view.pages) alone
    items = [it["ref"] for p in view.pages for it in p.get("items", ())]
    for r in items:
        reads.add((_token(brain, r),))
        if r in site.records:
            reads.add(r)
            reads.update((_token(brain, link["ref"]),) for p in site.records[r].pages for link in p.get("links", ()) if link["ref"])
            reads.update((_token(brain, ref),) for ref, _ in _linked(brain, site.records[r])[1] if ref)
            if r in brain.records:   # a note that comes to claim a name its text links to
                reads.update((NAME, name) for name in text_names(brain.records[r].text))
    return key + tuple((r, _item(brain, r), site.records[r].pages if r in site.records else None,
                        _linked(brain, site.records[r]) if r in site.records else None) for r in items)


def _linked(brain: Brain, record: View) -> tuple:
    """What a record shown in full shows of the items it links to, in its links and its text's
    [[wikilinks]] (emit/recordtext.py): their titles (their objects)."""
    links = [link for p in record.pages for link in p.get("links", ())]
    named = text_targets(brain, brain.records[record.ref].text, links) if record.ref in brain.records else ()
    return (tuple(_item(brain, link["ref"]) for link in links if link["ref"]),
            tuple((ref, _item(brain, ref) if ref else None) for ref in named))


def page_keys(brain: Brain, g: Graph, site: SiteViews, view: View, root: bool, as_of: str, today) -> tuple[dict, set]:
    """{site path: key} of the HTML page of `view` (emit/pages.py, listing_pages.py) and of its
    reply files (their bytes are a function of the page alone); and what the keys read: views by
    ref (a view's own ref, embedded notes, records), items by (ref,). `today`: the build instant's
    day in the brain's zone (emit/days.local_day)."""
    keys, reads = {}, {view.ref}
    if stored_in_files(view):
        for page in view.pages:
            keys[reply_path(view.brain, view.ref, *offset_variant(view, page))] = page
    if view.template == "note.html":
        keys[page_path(brain, view.ref)] = (view.pages, *_text_key(brain, g, view.ref, reads, today))
    else:
        key = _listing_key(brain, site, view, as_of, reads)
        if view.ref == "home" and FRONT in brain.notes:   # home shows the front page's text, as its note page does
            key += (_item(brain, FRONT), *_text_key(brain, g, FRONT, reads, today))
        keys[page_path(brain, view.ref)] = key
        if root and view.ref == "home":
            keys["index.html"] = key
    return keys, reads


@dataclass
class PageMemo:
    shared: tuple | None = None
    as_of: str | None = None
    keys: dict[str, dict[str, tuple]] = field(default_factory=dict)   # page's ref → {site path: key}
    digests: dict[str, bytes] = field(default_factory=dict)   # site path → digest of the file its key gave
    page_of: dict[str, str] = field(default_factory=dict)     # site path → its page's ref
    reads: dict[str, set] = field(default_factory=dict)       # page's ref → what its keys read
    readers: dict[object, set] = field(default_factory=dict)  # a view's ref or an item's (ref,) → pages reading it
    stamped: set[str] = field(default_factory=set)            # pages whose keys hold the build instant
    seen: dict[object, View] = field(default_factory=dict)    # ref, or (ref, variant) → each view as last seen
    ids: dict[int, View] = field(default_factory=dict)        # id → each view of the last build (entries.came_went)
    pages: dict[str, View] = field(default_factory=dict)      # the views with a page, by ref
    items: tuple[dict, dict] = ({}, {})                       # the notes and records last seen
    made: list[str] = field(default_factory=list)             # this build's rendered pages
    site: tuple = (None, None)                                # (the `ids` it was made for, SiteViews)

    def site_views(self, views, came_went=came_went) -> SiteViews:
        """SiteViews of `views`: the last build's patched with the views that came and went since,
        when it was made for the views `ids` holds (a build that failed after may have left it newer).
        `came_went`: entries.came_went, or the build's entries.CameWent."""
        now, came, went = came_went(self.ids, views)   # _changed() asks the same: one answer
        last_ids, last = self.site
        site = last.after(came, went) if last is not None and last_ids is self.ids else SiteViews(views)
        self.site = (now, site)   # now: the `ids` _changed() leaves
        return site

    def begin(self, brain: Brain, site: SiteViews, as_of: str, base_url: str | None, root: bool) -> None:
        """A change to what every page shares forgets every page."""
        shared = (brain.config, brain.attachments, frozenset(brain.notes), frozenset(brain.identities),
                  tuple(sorted(brain.moved.items())), base_url, root)
        if shared != self.shared:
            self.shared, self.keys, self.digests, self.page_of = shared, {}, {}, {}
            self.reads, self.readers, self.stamped = {}, {}, set()

    def reuse(self, writer, brain: Brain, g: Graph, site: SiteViews, views, root: bool, as_of: str,
              came_went=came_went) -> tuple[list, set]:
        """Take from the previous site (Writer.keep) each file whose key is unchanged: the views
        whose pages must be rendered, and the paths kept among theirs."""
        changed, pages = self._changed(brain, views, came_went)
        today = local_day(as_of, brain.config.timezone)
        if self.as_of is None or today != local_day(self.as_of, brain.config.timezone):
            changed.add(TODAY)
        dirty = set().union(*(self.readers.get(t, ()) for t in changed))
        if as_of != self.as_of:
            dirty |= self.stamped
            dirty.update(ref for ref, v in pages.items() if v.template != "note.html" and stamped(v, as_of))
        if pages.keys() != self.keys.keys():
            dirty.update(pages.keys() - self.keys.keys())
            for ref in self.keys.keys() - pages.keys():
                self._forget(ref)
        self.as_of = as_of
        render = set()
        for ref in dirty:
            view = pages.get(ref)
            if view is not None and self._rekey(ref, *page_keys(brain, g, site, view, root, as_of, today),
                                                view.template != "note.html" and stamped(view, as_of)):
                render.add(ref)
        missed = writer.keep_all(self.digests)
        render.update(self.page_of[path] for path in missed)
        self.made = sorted(render)
        skip = {path for ref in render for path in self.keys[ref] if path in self.digests and path not in missed}
        return [pages[ref] for ref in self.made], skip

    def _rekey(self, ref: str, keys: dict, reads: set, holds_instant: bool) -> bool:
        """Keep page `ref`'s new keys and what they read: whether a file of it must be written."""
        old = self.keys.get(ref, {})
        for path in old.keys() - keys.keys():
            self.digests.pop(path, None)
            del self.page_of[path]
        for path, key in keys.items():
            if old.get(path) != key:
                self.digests.pop(path, None)
            self.page_of[path] = ref
        self.keys[ref] = keys
        self._read(ref, reads, holds_instant)
        return any(path not in self.digests for path in keys)

    def _forget(self, ref: str) -> None:
        self._rekey(ref, {}, set(), False)
        del self.keys[ref], self.reads[ref]

    def _changed(self, brain: Brain, views, came_went) -> tuple[set, dict[str, View]]:
        """The views (by ref: a relation list by its target's) and items (by (ref,)) that may have
        changed since the last build; and the views with a page, by ref. Only the views that
        came and went since are looked at (views.compute keeps an unchanged view's object)."""
        self.ids, came, went = came_went(self.ids, views)
        changed, seen, pages = set(), self.seen, self.pages
        for view in came:                  # before those gone: one replaced is no longer theirs
            if view.template is None:      # sections: no page shows their replies
                continue
            vid = (view.ref, view.variant) if view.variant else view.ref
            old = seen.get(vid)
            if old is None or (old.pages is not view.pages and old.pages != view.pages) or old.extra != view.extra:
                changed.add(view.ref)
            if old is None:
                changed.update(_existence(view))
            seen[vid] = view
            if view.template == "note.html" or (not view.variant and view.template in PAGED):
                pages[view.ref] = view
        for view in went:
            vid = (view.ref, view.variant) if view.variant else view.ref
            if view.template is not None and seen.get(vid) is view:
                del seen[vid]
                changed.add(view.ref)
                changed.update(_existence(view))
            if pages.get(view.ref) is view:
                del pages[view.ref]
        for mine, now in zip(self.items, (brain.notes, brain.records)):
            other = list(compress(now, map(is_not, now.values(), map(mine.get, now))))
            changed.update((ref,) for ref in other)
            if mine is self.items[0]:   # names claimed or given up: day pages whose records name them
                changed.update((NAME, name) for ref in other for name in claims(mine.get(ref)) | claims(now.get(ref)))
            if len(now) - sum(ref not in mine for ref in other) != len(mine):    # some item is gone
                changed.update((ref,) for ref in mine.keys() - now.keys())
        self.items = (brain.notes, brain.records)
        return changed, pages

    def _read(self, ref: str, reads: set, holds_instant: bool) -> None:
        for token in self.reads.get(ref, set()) - reads:
            self.readers[token].discard(ref)
        for token in reads - self.reads.get(ref, set()):
            self.readers.setdefault(token, set()).add(ref)
        self.reads[ref] = reads
        (self.stamped.add if holds_instant else self.stamped.discard)(ref)

    def remember(self, writer) -> None:
        """After the pages are written: the digest of each file rendered."""
        for ref in self.made:
            for path in self.keys[ref]:
                digest = writer.digests.get(path)
                if digest is not None:
                    self.digests[path] = digest
