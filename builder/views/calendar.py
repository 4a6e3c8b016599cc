"""Period views (SPEC §3, §4.1): the timeline of placed items, every calendar period holding
something, and the relative periods today, yesterday, 7d and 30d.

Other relative periods (`Nd`, 1–366) are not precomputed: that would repeat the whole timeline
up to 366 times. The build writes the timeline once (`_bf/BRAIN/timeline.json`) and
query/read.py computes an `Nd` page from it with the same builder.kernel.listing.period_pages.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from ..kernel.listing import newest_first, paged, period_pages, source_period_base
from ..kernel.periods import parse_period
from ..kernel.times import from_rfc3339, rfc3339
from .view import View
from .lists import TEMPLATE, Ctx, item, placed

RELATIVE = ("today", "yesterday", "7d", "30d")
DAY_TEMPLATE = "day.html"   # a source's day: the one page showing each of its records in full
KINDS = ("year", "month", "week", "day")


def is_low(brain, rec) -> bool:
    """Low priority: the record's source says so, or the record itself does."""
    source = brain.sources.get(rec.source)
    return (source is not None and source.priority == "low") or rec.priority == "low"


def timeline(ctx: Ctx) -> list[dict]:
    """Every note and record placed at or before the build instant (a future event counts once it
    happens), newest first: {"placed", "source", "low", "item"}; records with neither event time
    nor observation stay out."""
    brain, entries = ctx.brain, []
    for ref in (*brain.notes, *brain.records):
        when = placed(brain, ref)
        if when is None or when > ctx.now:
            continue
        rec = brain.records.get(ref)
        made = item(ctx, ref, timed=True)
        # the record too: `low` reads its priority, which its item does not show
        entries.append((ref, ctx.memos["timeline"](ref, (when, made, rec), lambda: {
            "placed": rfc3339(when), "source": rec.source if rec else None,
            "low": bool(rec and is_low(brain, rec)), "item": made})))
    # newest first (kernel/listing.newest_first), the same entry objects while unchanged, so the
    # periods' stamps compare them by identity
    entries.sort(key=lambda e: e[0])
    entries.sort(key=lambda e: e[1]["placed"], reverse=True)
    return [e for _, e in entries]


def period_keys(local: date) -> dict[str, str]:
    """The calendar periods (year, month, ISO week, day) holding a local day."""
    iso = local.isocalendar()
    return {"year": f"{local.year:04d}", "month": f"{local.year:04d}-{local.month:02d}",
            "week": f"{iso.year:04d}-W{iso.week:02d}", "day": local.isoformat()}


def _chart(kind: str, start: datetime, end: datetime, inside: list[dict], tz: ZoneInfo) -> list[tuple[str, int]]:
    """Counts per bucket for the HTML activity chart: months of a year, hours of a day, else days."""
    def local(text: str) -> datetime:
        return from_rfc3339(text).astimezone(tz)
    if kind == "year":
        labels = [f"{start.astimezone(tz).year:04d}-{m:02d}" for m in range(1, 13)]
        key = lambda e: local(e["placed"]).strftime("%Y-%m")
    elif kind == "day":
        labels = [f"{h:02d}" for h in range(24)]
        key = lambda e: local(e["placed"]).strftime("%H")
    else:
        first, last = start.astimezone(tz).date(), (end - timedelta(seconds=1)).astimezone(tz).date()
        labels = [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]
        key = lambda e: local(e["placed"]).strftime("%Y-%m-%d")
    counts: dict[str, int] = {}
    for e in inside:
        k = key(e)
        counts[k] = counts.get(k, 0) + 1
    return [(label, counts.get(label, 0)) for label in labels]


def _period_view(ctx: Ctx, ref: str, entries: list[dict], tz: ZoneInfo, **extra) -> View:
    """`entries` holds at least the period's entries (newest first); those inside are kept."""
    kind, start, end, _ = parse_period(ref, ctx.brain.config.timezone, ctx.now)
    lo, hi = rfc3339(start), rfc3339(end)
    inside = [e for e in entries if lo <= e["placed"] < hi]

    def make() -> View:
        pages = period_pages(ctx.brain.name, ref, kind, start, end, inside)
        return View(ctx.brain.name, ref, TEMPLATE, tuple(pages), extra={"chart": _chart(kind, start, end, inside, tz), **extra})
    return ctx.memos["periods"](ref, (lo, hi, tuple(inside), tuple(extra.items())), make)


def period_views(ctx: Ctx, entries: list[dict]) -> list[View]:
    """Relative periods, then every calendar period holding an entry, with the previous and next
    period of the same kind that holds one (for page navigation).

    Entries are grouped by local day once: a calendar period is a run of whole local days, so
    its entries are its days' groups joined newest day first (already in timeline order),
    instead of a scan of the whole timeline per period."""
    tz = ZoneInfo(ctx.brain.config.timezone)
    views = [_period_view(ctx, ref, entries, tz) for ref in RELATIVE]
    by_day: dict[str, list[dict]] = {}
    local_day = ctx.memos["local days"]   # placed → its local day (the zone is shared: memo.py)
    for e in entries:
        placed_at = e["placed"]
        day = local_day(placed_at, None, lambda: from_rfc3339(placed_at).astimezone(tz).date().isoformat())
        by_day.setdefault(day, []).append(e)
    held: dict[str, dict[str, list[str]]] = {k: {} for k in KINDS}   # kind → period → its days
    for day in by_day:
        for kind, key in period_keys(date.fromisoformat(day)).items():
            held[kind].setdefault(key, []).append(day)
    for kind in KINDS:
        keys = sorted(held[kind])
        for i, ref in enumerate(keys):
            inside = [e for day in sorted(held[kind][ref], reverse=True) for e in by_day[day]]
            views.append(_period_view(ctx, ref, inside, tz, previous=keys[i - 1] if i else None,
                                      next=keys[i + 1] if i + 1 < len(keys) else None))
    return views


def source_period_views(ctx: Ctx, by_source: dict[str, list]) -> list[View]:
    """`memories/SOURCE/PERIOD` for every calendar period holding a record of the source, placed as on
    period pages but future and low-priority records included: a source's days are where each of its
    records is shown in full (SPEC §10); its weeks, months and years are reads only."""
    tz = ZoneInfo(ctx.brain.config.timezone)
    views = []
    for source, records in sorted(by_source.items()):
        held: dict[str, list] = {}
        for rec in records:
            if rec.placed is not None:
                for key in period_keys(rec.placed.astimezone(tz).date()).values():
                    held.setdefault(key, []).append(rec)
        title = ctx.coverage.get(source, {}).get("title", source)
        for key, inside in sorted(held.items()):
            ref = f"memories/{source}/{key}"
            items = tuple(item(ctx, r.ref, timed=True) for r in inside)   # their records, in their stamps
            # the records too: `counts` reads their priority, which their items do not show
            views.append(ctx.memos["source periods"](ref, (title, items, tuple(inside)), lambda: _source_period(ctx, source, key, title, inside, items)))
    return views


def _source_period(ctx: Ctx, source: str, key: str, title: str, inside: list, items: tuple[dict, ...]) -> View:
    ref = f"memories/{source}/{key}"
    period = parse_period(key, ctx.brain.config.timezone, ctx.now)
    low = any(is_low(ctx.brain, r) for r in inside)
    counts = [{"source": source, "count": len(inside), **({"priority": "low"} if low else {})}]
    base = source_period_base(ctx.brain.name, ref, source, title, period) | {"counts": counts}
    return View(ctx.brain.name, ref, DAY_TEMPLATE if period[0] == "day" else None, tuple(paged(base, newest_first(list(items)))))
