"""Periods (docs/replies.md#periods): relative ones end at the build instant; calendar ones are computed in
the brain's time zone. Shared by views (which fill them) and the query engine (which reads an
empty calendar period without a file). JS twin: site/engine/periods.js.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from .errors import InvalidInput

RELATIVE = re.compile(r"^(\d+)d$")
YEAR = re.compile(r"^(\d{4})$")
MONTH = re.compile(r"^(\d{4})-(\d{2})$")
WEEK = re.compile(r"^(\d{4})-W(\d{2})$")
DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def _utc(d: date, tz: str) -> datetime:
    return datetime.combine(d, time(0), ZoneInfo(tz)).astimezone(timezone.utc)


def parse_period(ref: str, tz: str, as_of: datetime) -> tuple[str, datetime, datetime, bool] | None:
    """(kind, start, end, relative) with end exclusive, or None when `ref` is not period-like.
    Raises InvalidInput for a period-like ref that names no period (2026-13, 0d, 367d)."""
    bad = InvalidInput("ref", f"invalid period: {ref}")
    local_today = as_of.astimezone(ZoneInfo(tz)).date()
    if ref in ("today", "yesterday"):
        day = local_today - timedelta(days=1 if ref == "yesterday" else 0)
        return "day", _utc(day, tz), _utc(day + timedelta(days=1), tz), True
    m = RELATIVE.match(ref)
    if m:
        n = int(m.group(1))
        if not 1 <= n <= 366 or m.group(1).startswith("0"):
            raise bad
        return "relative", as_of - timedelta(days=n), as_of, True
    try:
        if m := YEAR.match(ref):
            y = int(m.group(1))
            return "year", _utc(date(y, 1, 1), tz), _utc(date(y + 1, 1, 1), tz), False
        if m := MONTH.match(ref):
            y, mo = int(m.group(1)), int(m.group(2))
            start = date(y, mo, 1)
            end = date(y + (mo == 12), mo % 12 + 1, 1)
            return "month", _utc(start, tz), _utc(end, tz), False
        if m := WEEK.match(ref):
            y, w = int(m.group(1)), int(m.group(2))
            start = date.fromisocalendar(y, w, 1)
            return "week", _utc(start, tz), _utc(start + timedelta(days=7), tz), False
        if m := DAY.match(ref):
            d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            return "day", _utc(d, tz), _utc(d + timedelta(days=1), tz), False
    except (ValueError, OverflowError):   # no such date, or beyond year 1–9999 once shifted to UTC
        raise bad from None
    if re.match(r"^\d{4}(-|$)|^\d+d$", ref):
        raise bad
    return None
