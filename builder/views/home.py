"""The home view (docs/replies.md#home--page-home): projects, actions, upcoming, changed, activity, reminders, tasks,
plus every source's health at a glance. Each list section holds its first 50 items and `total`;
folder, tag and period pages hold the rest."""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import timedelta

from ..kernel import refs
from ..kernel.listing import PAGE_ITEMS, period_pages
from ..kernel.times import parse_instant, rfc3339
from .view import View
from .lists import Ctx, base, item
from .calendar import between, is_low

# A project or action with one of these statuses is closed; any other status (or none) is open.
CLOSED = frozenset({"done", "closed", "cancelled", "canceled", "archived", "complete", "completed", "dropped", "abandoned"})
RECENT_DAYS = 7


def _section(items: list[dict]) -> dict:
    return {"items": items[:PAGE_ITEMS], "total": len(items)}


def _task(ctx: Ctx, note, task) -> dict:
    return {"kind": "task", "brain": ctx.brain.name, "ref": task.ref, "uri": refs.uri(ctx.brain.name, task.ref),
            "title": task.text, "note": note.ref, "note_title": note.title, "line": task.line, "due": task.due}


def _note_parts(ctx: Ctx, ref: str, note) -> dict:
    """What one note gives the home page's sections (docs/replies.md#home--page-home)."""
    brain, out = ctx.brain, {}
    if note.deprecated:
        return out
    if note.type in ("project", "action") and str(note.fields.get("status", "")).lower() not in CLOSED:
        out[note.type + "s"] = item(ctx, ref)
    # Upcoming: future events, soonest first: notes' event times, records' event times (never
    # observation), open tasks' due dates. `priority: low` notes and low-priority records stay out.
    upcoming = []
    if note.event and note.event > ctx.now and note.frontmatter.get("priority") != "low":
        upcoming.append(item(ctx, ref) | {"when": rfc3339(note.event)})
    for task in note.tasks:
        due = parse_instant(task.due, brain.config.timezone) if task.due else None
        if not task.done and due and due > ctx.now:
            upcoming.append(_task(ctx, note, task) | {"when": rfc3339(due)})
    if upcoming:
        out["upcoming"] = upcoming
    # Changed: modified in the last 7 days (edits, not event times, decide: §4.1).
    if ctx.now - timedelta(days=RECENT_DAYS) < brain.modified[ref] <= ctx.now:
        out["changed"] = (brain.modified[ref], note.title)
    tasks = [_task(ctx, note, t) for t in note.tasks if not t.done]
    if tasks:
        out["tasks"] = tasks
    return out


def _record_parts(ctx: Ctx, ref: str, rec) -> dict:
    out = {}
    if is_low(ctx.brain, rec):
        return out
    if rec.time and rec.time > ctx.now:
        out["upcoming"] = [item(ctx, ref) | {"when": rfc3339(rec.time)}]
    if rec.modified and ctx.now - timedelta(days=RECENT_DAYS) < rec.modified <= ctx.now:
        out["changed"] = (rec.modified, rec.title)
    return out


def _parts(ctx: Ctx) -> dict[str, dict]:
    """ref → what its note or record gives the home page, for those giving any. A function of the
    item's object, modification time and review signals and of the instant: kept whole by the next
    compute in this process, which works out again only its changed refs (Ctx.changed) and, when
    the instant moved, the items with an instant the move crossed (_crossed)."""
    brain, memo = ctx.brain, ctx.memos["home parts"]
    last = memo.keep("") if ctx.changed is not None else None
    marks = ctx.memos["home marks"].keep("") if last is not None else None
    fresh = marks is None
    if fresh:
        out, todo, marks = {}, (*brain.notes, *brain.records), Marks({}, [])
    else:
        out, marks = dict(last), Marks(dict(marks.of), list(marks.line))
        todo = set(ctx.changed) | (_crossed(marks.line, ctx.then, ctx.now) if ctx.then is not None else set())
    for ref in todo:
        out.pop(ref, None)
        marks.drop(ref)
        note = brain.notes.get(ref)
        if note is not None or ref in brain.records:
            parts = _note_parts(ctx, ref, note) if note is not None else _record_parts(ctx, ref, brain.records[ref])
            marks.add(ref, _instants(ctx, ref, note), ordered=not fresh)
            if parts:
                out[ref] = parts
    if fresh:
        marks.line.sort()
    memo("", None, lambda: out, True)
    ctx.memos["home marks"]("", None, lambda: marks, True)
    return out


@dataclass(frozen=True)
class Marks:
    """The instants that decide what each item gives the home page against the build instant
    (an event, a due date, a modification): `of` ref → its instants (POSIX seconds), and `line`,
    every (instant, ref) in order. Sorted once, then kept in order as items change."""
    of: dict[str, tuple[float, ...]]
    line: list[tuple[float, str]]

    def add(self, ref: str, instants, ordered: bool) -> None:
        """`ordered`: keep `line` in order (else the caller sorts it once all are added)."""
        mine = self.of[ref] = tuple(t.timestamp() for t in instants if t is not None)
        for t in mine:
            bisect.insort(self.line, (t, ref)) if ordered else self.line.append((t, ref))

    def drop(self, ref: str) -> None:
        for t in self.of.pop(ref, ()):
            del self.line[bisect.bisect_left(self.line, (t, ref))]


def _instants(ctx: Ctx, ref: str, note) -> list:
    """The instants _note_parts (`note`) or _record_parts (None: the record at `ref`) compare
    with the build instant."""
    if note is None:
        rec = ctx.brain.records[ref]
        return [rec.time, rec.modified]
    tz = ctx.brain.config.timezone
    return [note.event, ctx.brain.modified[ref], *(parse_instant(t.due, tz) for t in note.tasks if t.due)]


def _crossed(line: list[tuple[float, str]], then, now) -> set[str]:
    """The refs with an instant between the last compute's instant and this one's, or as far
    before them as the changed section looks back: only their parts can differ."""
    lo, hi = sorted((then.timestamp(), now.timestamp()))
    back = timedelta(days=RECENT_DAYS).total_seconds()
    out: set[str] = set()
    for a, b in ((lo, hi), (lo - back, hi - back)):
        out.update(ref for _, ref in line[bisect.bisect_left(line, (a,)):bisect.bisect_right(line, (b, "\U0010ffff"))])
    return out


def _changed(ctx: Ctx, parts: dict[str, dict]) -> list[dict]:
    """Notes and records modified in the last 7 days, newest first: ref, title, modified, and
    `review: true` where the note asks for review."""
    brain, items = ctx.brain, []
    found = sorted(((p["changed"], ref) for ref, p in parts.items() if "changed" in p), key=lambda t: (-t[0][0].timestamp(), t[1]))
    for (when, title), ref in found:
        entry = {"brain": brain.name, "ref": ref, "uri": refs.uri(brain.name, ref), "title": title, "modified": rfc3339(when)}
        if ctx.reviews.get(ref, {}).get("review"):
            entry["review"] = True
        items.append(entry)
    return items


def _activity(ctx: Ctx, timeline: list[dict], changed: int) -> dict:
    """Per-source record counts over the last 7 days (by placement; low-priority sources counted and
    marked) and the number of notes changed (by modification)."""
    start = ctx.now - timedelta(days=RECENT_DAYS)
    counts = period_pages(ctx.brain.name, "7d", "relative", start, ctx.now, between(timeline, rfc3339(start), rfc3339(ctx.now)))[0]["counts"]
    return {"days": RECENT_DAYS, "start": rfc3339(start), "end": ctx.as_of, "counts": counts, "notes_changed": changed}


def home_view(ctx: Ctx, timeline: list[dict]) -> View:
    brain = ctx.brain
    parts = _parts(ctx)
    ordered = [(ref, parts[ref]) for ref in sorted(parts)]
    reminders = [item(ctx, ref) | ctx.reviews[ref] for ref in sorted(ctx.reviews) if ctx.reviews[ref]["review"]]
    upcoming = sorted((u for _, p in ordered for u in p.get("upcoming", ())), key=lambda i: (i["when"], i["ref"], i.get("line") or 0))
    changed = _changed(ctx, parts)
    sections = {
        "projects": _section([p["projects"] for _, p in ordered if "projects" in p]),
        "actions": _section([p["actions"] for _, p in ordered if "actions" in p]),
        "upcoming": _section(upcoming), "changed": _section(changed),
        "activity": _activity(ctx, timeline, sum(1 for c in changed if c["ref"] in brain.notes)),
        "reminders": _section(reminders), "tasks": _section([t for _, p in ordered for t in p.get("tasks", ())]),
    }
    reply = base(ctx, "home", "home", brain.config.title, sections=sections, sources=list(ctx.coverage.values()))
    # The timeline rides along for the emitter, which writes it for query/read.py's `Nd` periods.
    return View(brain.name, "home", "home.html", (reply,), extra={"timeline": timeline})
