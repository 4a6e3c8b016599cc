"""The home view (SPEC §4.2): projects, actions, upcoming, changed, activity, reminders, tasks,
plus every source's health at a glance. Each list section holds its first 50 items and `total`;
folder, tag and period pages hold the rest."""
from __future__ import annotations

from datetime import timedelta

from ..kernel import refs
from ..kernel.listing import PAGE_ITEMS, period_pages
from ..kernel.times import parse_instant, rfc3339
from .view import View
from .lists import Ctx, base, item
from .calendar import is_low

# A project or action with one of these statuses is closed; any other status (or none) is open.
CLOSED = {"done", "closed", "cancelled", "canceled", "archived", "complete", "completed", "dropped", "abandoned"}
RECENT_DAYS = 7


def _section(items: list[dict]) -> dict:
    return {"items": items[:PAGE_ITEMS], "total": len(items)}


def _open_notes(ctx: Ctx, kind: str) -> list[dict]:
    return [item(ctx, ref) for ref, note in sorted(ctx.brain.notes.items())
            if note.type == kind and not note.deprecated and str(note.fields.get("status", "")).lower() not in CLOSED]


def _task(ctx: Ctx, note, task) -> dict:
    return {"kind": "task", "brain": ctx.brain.name, "ref": task.ref, "uri": refs.uri(ctx.brain.name, task.ref),
            "title": task.text, "note": note.ref, "note_title": note.title, "line": task.line, "due": task.due}


def _upcoming(ctx: Ctx) -> list[dict]:
    """Future events, soonest first: notes' event times, records' event times (never observation),
    open tasks' due dates. Deprecated and `priority: low` notes and low-priority records stay out."""
    brain, out = ctx.brain, []
    for ref, note in brain.notes.items():
        if note.deprecated:
            continue
        if note.event and note.event > ctx.now and note.frontmatter.get("priority") != "low":
            out.append(item(ctx, ref) | {"when": rfc3339(note.event)})
        for task in note.tasks:
            due = parse_instant(task.due, brain.config.timezone) if task.due else None
            if not task.done and due and due > ctx.now:
                out.append(_task(ctx, note, task) | {"when": rfc3339(due)})
    for ref, rec in brain.records.items():
        if rec.time and rec.time > ctx.now and not is_low(brain, rec):
            out.append(item(ctx, ref) | {"when": rfc3339(rec.time)})
    return sorted(out, key=lambda i: (i["when"], i["ref"], i.get("line") or 0))


def _changed(ctx: Ctx) -> list[dict]:
    """Notes and records modified in the last 7 days, newest first: ref, title, modified, and
    `review: true` where the note asks for review. Edits, not event times, decide (§4.1)."""
    brain, since, out = ctx.brain, ctx.now - timedelta(days=RECENT_DAYS), []
    for ref, note in brain.notes.items():
        if not note.deprecated and since < brain.modified[ref] <= ctx.now:
            out.append((brain.modified[ref], ref, note.title))
    for ref, rec in brain.records.items():
        if rec.modified and since < rec.modified <= ctx.now and not is_low(brain, rec):
            out.append((rec.modified, ref, rec.title))
    items = []
    for when, ref, title in sorted(out, key=lambda t: (-t[0].timestamp(), t[1])):
        entry = {"brain": brain.name, "ref": ref, "uri": refs.uri(brain.name, ref), "title": title, "modified": rfc3339(when)}
        if ctx.reviews.get(ref, {}).get("review"):
            entry["review"] = True
        items.append(entry)
    return items


def _activity(ctx: Ctx, timeline: list[dict]) -> dict:
    """Per-source record counts over the last 7 days (by placement; low-priority sources counted and
    marked) and the number of notes changed (by modification)."""
    start = ctx.now - timedelta(days=RECENT_DAYS)
    counts = period_pages(ctx.brain.name, "7d", "relative", start, ctx.now, timeline)[0]["counts"]
    changed = sum(1 for ref, n in ctx.brain.notes.items() if not n.deprecated and start < ctx.brain.modified[ref] <= ctx.now)
    return {"days": RECENT_DAYS, "start": rfc3339(start), "end": ctx.as_of, "counts": counts, "notes_changed": changed}


def home_view(ctx: Ctx, timeline: list[dict]) -> View:
    brain = ctx.brain
    reminders = [item(ctx, ref) | ctx.reviews[ref] for ref in sorted(ctx.reviews) if ctx.reviews[ref]["review"]]
    tasks = [_task(ctx, note, t) for ref, note in sorted(brain.notes.items()) if not note.deprecated
             for t in note.tasks if not t.done]
    sections = {
        "projects": _section(_open_notes(ctx, "project")), "actions": _section(_open_notes(ctx, "action")),
        "upcoming": _section(_upcoming(ctx)), "changed": _section(_changed(ctx)),
        "activity": _activity(ctx, timeline), "reminders": _section(reminders), "tasks": _section(tasks),
    }
    reply = base(ctx, "home", "home", brain.config.title, sections=sections, sources=list(ctx.coverage.values()))
    # The timeline rides along for the emitter, which writes it for query/read.py's `Nd` periods.
    return View(brain.name, "home", "home.html", (reply,), extra={"timeline": timeline})
