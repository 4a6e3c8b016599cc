"""Listing views (docs/replies.md#listings): folders, tags, identities (sources: views/sources.py).

Every listing pages at 50 items (builder.kernel.listing.paged). Folder and tag pages list notes by
path; source, undated and identity pages list newest first by placement time (§4.1).
"""
from __future__ import annotations

import posixpath
from operator import attrgetter
from dataclasses import dataclass, field
from datetime import datetime

from ..kernel import refs
from ..kernel.listing import newest_first, paged
from ..kernel.model import Brain
from ..kernel.times import rfc3339
from .view import View
from .graph import Graph
from .items import listed
from .memo import Memos
from .signals import badge

TEMPLATE = "listing.html"


@dataclass(frozen=True)
class Ctx:
    """What every computed view needs: the brain, its graph, the build instant (as text and as a
    datetime), each reminder-eligible note's signals and each source's coverage."""
    brain: Brain
    g: Graph
    as_of: str
    now: datetime
    reviews: dict[str, dict]
    coverage: dict[str, dict]
    items: dict = field(default_factory=dict, compare=False)   # item()'s arguments → (stamp, result)
    kept: dict = field(default_factory=dict, compare=False)    # the same, of the last build in this process
    memos: Memos = field(default=None, compare=False)          # views/memo.py
    # refs whose items (item()'s stamp) changed since the last compute in this process, and refs
    # whose replies may have (views/delta.py); None: a compute from scratch, everything changed
    changed: set | None = field(default=None, compare=False)
    dirty: set | None = field(default=None, compare=False)
    then: datetime | None = field(default=None, compare=False)   # the last compute's instant, when not `now`

    def fresh(self, refs) -> bool:
        """Whether the item of any of `refs` changed since the last compute."""
        return self.changed is None or not self.changed.isdisjoint(refs)


def placed(brain: Brain, ref: str) -> datetime | None:
    """Placement time (docs/brain.md#times): a record's event time, else its observation; a note's event
    time (date/start/due/end), else its modification time."""
    if ref in brain.records:
        return brain.records[ref].placed
    note = brain.notes.get(ref)
    if note is not None:
        return note.event or brain.modified[ref]
    return None


def item(ctx: Ctx, ref: str, *, timed: bool = False, excerpt: str | None = None) -> dict:
    """One listed item with its review badge; `timed` lists also carry `placed` (their sort key).
    Made once per build and shared by every listing holding it (an item sits on ~7), and kept by
    the next build in this process while what it is made of is unchanged: never mutate."""
    key = (ref, timed, excerpt)
    made = ctx.items.get(key)
    if made is None:
        stamp = _stamp(ctx, ref)
        made = ctx.kept.get(key)
        if made is None or made[0] != stamp:
            out = listed(ctx.brain, ref, excerpt) | badge(ctx.reviews.get(ref))
            if timed:
                out["placed"] = rfc3339(placed(ctx.brain, ref))
            made = (stamp, out)
        ctx.items[key] = made
    return made[1]


def _stamp(ctx: Ctx, ref: str) -> tuple:
    """What an item of `ref` is made of besides its arguments (items.listed, badge, placed): the
    note or record object (immutable, kept by the parse while its file is unchanged), a note's
    modification time and review signals, a section's note."""
    brain = ctx.brain
    note = brain.notes.get(ref)
    if note is not None:
        return ("note", note, brain.modified[ref], ctx.reviews.get(ref))
    if ref in brain.records:
        return ("record", brain.records[ref])
    return ("other", brain.notes.get(ref.partition("#")[0]) if "#" in ref else None)


def base(ctx: Ctx, page: str, ref: str, title: str, **extra) -> dict:
    return {"page": page, "brain": ctx.brain.name, "ref": ref, "uri": refs.uri(ctx.brain.name, ref),
            "title": title, **extra}


def view(ctx: Ctx, ref: str, pages: list[dict], template: str = TEMPLATE, **extra) -> View:
    return View(ctx.brain.name, ref, template, tuple(pages), extra=extra)


def _children(keys, parent) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key in sorted(keys):
        out.setdefault(parent(key), []).append(key)
    return out


def _listing(ctx: Ctx, family: str, ref: str, notes: tuple[str, ...], b: dict) -> View:
    """A page listing `notes` by path, made again only when they or their items changed."""
    stamp = (notes, tuple(b.items()))
    return ctx.memos[family](ref, stamp, lambda: view(ctx, ref, paged(b, [item(ctx, r) for r in notes])), ctx.fresh(notes))


def folder_views(ctx: Ctx) -> list[View]:
    """Every folder holding notes at any depth, listing them all by path, with its subfolders."""
    members, children = ctx.memos["folder members"]("", tuple(ctx.brain.notes), lambda: _folders(ctx.brain.notes))
    return [_listing(ctx, "folders", folder, tuple(notes), base(ctx, "folder", folder, folder, folders=children.get(folder, [])))
            for folder, notes in sorted(members.items())]


def _folders(notes) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    members: dict[str, list[str]] = {}
    for ref in sorted(notes):
        folder = posixpath.dirname(ref)
        while folder:
            members.setdefault(folder, []).append(ref)
            folder = posixpath.dirname(folder)
    return members, _children(members, posixpath.dirname)


def _tags(notes: dict) -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    members: dict[str, set[str]] = {}
    for ref, note in notes.items():
        for tag in note.tags:
            parts = tag.split("/")
            for i in range(1, len(parts) + 1):
                members.setdefault("/".join(parts[:i]), set()).add(ref)
    return members, _children(members, lambda t: t.rpartition("/")[0])


def tag_views(ctx: Ctx) -> list[View]:
    """A page per tag, its parents included: `tags/website` lists notes tagged website/launch too."""
    notes = ctx.brain.notes
    # who holds which tag is a function of the notes' refs and tags (kept by the parse while unchanged)
    stamp = (tuple(notes), tuple(map(attrgetter("tags"), notes.values())))
    members, children = ctx.memos["tag members"]("", stamp, lambda: _tags(notes))
    return [_listing(ctx, "tags", f"tags/{tag}", tuple(sorted(notes)),
                     base(ctx, "tag", f"tags/{tag}", f"#{tag}", tag=tag, tags=children.get(tag, [])))
            for tag, notes in sorted(members.items())]


def identity_views(ctx: Ctx) -> list[View]:
    """Every note and record naming an identity: notes claiming it in `entities`, and every item
    with a resolved link to it or to a note claiming it (records' author/refs/relations, notes'
    links and relations). Exact, case-sensitive matches only (docs/brain.md#identities)."""
    claiming: dict[str, list[str]] = {ident: [] for ident in ctx.brain.identities}
    for ref, note in ctx.brain.notes.items():
        for ident in dict.fromkeys(note.entities):
            claiming.setdefault(ident, []).append(ref)
    views = []
    for ident, claimers in sorted(claiming.items()):
        claimed = sorted(claimers)
        # A link to a note claiming the identity names it too: the resolver treats the two as one.
        # (views/graph.py keeps a target's backlinks the same tuple while unchanged)
        linking = tuple(ctx.g.backlinks.get(target) for target in (ident, *claimed))
        listed = ctx.memos["identity members"](ident, (tuple(claimed), linking), lambda: tuple(sorted(
            {*claimed, *(link.source for links in linking if links for link in links)})))

        def make(ident=ident, claimed=claimed, listed=listed) -> View:
            b = base(ctx, "identity", ident, ident, identity=ident, aliases=list(ctx.brain.identities.get(ident, ())),
                     claimed_by=[refs.uri(ctx.brain.name, r) for r in claimed])
            return view(ctx, ident, paged(b, newest_first([item(ctx, r, timed=True) for r in listed])))
        views.append(ctx.memos["identities"](ident, (tuple(claimed), listed), make, ctx.fresh(listed)))
    return views
