"""Emit the HTML of computed views (home, listings, periods, relation pages), the site root
`index.html` (the first brain's home), and each brain's timeline for `Nd` period reads.
JSON replies of these views go through emit_replies like every other View."""
from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from markupsafe import Markup, escape

from ..listing import PAGE_ITEMS
from ..model import Brain
from ..text import cut
from ..views import View
from .html import ref_url, render
from .pages import common, offset_variant
from .urls import page_path, relative
from .writer import Writer

TEMPLATES = ("listing.html", "home.html")


def timeline_path(brain: str) -> str:
    return f"_bf/{brain}/timeline.json"


def chart_svg(buckets: list[tuple[str, int]], link=None) -> Markup:
    """A bar per bucket, scaled to the largest; each bar's <title> names its bucket and count.
    `link(label)` gives a URL for a bucket (a day or month page) or None; bars with items link there."""
    if not buckets:
        return Markup("")
    top = max(count for _, count in buckets) or 1
    width, height = 10 * len(buckets), 40
    bars = []
    for i, (label, count) in enumerate(buckets):
        h = max(count * height / top, 1 if count else 0)
        bar = (f'<rect x="{i * 10 + 1}" y="{height - h:.1f}" width="8" height="{h:.1f}">'
               f'<title>{escape(label)}: {count}</title></rect>')
        url = link(label) if link and count else None
        bars.append(f'<a href="{escape(url)}">{bar}</a>' if url else bar)
    total = sum(count for _, count in buckets)
    return Markup(f'<svg class="chart" viewBox="0 0 {width} {height}" preserveAspectRatio="none" role="img" '
                  f'aria-label="activity: {total} item(s) over {len(buckets)} bucket(s)">{"".join(bars)}</svg>')


def _containing(ref: str) -> list[str]:
    """The calendar periods holding a calendar period: a day's year, month and ISO week; a week's or month's year."""
    if len(ref) == 10:
        day = date.fromisoformat(ref)
        iso = day.isocalendar()
        return [ref[:4], ref[:7], f"{iso.year:04d}-W{iso.week:02d}"]
    return [ref[:4]] if len(ref) > 4 else []


# Listing pages show a shorter excerpt than the JSON item (which keeps up to 320 characters):
# the same item appears on ~7 listings, and its page and reply hold the rest.
LISTED_EXCERPT = 160


def _item_fragment(it: dict) -> tuple[str, str]:
    """An item's <li> split around its link URL (the only part that depends on the page)."""
    meta = ""
    if it.get("source"):
        when = (f' · <time datetime="{it["time"]}">{it["time"]}</time>' if it.get("time")
                else f' · observed {it["observed"]}' if it.get("observed") else "")
        meta = f' <span class="meta">{escape(it["source"])}{when}</span>'
    if it.get("fields"):
        meta += (' <span class="fields">' + "".join(f'<span class="field">{escape(k)}: {escape(v)}</span>'
                                                   for k, v in sorted(it["fields"].items())) + "</span>")
    text = it.get("excerpt") or ""
    if text and text != it["title"]:
        meta += f'<p class="excerpt">{escape(cut(text, LISTED_EXCERPT))}</p>'
    badge = escape(it["kind"]) + (f" · {escape(it['type'])}" if it.get("type") else "")
    review = ' <span class="badge review" title="asks for review">review</span>' if it.get("review") else ""
    return (f'<li class="item kind-{escape(it["kind"])}"><a href="',
            f'">{escape(it["title"])}</a> <span class="badge">{badge}</span>{review}{meta}</li>\n')


class ItemLists:
    """Renders listed items as HTML: each item's fragment once per process (an item sits on
    many listings; the per-item Jinja macro was the largest cost of rendering listings)."""

    def __init__(self, brain: str):
        self.brain, self.fragments = brain, {}

    def __call__(self, items: list[dict], target: str) -> Markup:
        out = ['<ul class="items">\n']
        for it in items:
            key = (it["ref"], it.get("excerpt"), it.get("review"))
            parts = self.fragments.get(key)
            if parts is None:
                parts = self.fragments[key] = _item_fragment(it)
            out += (parts[0], escape(relative(target, ref_url(self.brain, it["ref"]))), parts[1])
        out.append("</ul>\n")
        return Markup("".join(out))


def _bucket_url(brain: str, page: str, label: str) -> str | None:
    """Chart buckets that are periods (days, months) link to their page; hours do not."""
    return relative(page, page_path(brain, label)) if len(label) >= 7 else None


def when_words(as_of: str, tz: str):
    """'today', 'tomorrow', 'in 3 days', 'yesterday', '2 days ago': calendar days in the brain's zone."""
    zone = ZoneInfo(tz)
    today = datetime.fromisoformat(as_of.replace("Z", "+00:00")).astimezone(zone).date()

    def words(instant: str | None) -> str:
        if not instant:
            return ""
        days = (datetime.fromisoformat(instant.replace("Z", "+00:00")).astimezone(zone).date() - today).days
        if days == 0:
            return "today"
        if abs(days) == 1:
            return "tomorrow" if days > 0 else "yesterday"
        return f"in {days} days" if days > 0 else f"{-days} days ago"
    return words


def _crumbs(brain: str, ref: str, title: str, known: set[str]) -> list[tuple[str, str | None]]:
    """home / each parent ref that has a page / this page's title."""
    crumbs = [("home", page_path(brain, "home"))]
    parts = ref.split("/")
    for i in range(1, len(parts)):
        parent = "/".join(parts[:i])
        crumbs.append((parts[i - 1], page_path(brain, parent) if parent in known else None))
    return crumbs + [(title, None)]


def _paging(brain: str, view: View, page: dict) -> dict:
    def link(offset):
        if offset is None:
            return None
        return page_path(brain, view.ref, *view.variant, *((f"o{offset}",) if offset else ()))
    previous = max(page["offset"] - PAGE_ITEMS, 0) if page.get("offset") else None
    return {"previous": link(previous), "next": link(page.get("next_offset"))}


def emit_listing_pages(writer: Writer, brain: Brain, views: list[View], root: bool = False,
                       all_views: list[View] | None = None) -> None:
    """Pages of the listing `views`; `all_views` (default: `views`) tells which pages exist."""
    everything = views if all_views is None else all_views
    known = {v.ref for v in everything if v.template in TEMPLATES and not v.variant}
    relations: dict[str, list[str]] = {}     # ref → relations with a page of their own
    for v in everything:
        if v.variant[:1] == ("r",):
            relations.setdefault(v.ref, []).append(v.variant[1])
    words = when_words(next(v for v in everything if v.ref == "home").pages[0]["as_of"], brain.config.timezone)
    item_lists = ItemLists(brain.name)
    for view in views:
        if view.template not in TEMPLATES:
            continue
        if "timeline" in view.extra:
            as_of = view.pages[0]["as_of"]
            writer.write_json(timeline_path(brain.name), {"brain": brain.name, "as_of": as_of,
                                                          "timezone": brain.config.timezone,
                                                          "entries": view.extra["timeline"]}, brain.name)
        for page in view.pages:
            variant = offset_variant(view, page)
            targets = [page_path(brain.name, view.ref, *variant)]
            if root and view.ref == "home":
                targets.append("index.html")
            for target in targets:
                writer.write(target, _render(brain, view, page, variant, target, known, words, relations, item_lists),
                             view.ref)


def _render(brain: Brain, view: View, page: dict, variant, target: str, known: set[str], words, relations,
            item_lists: ItemLists) -> str:
    ctx = common(brain, view.ref, page, *variant) | {
        "relations": sorted(relations.get(view.ref, [])) if not view.variant else [],
        "crumbs": _crumbs(brain.name, view.ref, page.get("title") or view.ref, known) if view.ref != "home" else None,
        "item_url": lambda it: relative(target, ref_url(brain.name, it["ref"])),
        "item_list": lambda items: item_lists(items, target),
        "ref_page": lambda ref: page_path(brain.name, ref),
        "paging": _paging(brain.name, view, page),
        # The chart describes the whole list: its first page shows it, later pages do not repeat it.
        "chart": chart_svg(view.extra.get("chart", []) if not page.get("offset") else [],
                           lambda label: _bucket_url(brain.name, target, label)),
        "previous_period": view.extra.get("previous"), "next_period": view.extra.get("next"),
        "up_periods": _containing(view.ref) if view.extra.get("previous") or view.extra.get("next") else [],
        "when": words, "variant": view.variant,
    }
    return render(view.template, target, **ctx)
