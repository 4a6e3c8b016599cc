"""Calendar days and times as pages show them: a task's due badge, the date on search result
cards, a record's time on its day page.

Words are relative to the build instant, never to the viewer's clock: pages are static and
byte-identical for the same --now. Month names are spelled here because strftime's %b follows
the build machine's locale."""
from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

from types import MappingProxyType

from markupsafe import Markup

from ..kernel.times import parse_instant

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
NEAR = MappingProxyType({-1: "yesterday", 0: "today", 1: "tomorrow"})


def local_day(value: str, tz: str) -> date:
    """The calendar day, in the brain's zone, of a date or an RFC 3339 instant."""
    return parse_instant(value, tz).astimezone(ZoneInfo(tz)).date()


def full_date(day: date) -> str:
    """'5 Oct 2026'."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def clock(value: str, tz: str) -> str:
    """'09:14': an instant's time of day in the brain's zone (a day page names the day already)."""
    return parse_instant(value, tz).astimezone(ZoneInfo(tz)).strftime("%H:%M")


def stamp(value: str, tz: str) -> str:
    """'3 Dec 2026, 09:14'."""
    return f"{full_date(local_day(value, tz))}, {clock(value, tz)}"


def day_words(day: date, today: date) -> str:
    """'today', 'tomorrow', 'yesterday', else '3 Dec', with the year when it is not today's."""
    if (day - today).days in NEAR:
        return NEAR[(day - today).days]
    return f"{day.day} {MONTHS[day.month - 1]}" if day.year == today.year else full_date(day)


def due_badge(due: str, done: bool, today: date) -> Markup:
    """A task's due day (YYYY-MM-DD) as a badge: 'due tomorrow'. An open task past its day
    reads 'was due 20 Nov' and is marked overdue, in words as well as in colour. Full-text search
    skips the badge: its words change with the build day (`data-bf-asof` tells emit/pagefind.py
    that a bundle's input does not change with it)."""
    day = date.fromisoformat(due)
    late = not done and day < today
    kind, lead = ("due overdue", "was due") if late else ("due", "due")
    return Markup(f'<span class="badge {kind}" data-bf-asof>{lead} '
                  f'<time datetime="{day}" title="{day}">{day_words(day, today)}</time></span>')
