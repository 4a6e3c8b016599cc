"""Period views (docs/replies.md#periods): the timeline of placed items, every calendar period holding
something, and the relative periods today, yesterday, 7d and 30d.

Other relative periods (`Nd`, 1–366) are not precomputed: that would repeat the whole timeline
up to 366 times. The build writes the timeline once (`_bf/BRAIN/timeline.json`) and
query/read.py computes an `Nd` page from it with the same builder.kernel.listing.period_pages.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from ..kernel.listing import period_pages
from ..kernel.periods import parse_period
from ..kernel.times import from_rfc3339, rfc3339
from .view import View
from .lists import TEMPLATE, Ctx, item, placed
from .ordered import prefix

RELATIVE = ("today", "yesterday", "7d", "30d")
DAY_TEMPLATE = "day.html"   # a source's day: the one page showing each of its records in full
KINDS = ("year", "month", "week", "day")


def is_low(brain, rec) -> bool:
    """Low priority: the record's source says so, or the record itself does."""
    source = brain.sources.get(rec.source)
    return (source is not None and source.priority == "low") or rec.priority == "low"


def timeline(ctx: Ctx) -> tuple[list[dict], list[tuple[str, int]] | None]:
    """Every note and record placed at or before the build instant (a future event counts once it
    happens), newest first: {"placed", "source", "low", "item"}; records with neither event time
    nor observation stay out. With it, how it moved since the last compute in this process:
    (placed, -1) for each entry gone, (placed, +1) for each come (None: not known, all new).

    Kept whole (memo key ""): each ref's (stamp, entry), the ordered entries and the refs placed
    after the instant, so a compute knowing what changed (Ctx.changed) moves only those entries
    and the ones the instant passed; the same entry objects while unchanged, so the periods'
    stamps compare them by identity."""
    brain, memo = ctx.brain, ctx.memos["timeline"]
    last = memo.keep("")
    moved: list[tuple[str, int]] | None = None
    if last is None or ctx.changed is None:
        old = last[0] if last else {}
        made = {ref: e for ref in (*brain.notes, *brain.records) if (e := _entry(ctx, ref, old.get(ref)))}
        later = {ref for ref in (*brain.notes, *brain.records) if (when := placed(brain, ref)) and when > ctx.now}
        # newest first (kernel/listing.newest_first): by ref, then stably by placement
        entries = sorted((e[1] for e in made.values()), key=lambda e: e["item"]["ref"])
        entries.sort(key=lambda e: e["placed"], reverse=True)
    else:
        made, entries, later, moved = dict(last[0]), last[1], set(last[2]), []
        todo = set(ctx.changed)
        if ctx.then is not None:      # the refs the instant passed, either way
            todo.update(later)
            todo.update(e["item"]["ref"] for e in entries[:prefix(entries, lambda e: e["placed"] > rfc3339(ctx.now))])
        for ref in sorted(todo):
            before = made.pop(ref, None)
            after = _entry(ctx, ref, before) if ref in brain.notes or ref in brain.records else None
            later.discard(ref)
            if after is not None:
                made[ref] = after
            elif ref in brain.notes or ref in brain.records:
                if (when := placed(brain, ref)) and when > ctx.now:
                    later.add(ref)
            if after is before:
                continue
            entries = entries if moved else list(entries)   # the last list stays as it was
            if before is not None:
                del entries[_at(entries, before[1]["placed"], ref)]
                moved.append((before[1]["placed"], -1))
            if after is not None:
                entries.insert(_at(entries, after[1]["placed"], ref), after[1])
                moved.append((after[1]["placed"], 1))
    memo("", None, lambda: (made, entries, later), True)
    return entries, moved


def _entry(ctx: Ctx, ref: str, old: tuple | None) -> tuple | None:
    """(stamp, timeline entry) of `ref`, `old` while its stamp holds; None if not placed by now."""
    brain = ctx.brain
    when = placed(brain, ref)
    if when is None or when > ctx.now:
        return None
    rec = brain.records.get(ref)
    made = item(ctx, ref, timed=True)
    stamp = (when, made, rec)         # the record too: `low` reads its priority, which its item does not show
    if old is not None and old[0] == stamp:
        return old
    return stamp, {"placed": rfc3339(when), "source": rec.source if rec else None,
                   "low": bool(rec and is_low(brain, rec)), "item": made}


def _at(entries: list[dict], placed: str, ref: str) -> int:
    """Where the entry of `ref` placed at `placed` is or goes in `entries` (newest first, then by ref)."""
    return prefix(entries, lambda e: e["placed"] > placed or e["placed"] == placed and e["item"]["ref"] < ref)


def between(entries: list[dict], lo: str, hi: str) -> list[dict]:
    """The entries placed in [lo, hi): a run of the timeline."""
    return entries[prefix(entries, lambda e: e["placed"] >= hi):prefix(entries, lambda e: e["placed"] >= lo)]


def period_keys(local: date) -> dict[str, str]:
    """The calendar periods (year, month, ISO week, day) holding a local day."""
    iso = local.isocalendar()
    return {"year": f"{local.year:04d}", "month": f"{local.year:04d}-{local.month:02d}",
            "week": f"{iso.year:04d}-W{iso.week:02d}", "day": local.isoformat()}


def _chart(kind: str, start: datetime, end: datetime, inside: list[dict], tz: ZoneInfo,
           days: dict[str, int] | None = None) -> list[tuple[str, int]]:
    """Counts per bucket for the HTML activity chart: months of a year, hours of a day, else days.
    `days`: the timeline's entries per local day; a calendar period is whole local days, so its
    counts (by day or month) are read from it instead of from each of its entries."""
    def local(text: str) -> datetime:
        return from_rfc3339(text).astimezone(tz)
    first, last = start.astimezone(tz).date(), (end - timedelta(seconds=1)).astimezone(tz).date()
    dates = [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]
    if kind == "year":
        labels = [f"{start.astimezone(tz).year:04d}-{m:02d}" for m in range(1, 13)]
        key = lambda e: local(e["placed"]).strftime("%Y-%m")
    elif kind == "day":
        labels = [f"{h:02d}" for h in range(24)]
        key = lambda e: local(e["placed"]).strftime("%H")
    else:
        labels = dates
        key = lambda e: local(e["placed"]).strftime("%Y-%m-%d")
    counts: dict[str, int] = {}
    if days is not None and kind != "day":
        for day in dates:
            counts[day[:len(labels[0])]] = counts.get(day[:len(labels[0])], 0) + days.get(day, 0)
        inside = []
    for e in inside:
        k = key(e)
        counts[k] = counts.get(k, 0) + 1
    return [(label, counts.get(label, 0)) for label in labels]


def _period_view(ctx: Ctx, ref: str, entries: list[dict], tz: ZoneInfo, days: dict | None = None, **extra) -> View:
    kind, start, end, _ = parse_period(ref, ctx.brain.config.timezone, ctx.now)
    lo, hi = rfc3339(start), rfc3339(end)
    inside = between(entries, lo, hi)

    def make() -> View:
        pages = period_pages(ctx.brain.name, ref, kind, start, end, inside)
        chart = _chart(kind, start, end, inside, tz, days)
        return View(ctx.brain.name, ref, TEMPLATE, tuple(pages), extra={"chart": chart, **extra})
    return ctx.memos["periods"](ref, (lo, hi, tuple(inside), tuple(extra.items())), make)


def period_views(ctx: Ctx, entries: list[dict], moved: list[tuple[str, int]] | None) -> list[View]:
    """Relative periods, then every calendar period holding an entry, with the previous and next
    period of the same kind that holds one (for page navigation). A period's entries are a run
    of the timeline. `moved` (timeline()): only the calendar periods of the days it names are
    made again, unless the periods holding entries changed (the navigation then may have)."""
    tz = ZoneInfo(ctx.brain.config.timezone)
    views = [_period_view(ctx, ref, entries, tz) for ref in RELATIVE]
    local_day = ctx.memos["local days"]   # placed → its local day (the zone is shared: memo.py)

    def day_of(placed_at: str) -> str:
        return local_day(placed_at, None, lambda: from_rfc3339(placed_at).astimezone(tz).date().isoformat())
    memo = ctx.memos["period days"]
    days = memo.keep("")                  # local day → how many entries it holds
    if days is None or moved is None:
        days, touched = {}, None
        for e in entries:
            day = day_of(e["placed"])
            days[day] = days.get(day, 0) + 1
    else:
        days, touched = dict(days), set()
        for placed_at, step in moved:
            day = day_of(placed_at)
            days[day] = days.get(day, 0) + step
            touched.update(period_keys(date.fromisoformat(day)).values())
            if not days[day]:
                del days[day]
    memo("", None, lambda: days, True)
    held: dict[str, set[str]] = {k: set() for k in KINDS}   # kind → the periods holding an entry
    for day in days:
        for kind, key in period_keys(date.fromisoformat(day)).items():
            held[kind].add(key)
    last = ctx.memos["period keys"]
    for kind in KINDS:
        keys = sorted(held[kind])
        same = touched is not None and last.keep(kind) == keys
        last(kind, None, lambda: keys, True)
        for i, ref in enumerate(keys):
            view = ctx.memos["periods"].keep(ref) if same and ref not in touched else None
            views.append(view or _period_view(ctx, ref, entries, tz, days, previous=keys[i - 1] if i else None,
                                              next=keys[i + 1] if i + 1 < len(keys) else None))
    return views
