"""Emit Views: each reply page as JSON, and the HTML page people see."""
from __future__ import annotations

import posixpath
from collections.abc import Container, Sequence
from types import MappingProxyType

from ..kernel.config import language_tag
from ..kernel.model import Brain
from ..kernel.text import cut
from ..views import View
from ..views.graph import Graph
from .feeds import page_feeds
from .days import clock, due_badge, full_date, local_day, stamp
from .html import NoteRenderer, ref_url, render
from .look import footer_html
from .data import stored_in_files
from .urls import attachment_path, crumbs, page_path, relation_anchor, reply_path
from .writer import Writer

# An Open Graph description as long as link cards show it (X cuts at 200 characters, search
# snippets nearer 160), not the reply's whole 320-character excerpt in every page's head.
OG_DESCRIPTION = 200
LISTED = MappingProxyType({"folder": "Folder", "tag": "Notes tagged", "source": "Source", "period": "Period", "identity": "Identity",
          "type": "Type", "memories": ""})


def offset_variant(view: View, page: dict) -> tuple[str, ...]:
    offset = page.get("offset") or 0
    return view.variant + ((f"o{offset}",) if offset else ())


def emit_replies(writer: Writer, views: Sequence[View], skip: Container[str] = ()) -> None:
    """Reply files of notes and home; every other reply lives in the compact data (emit/data.py).
    Files at the paths in `skip` were kept from the previous site (emit/reuse.py)."""
    for view in views:
        if not stored_in_files(view):
            continue
        for page in view.pages:
            path = reply_path(view.brain, view.ref, *offset_variant(view, page))
            if path not in skip:
                writer.write_json(path, page, view.ref)


def grouped(backlinks: list[dict]) -> list[tuple[str, list[dict]]]:
    """Backlinks by relation, each linking note or record once (the reply has one per linking line)."""
    groups: dict[str, dict[str, dict]] = {}
    for b in backlinks:
        groups.setdefault(b["relation"], {}).setdefault(b["ref"], b)
    return sorted((relation, list(links.values())) for relation, links in groups.items())


def common(brain: Brain, ref: str, reply: dict, as_of: str, *variant: str, json: bool = False,
           stamped: bool = False) -> dict:
    """Context every page template gets. `today` is the build instant's day in the brain's zone;
    a `stamped` page (one computed against the build instant: emit/listing_pages.stamped) prints
    that instant in its footer, the others do not, so a later build rewrites only what it changes;
    `due_badge(task)` shows a task's due day, `day(instant)` a date as search result cards show it,
    `clock(instant)` its local time ("09:14"), `stamp(instant)` both ("3 Dec 2026, 09:14").
    `json`: the page's reply is a file of its own (notes, home), linked as `json`; any other page
    offers its reply through bf.js (`reply_uri`: base.html's "JSON reply" button).
    `description` (meta description; og:description too with a site URL) is the reply's excerpt
    (cut to OG_DESCRIPTION), else what a listing lists and how many (description());
    `lang` is the page's language (a note's own), `site_lang` the chrome's (its direction: base.html);
    `look` is the site's SiteConfig (emit/look.py), `footer` its footer as HTML;
    `site_url` and `feeds` (emit/feeds.py) are set only when the build has a site URL."""
    tz = brain.config.timezone
    today = local_day(as_of, tz)
    title = reply.get("title") or ref
    return {
        "site_title": brain.config.title, "brain": brain.name, "ref": ref, "title": title, "lang": brain.config.language,
        "site_lang": brain.config.language,
        "description": description(reply, title) or f"{title} · {brain.config.title}",   # an empty note's too
        "look": brain.config.site, "footer": footer_html(brain.config.site.footer),
        "site_url": brain.config.site_url, "feeds": page_feeds(brain, ref),
        "as_of": as_of if stamped else None, "json": reply_path(brain.name, ref, *variant) if json else None,
        "reply_uri": None if json else reply.get("uri"),
        "home": page_path(brain, "home"), "memories": page_path(brain, "memories"),
        "item_path": lambda r: attachment_path(brain.name, r) if r in brain.attachments else ref_url(brain, r),
        "tag_path": lambda t: page_path(brain, f"tags/{t}"),
        "rel_anchor": relation_anchor,
        "reply": reply, "today": today,
        "due_badge": lambda task: due_badge(task["due"], task.get("done", False), today),
        "day": lambda instant: full_date(local_day(instant, tz)),
        "clock": lambda instant: clock(instant, tz), "stamp": lambda instant: stamp(instant, tz),
    }


def description(reply: dict, title: str) -> str | None:
    """A page's meta description: its excerpt, else what a listing lists and how many, else None."""
    if reply.get("excerpt"):
        return cut(reply["excerpt"], OG_DESCRIPTION)
    if "total" in reply:
        n = reply["total"]
        word = LISTED.get(reply.get("page"), "Listing")
        return f"{word + ' ' if word else ''}{title}: {n} item{'' if n == 1 else 's'}"
    return None


def emit_item_pages(writer: Writer, brain: Brain, g: Graph, views: Sequence[View], as_of: str,
                    skip: Container[str] = ()) -> None:
    """Note pages. Records have no page of their own: emit/listing_pages.py shows each on its day page.
    Pages at the paths in `skip` were kept from the previous site (emit/reuse.py)."""
    renderer = NoteRenderer(brain, g.outgoing)
    # a field naming an identity shows its name (its first alias), linked to its page: "owner: Me", not "person:me"
    people = {ident: aliases[0] for ident, aliases in brain.identities.items() if aliases}
    for view in views:
        if view.template != "note.html":
            continue
        page = page_path(brain, view.ref)
        if page in skip:
            continue
        whole = whole_reply(view)
        ctx = common(brain, view.ref, whole, as_of, json=True) | {"crumbs": crumbs(brain, view.ref, whole["title"]),
                                                          "backlinks": grouped(whole.get("backlinks", []))}
        note = brain.notes[view.ref]
        ctx |= {"body": renderer.body(view.ref, ctx["today"]), "folder": posixpath.dirname(view.ref) or "/",
                "description": cut(note.excerpt, OG_DESCRIPTION) if note.excerpt else ctx["description"],
                "lang": language_tag(note.frontmatter.get("lang")) or ctx["lang"], "people": people}
        writer.write(page, render(view.template, page, **ctx), view.ref)


def whole_reply(view: View) -> dict:
    """The full reply of a paged read: page 0's fields with the text of every page joined."""
    first = dict(view.pages[0])
    if len(view.pages) == 1:
        return first
    if "record" in first:
        text = "".join(p["record"]["text"] for p in view.pages)
        return first | {"record": dict(first["record"], text=text)}
    return first | {"text": "".join(p["text"] for p in view.pages)}
