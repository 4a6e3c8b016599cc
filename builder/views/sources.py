"""Source views (docs/replies.md#listings, docs/site.md#pages): `memories`; per source `memories/SOURCE` (records newest
first, coverage, a chart), `memories/SOURCE/undated` and `memories/SOURCE/PERIOD` for every
calendar period holding one of its records.

A source's records in page order (Order) are kept between the computes of one process: a watch
rebuild moves the few records Ctx.changed names into place, and makes again only the
periods they leave or join, instead of ordering every record of a source one new record joined."""
from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from ..kernel.listing import newest_first, paged, source_period_base
from ..kernel.periods import parse_period
from .calendar import DAY_TEMPLATE, is_low, period_keys
from .lists import Ctx, base, item, view
from .ordered import item_at
from .view import View


@dataclass(frozen=True)
class Order:
    """A source's records as its pages list them: `refs` ref → (record, its item); `items` newest
    first (kernel.listing.newest_first), `undated` those without event time, likewise; `months`:
    how many are placed by now per month (brain's zone), for the chart; `moved`: the (old, new)
    (record, item) of each ref the compute moved (None where it had none), None when it ordered
    them all."""
    refs: dict
    items: list
    undated: list
    months: dict
    moved: tuple | None


def orders(ctx: Ctx, by_source: dict[str, list]) -> dict[str, Order]:
    """Each source's Order, moved on from the last compute's where Ctx.changed says what changed."""
    memo, out = ctx.memos["source order"], {}
    tz = ZoneInfo(ctx.brain.config.timezone)
    for name, records in by_source.items():
        last = memo.keep(name)
        made = _all(ctx, records, tz) if last is None or ctx.changed is None else _moved(ctx, name, last, tz)
        out[name] = memo(name, None, lambda: made, True)
    return out


def _month(rec, tz: ZoneInfo) -> str:
    return rec.placed.astimezone(tz).strftime("%Y-%m")


def _by_now(ctx: Ctx, rec) -> bool:
    return rec.placed is not None and rec.placed <= ctx.now


def _all(ctx: Ctx, records: list, tz: ZoneInfo) -> Order:
    refs = {r.ref: (r, item(ctx, r.ref, timed=True)) for r in records}
    months: dict[str, int] = {}
    for rec in records:
        if _by_now(ctx, rec):
            _count(months, _month(rec, tz), 1)
    return Order(refs, newest_first([it for _, it in refs.values()]),
                 newest_first([it for r, it in refs.values() if r.time is None]), months, None)


def _count(months: dict, month: str, step: int) -> None:
    months[month] = months.get(month, 0) + step
    if not months[month]:
        del months[month]


def _moved(ctx: Ctx, name: str, last: Order, tz: ZoneInfo) -> Order:
    """`last` with the changed refs of source `name` taken out and put in again where they go."""
    moved = []
    for ref in sorted(ctx.changed):
        rec = ctx.brain.records.get(ref)
        new = (rec, item(ctx, ref, timed=True)) if rec is not None and rec.source == name else None
        if ref in last.refs or new is not None:
            moved.append((last.refs.get(ref), new))
    moved = tuple(moved)
    if not moved and ctx.then is None:
        return Order(last.refs, last.items, last.undated, last.months, ())
    refs, items, undated, months = dict(last.refs), list(last.items), list(last.undated), dict(last.months)
    if ctx.then is not None:   # the records the instant passed, either way
        lo, hi, step = (ctx.then, ctx.now, 1) if ctx.then < ctx.now else (ctx.now, ctx.then, -1)
        for rec, _ in last.refs.values():
            if rec.placed is not None and lo < rec.placed <= hi:
                _count(months, _month(rec, tz), step)
    for old, new in moved:
        if old is not None:
            rec, it = refs.pop(old[0].ref)
            del items[item_at(items, it)]
            if rec.time is None:
                del undated[item_at(undated, it)]
            if _by_now(ctx, rec):
                _count(months, _month(rec, tz), -1)
        if new is not None:
            rec, it = refs[new[0].ref] = new
            items.insert(item_at(items, it), it)
            if rec.time is None:
                undated.insert(item_at(undated, it), it)
            if _by_now(ctx, rec):
                _count(months, _month(rec, tz), 1)
    return Order(refs, items, undated, months, moved)


def source_views(ctx: Ctx, by_source: dict[str, list], order: dict[str, Order]) -> list[View]:
    """`memories`, and per source `memories/SOURCE` and `memories/SOURCE/undated` (records
    without event time, even those placed by observation)."""
    memories = base(ctx, "memories", "memories", "Memories")
    views = [view(ctx, "memories", paged(memories, list(ctx.coverage.values())))]
    for name, cov in ctx.coverage.items():
        records, o = by_source.get(name, []), order[name]

        def make(name=name, cov=cov, o=o) -> list[View]:
            ref = f"memories/{name}"
            b = base(ctx, "source", ref, cov["title"], source=name, coverage=cov)
            u = base(ctx, "undated", f"{ref}/undated", f"{cov['title']}: undated", source=name)
            # the chart: records placed by now per month, the last 12 months with any
            return [view(ctx, ref, paged(b, o.items), chart=sorted(o.months.items())[-12:]),
                    view(ctx, f"{ref}/undated", paged(u, o.undated))]
        # a record's item is a function of the record object: the records stand for their items;
        # with the same records, how many are placed by now fixes which (the chart's)
        views += ctx.memos["sources"](name, (cov, tuple(records), sum(o.months.values())), make)
    return views


def source_period_views(ctx: Ctx, by_source: dict[str, list], order: dict[str, Order]) -> list[View]:
    """`memories/SOURCE/PERIOD` for every calendar period holding a record of the source, placed as on
    period pages but future and low-priority records included: a source's days are where each of its
    records is shown in full (docs/site.md#pages); its weeks, months and years are reads only.

    A period's records stand for their items (an item of a record is a function of the record
    object): only the periods a moved record leaves or joins are made again."""
    tz = ZoneInfo(ctx.brain.config.timezone)
    memo, views = ctx.memos["source all periods"], []
    for source, records in sorted(by_source.items()):
        title = ctx.coverage.get(source, {}).get("title", source)
        last, moved = memo.keep(source), order[source].moved
        if last is None or last[0] != title or moved is None:
            held, touched = _held(ctx, records, tz), None
        else:
            held, touched = _held_moved(ctx, last[1], moved, tz)
        made, periods = [], ctx.memos["source periods"]
        for key, inside in sorted(held.items()):
            ref = f"memories/{source}/{key}"
            kept = periods.keep(ref) if touched is not None and key not in touched else None
            if kept is not None:
                made.append(kept)
                continue
            before = periods.last.get(ref) if touched else None
            # the records too: `counts` reads their priority, which their items do not show
            made.append(periods(ref, (title, tuple(inside)), lambda: _source_period(
                ctx, source, key, title, inside, before and _moved_items(before[1], touched.get(key, ())))))
        memo(source, None, lambda: (title, held), True)
        views += made
    return views


def _keys(ctx: Ctx, rec, tz: ZoneInfo) -> tuple[str, ...]:
    """The calendar periods holding a record (none without placement)."""
    if rec.placed is None:
        return ()
    day = rec.placed.astimezone(tz).date()
    return ctx.memos["day periods"](day, None, lambda: tuple(period_keys(day).values()))


def _held(ctx: Ctx, records: list, tz: ZoneInfo) -> dict[str, list]:
    held: dict[str, list] = {}
    for rec in records:
        for key in _keys(ctx, rec, tz):
            held.setdefault(key, []).append(rec)
    return held


def _held_moved(ctx: Ctx, last: dict[str, list], moved: tuple, tz: ZoneInfo) -> tuple[dict[str, list], dict]:
    """The last compute's periods with the `moved` records taken out and put in (in no particular
    order: a period's page orders them), and what moved in each period that changed: [(step,
    record, item)]."""
    held, touched = dict(last), {}
    for old, new in moved:
        for pair, step in ((old, -1), (new, 1)):
            for key in _keys(ctx, pair[0], tz) if pair is not None else ():
                rec = pair[0]
                inside = [r for r in held.get(key, ()) if r is not rec] if step < 0 else [*held.get(key, ()), rec]
                if inside:
                    held[key] = inside
                else:
                    held.pop(key, None)
                touched.setdefault(key, []).append((step, *pair))
    return held, touched


def _moved_items(last: View, steps: list) -> list[dict]:
    """The items of a period's last view (newest first) with those of `steps` taken out or put in."""
    items = [it for page in last.pages for it in page["items"]]
    for step, _, it in steps:
        if step < 0:
            del items[item_at(items, it)]
        else:
            items.insert(item_at(items, it), it)
    return items


def _source_period(ctx: Ctx, source: str, key: str, title: str, inside: list, items: list | None = None) -> View:
    """The view of one period holding the records `inside`; `items`: theirs newest first, when known."""
    ref = f"memories/{source}/{key}"
    if items is None:
        items = newest_first([item(ctx, r.ref, timed=True) for r in inside])
    period = parse_period(key, ctx.brain.config.timezone, ctx.now)
    low = any(is_low(ctx.brain, r) for r in inside)
    counts = [{"source": source, "count": len(inside), **({"priority": "low"} if low else {})}]
    base = source_period_base(ctx.brain.name, ref, source, title, period) | {"counts": counts}
    return View(ctx.brain.name, ref, DAY_TEMPLATE if period[0] == "day" else None, tuple(paged(base, items)))
