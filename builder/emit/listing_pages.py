"""Emit the HTML of computed views: home, listings and periods (their first page of items; bf.js
loads the rest), each source's day pages and undated page (every record in full, the only place
a record is shown), and the site root `index.html` (the first brain's home). Replies of these
views, and the timeline `Nd` period reads are computed from, live in the compact data
(emit/data.py)."""
from __future__ import annotations

import re
from collections.abc import Container, Sequence
from datetime import date
from zoneinfo import ZoneInfo

from markupsafe import Markup, escape

from ..kernel import refs
from ..kernel.model import Brain
from ..kernel.text import cut
from ..kernel.times import from_rfc3339
from ..views import View
from .html import NoteRenderer, ref_url, render
from .data import stored_in_files
from .days import stamp
from .pages import whole_reply, common, grouped
from .recordtext import record_html
from .urls import crumbs, page_path, record_page_ref, relation_anchor, relative
from .writer import Writer

TEMPLATES = ("listing.html", "home.html")
DAY_TEMPLATE = "day.html"        # a source's day: each of its records in full (views/calendar.py)
PAGED = TEMPLATES + (DAY_TEMPLATE,)     # besides note.html: the templates of views with a page
FRONT = "index.md"   # a vault's front page: home shows its text above the dashboard
STAMPED = ("home", "memories", "source")   # pages that print the build instant (stamped), and some periods


def chart_svg(buckets: list[tuple[str, int]], link=None) -> Markup:
    """A bar per bucket, scaled to the largest, over a baseline; each bar's <title> names its
    bucket and count. The axis is HTML beside the stretched SVG (text inside it would stretch
    too): the largest count at the top, zero at the baseline, the first and last bucket under it.
    The chart's name says what it shows in words. `link(label)` gives a URL for a bucket (a day or
    month page) or None; bars with items link there."""
    if not buckets:
        return Markup("")
    top = max(count for _, count in buckets)
    width, height = 10 * len(buckets), 40
    bars = []
    for i, (label, count) in enumerate(buckets):
        h = max(count * height / (top or 1), 1 if count else 0)
        bar = (f'<rect x="{i * 10 + 1}" y="{height - h:.1f}" width="8" height="{h:.1f}">'
               f'<title>{escape(label)}: {count}</title></rect>')
        url = link(label) if link and count else None
        bars.append(f'<a href="{escape(url)}">{bar}</a>' if url else bar)
    total = sum(count for _, count in buckets)
    first, last = escape(buckets[0][0]), escape(buckets[-1][0])
    busiest = next(label for label, count in buckets if count == top)
    name = (f"{total} item{'' if total == 1 else 's'} from {first} to {last}"
            + (f", most ({top}) in {escape(busiest)}" if top else ""))
    return Markup(f'<div class="chart-plot"><span class="chart-top" aria-hidden="true">{top}</span>'
                  f'<svg class="chart" viewBox="0 0 {width} {height}" preserveAspectRatio="none" role="group" '
                  f'aria-label="Activity: {name}">{"".join(bars)}'
                  f'<line class="chart-base" x1="0" y1="{height}" x2="{width}" y2="{height}"/></svg>'
                  f'<span class="chart-zero" aria-hidden="true">0</span></div>'
                  f'<p class="chart-axis" aria-hidden="true"><span>{first}</span><span>{last}</span></p>')


def _containing(ref: str) -> list[str]:
    """The calendar periods holding a calendar period: a day's year, month and ISO week; a week's or month's year."""
    if len(ref) == 10:
        day = date.fromisoformat(ref)
        iso = day.isocalendar()
        return [ref[:4], ref[:7], f"{iso.year:04d}-W{iso.week:02d}"]
    return [ref[:4]] if len(ref) > 4 else []


# Listing pages show a note's opening words, shorter than the JSON item's excerpt (up to 320
# characters): the same item appears on ~7 listings, and its page and reply hold the rest; none when
# they say no more than the title (_listed_excerpt); a summary whose first sentence starts with its
# title ("Diagram is a note that…") is kept whole. A record is listed by its title (its first words when it has none),
# source and time, as Quartz lists pages by title and date: its whole text is one click away on its
# day page (docs/decisions.md). Its JSON item keeps its excerpt.
LISTED_EXCERPT = 160


def _item_fragment(it: dict, tz: str) -> tuple[str, str]:
    """An item's <li> split around its link URL (the only part that depends on the page)."""
    meta = ""
    if it.get("source"):
        when = (f' · <time datetime="{it["time"]}">{stamp(it["time"], tz)}</time>' if it.get("time")
                else f' · observed <time datetime="{it["observed"]}">{stamp(it["observed"], tz)}</time>'
                if it.get("observed") else "")
        meta = f' <span class="meta">{escape(it["source"])}{when}</span>'
    if it.get("fields"):
        meta += (' <span class="fields">' + "".join(f'<span class="field">{escape(k)}: {escape(v)}</span>'
                                                   for k, v in sorted(it["fields"].items())) + "</span>")
    text = "" if it.get("source") else it.get("excerpt") or ""
    text = _listed_excerpt(text, it["title"])
    if text:
        meta += f'<p class="excerpt">{escape(cut(text, LISTED_EXCERPT))}</p>'
    # a record's kind goes without saying (its source line names it), as does a note's (most listed
    # items are one or the other): a note's badge is its type, when it has one
    kind = " · ".join(escape(k) for k in (None if it["kind"] == "note" else it["kind"], it.get("type")) if k)
    badge = f' <span class="badge">{kind}</span>' if kind and not it.get("source") else ""
    review = ' <span class="badge review" title="asks for review">review</span>' if it.get("review") else ""
    return ('<li><a href="', f'">{escape(it["title"])}</a>{badge}{review}{meta}</li>\n')


def _listed_excerpt(text: str, title: str) -> str:
    """What a listing shows of an item's excerpt: nothing when it says no more than its title (the
    title was cut from it, '…', or is all of it); the rest when it opens with the title as a heading
    would (the title, a space, a capital: "Plan We start…"); else all of it, as when its first
    sentence starts with the title ("Diagram is a note…")."""
    lead = title.removesuffix("…")
    if not lead or not text.startswith(lead):
        return text
    rest = text[len(lead):]
    if lead != title or not rest.strip(" .!?:;"):
        return ""
    return rest[1:] if rest[0] == " " and rest[1:2].isupper() else text


class ItemLists:
    """Renders listed items as HTML: each item's fragment once per process (an item sits on
    many listings; the per-item Jinja macro was the largest cost of rendering listings)."""

    def __init__(self, brain: Brain):
        self.brain, self.fragments = brain, {}

    def __call__(self, items: list[dict], target: str) -> Markup:
        out = ['<ul class="items">\n']
        for it in items:
            key = (it["ref"], it.get("excerpt"), it.get("review"))
            parts = self.fragments.get(key)
            if parts is None:
                parts = self.fragments[key] = _item_fragment(it, self.brain.config.timezone)
            out += (parts[0], escape(relative(target, ref_url(self.brain, it["ref"]))), parts[1])
        out.append("</ul>\n")
        return Markup("".join(out))


def _bucket_url(brain, page: str, label: str) -> str | None:
    """Chart buckets that are periods (days, months) link to their page; hours do not."""
    return relative(page, page_path(brain, label)) if len(label) >= 7 else None


def when_words(as_of: str, tz: str):
    """'today', 'tomorrow', 'in 3 days', 'yesterday', '2 days ago': calendar days in the brain's zone."""
    zone = ZoneInfo(tz)
    today = from_rfc3339(as_of).astimezone(zone).date()

    def words(instant: str | None) -> str:
        if not instant:
            return ""
        days = (from_rfc3339(instant).astimezone(zone).date() - today).days
        if days == 0:
            return "today"
        if abs(days) == 1:
            return "tomorrow" if days > 0 else "yesterday"
        return f"in {days} days" if days > 0 else f"{-days} days ago"
    return words


class SiteViews:
    """What a page needs to know about the other views of its brain, worked out once per build
    (before the page workers fork): which refs have a page, each target's relation lists, each
    record's read, each source's days."""

    def __init__(self, views: Sequence[View]):
        self.known: set[str] = set()
        self.relations: dict[str, list[View]] = {}      # target ref → its relation views
        self.records: dict[str, View] = {}               # record ref → its read
        days: dict[str, list[str]] = {}                  # source → its day refs
        for v in views:
            self._add(v, days)
        self._order(days)

    def after(self, came: Sequence[View], went: Sequence[View]) -> "SiteViews":
        """What these views know with the views `went` gone and `came` added (entries.came_went:
        views.compute keeps an unchanged view's object), as a copy: a rebuild patches the last
        build's instead of looking at every view again (70k at 10k notes)."""
        site = SiteViews(())
        site.known, site.records, site.relations = set(self.known), dict(self.records), dict(self.relations)
        days = {source: list(refs) for source, refs in self.days.items()}
        for v in went:
            if v.variant and v.variant[0] == "r":
                site.relations[v.ref] = [x for x in site.relations.get(v.ref, ()) if x is not v]
                if not site.relations[v.ref]:
                    del site.relations[v.ref]
            elif v.template == "record.html":
                if site.records.get(v.ref) is v:
                    del site.records[v.ref]
            elif v.template == DAY_TEMPLATE:
                days[v.pages[0]["source"]].remove(v.ref)
            if v.template in PAGED and not v.variant:
                site.known.discard(v.ref)
        for v in came:
            site._add(v, days)
        site._order({source: refs for source, refs in days.items() if refs})
        return site

    def _add(self, v: View, days: dict[str, list[str]]) -> None:
        template = v.template
        if v.variant and v.variant[0] == "r":
            self.relations[v.ref] = [*self.relations.get(v.ref, ()), v]
        elif template == "record.html":
            self.records[v.ref] = v
        elif template == DAY_TEMPLATE:
            days.setdefault(v.pages[0]["source"], []).append(v.ref)
        if template in PAGED and not v.variant:
            self.known.add(v.ref)

    def _order(self, days: dict[str, list[str]]) -> None:
        self.days = {source: sorted(refs) for source, refs in days.items()}
        self.neighbours: dict[str, tuple[str | None, str | None]] = {}
        for refs in self.days.values():
            for i, ref in enumerate(refs):
                self.neighbours[ref] = (refs[i - 1] if i else None, refs[i + 1] if i + 1 < len(refs) else None)


def emit_listing_pages(writer: Writer, brain: Brain, views: Sequence[View], site: SiteViews, as_of: str,
                       root: bool = False, skip: Container[str] = (), item_lists: "ItemLists | None" = None,
                       outgoing: dict | None = None) -> None:
    """Pages of the listing `views` (their first page of items: bf.js loads the rest), and the
    day and undated pages showing records in full; `site` knows every view of the brain.
    Relation lists have no page of their own: they are shown on their target's page. Pages at
    the paths in `skip` were kept from the previous site (emit/reuse.py). `item_lists`: one the
    calls of a build share; `outgoing` (the graph's links by source) fills the links of the
    front page home shows."""
    words = when_words(as_of, brain.config.timezone)
    front = NoteRenderer(brain, outgoing or {}) if FRONT in brain.notes else None
    item_lists = item_lists or ItemLists(brain)
    for view in views:
        if view.variant:
            continue
        if view.template == DAY_TEMPLATE or (view.template == "listing.html" and view.pages[0].get("page") == "undated"):
            target = page_path(brain, view.ref)
            if target not in skip:
                writer.write(target, _render_day(brain, view, target, site, item_lists, as_of), view.ref)
        elif view.template in TEMPLATES:
            targets = [page_path(brain, view.ref)]
            if root and view.ref == "home":
                targets.append("index.html")
            for target in targets:
                if target not in skip:
                    writer.write(target, _render(brain, view, target, site, words, item_lists, as_of,
                                                 front if view.ref == "home" else None), view.ref)


def _source_link(brain, ref: str, known: set[str]):
    """A source in a period's counts links to the source's page of that period (its day page), else the source."""
    def link(source: str) -> str:
        day = f"memories/{source}/{ref}"
        return page_path(brain, day if day in known else f"memories/{source}")
    return link


def stamped(view: View, as_of: str) -> bool:
    """Whether a listing page is computed against the build instant and so prints it: home (upcoming,
    changed, reminders), sources (coverage status), relative periods and the calendar periods not
    over by then (what has happened so far); a period that is over no longer depends on it."""
    page = view.pages[0]
    if page.get("page") == "period":
        return view.ref in ("today", "yesterday") or page.get("period") == "relative" or page.get("end", "") > as_of
    return page.get("page") in STAMPED


def _render(brain: Brain, view: View, target: str, site: SiteViews, words, item_lists: ItemLists, as_of: str,
            front: NoteRenderer | None = None) -> str:
    page = view.pages[0]
    if page.get("page") == "memories":      # a few sources: all of them, in one table
        page = dict(page, items=[i for p in view.pages for i in p["items"]], next_offset=None)
    relation_lists = [(v.variant[1], relation_anchor(v.variant[1]), v.pages[0])
                      for v in sorted(site.relations.get(view.ref, []), key=lambda v: v.variant)]
    days = site.days.get(page.get("source"), []) if page.get("page") == "source" else []
    ctx = common(brain, view.ref, page, as_of, json=stored_in_files(view), stamped=stamped(view, as_of)) | {
        "relation_lists": relation_lists,
        "crumbs": crumbs(brain, view.ref, page.get("title") or view.ref, site.known) if view.ref != "home" else None,
        "item_url": lambda it: relative(target, ref_url(brain, it["ref"])),
        "item_list": lambda items: item_lists(items, target),
        "ref_page": lambda ref: page_path(brain, ref),
        "source_page": _source_link(brain, view.ref, site.known),
        "newest_day": days[-1] if days else None,
        "chart": chart_svg(view.extra.get("chart", []), lambda label: _bucket_url(brain, target, label)),
        "previous_period": view.extra.get("previous"), "next_period": view.extra.get("next"),
        "up_periods": _containing(view.ref) if view.extra.get("previous") or view.extra.get("next") else [],
        "when": words,
    }
    if view.ref == "home":
        ctx["description"] = f"{ctx['title']}: {len(brain.notes)} notes, {len(brain.records)} records"
        if front:
            ctx["front"] = _front_ids(front.body(FRONT, ctx["today"], target))
    return render(view.template, target, **ctx)


def _front_ids(body: str) -> str:
    """The front page's ids (and its links to them) under "front-": its "## Projects" must not
    take the id of home's own Projects section, which labels it (aria-labelledby)."""
    ids = set(re.findall(r'\sid="([^"]+)"', body))
    return re.sub(r'(\sid="|\shref="#)([^"]+)"', lambda m: f'{m.group(1)}front-{m.group(2)}"' if m.group(2) in ids else m.group(0), body)


def _render_day(brain: Brain, view: View, target: str, site: SiteViews, item_lists: ItemLists, as_of: str) -> str:
    """A source's day (or its undated records): every record placed there, in full, uncapped."""
    header = view.pages[0]
    items = [i for p in view.pages for i in p["items"]]
    here = view.ref.rsplit("/", 1)[1]
    shown, listed = [], []
    for it in items:
        rec = brain.records.get(it["ref"])
        if rec is not None and record_page_ref(rec, brain.config.timezone) == view.ref:
            shown.append(_record(brain, site.records[it["ref"]], target))
        else:
            listed.append(it)         # undated page: placed by observation, shown on its day page
    source = header["source"]
    previous, following = site.neighbours.get(view.ref, (None, None))
    count = len(shown) + len(listed)
    source_title = header["title"].rsplit(":", 1)[0]
    ctx = common(brain, view.ref, header, as_of) | {
        "description": f"{source_title}, {here}: {count} record{'' if count == 1 else 's'}",
        "crumbs": crumbs(brain, view.ref, here, site.known),
        "records": shown, "listed": listed, "item_list": lambda items: item_lists(items, target),
        "source": source, "source_title": source_title,
        "source_path": page_path(brain, f"memories/{source}"),
        "period_path": page_path(brain, here) if here in site.known else None,
        "previous_day": previous, "next_day": following,
        "ref_page": lambda ref: page_path(brain, ref),
        "is_day": here != "undated",
    }
    return render(DAY_TEMPLATE, target, **ctx)


def _label(brain: Brain, link: dict) -> str:
    """What a record's "Refers to" shows of a link: the title of the note or record it resolves to
    (a record names a note by its path: `refs: [projects/site.md]`), else the target as written."""
    item = brain.notes.get(link["ref"]) or brain.records.get(link["ref"]) if link["ref"] else None
    return item.title if item is not None else link["target"]


def _record(brain: Brain, view: View, target: str) -> dict:
    """What day.html shows of one record: its whole read, its text as HTML, its links (the
    author's is on its meta line) with their targets' titles, backlinks by relation."""
    reply = whole_reply(view)
    rec = reply["record"]
    author = rec.get("author")
    links = [l | {"label": _label(brain, l)} for l in reply["links"] if not (author and l["relation"] == "author")]
    return {"reply": reply, "record": rec, "anchor": refs.record_anchor(reply["ref"]), "links": links,
            "title": brain.records[reply["ref"]].own_title,
            "author_path": ref_url(brain, author) if author in brain.identities else None,
            "text": record_html(brain, rec["text"], reply["links"], lambda ref: relative(target, ref_url(brain, ref))),
            "backlinks": [(relation, relation_anchor(relation, reply["ref"]), links)
                          for relation, links in grouped(reply.get("backlinks", []))]}
