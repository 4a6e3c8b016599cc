"""Instants and dates as the brain writes them → aware UTC datetimes; and back to RFC 3339."""
from __future__ import annotations

from calendar import timegm
from datetime import date, datetime, time, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo


def parse_instant(value, tz: str = "UTC") -> datetime | None:
    """A YAML/JSON date or instant → aware UTC datetime; a bare date is midnight in the brain's zone."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime.combine(value, time(0), ZoneInfo(tz))
    elif isinstance(value, str):
        text = value.strip()
        try:
            if len(text) == 10:
                dt = datetime.combine(date.fromisoformat(text), time(0), ZoneInfo(tz))
            else:
                dt = from_rfc3339(text.replace("z", "Z"))
        except ValueError:
            return None
    else:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=ZoneInfo(tz))
    return dt.astimezone(timezone.utc).replace(microsecond=0)


def from_rfc3339(text: str) -> datetime:
    """An instant bf wrote ('…Z' or with an offset) → aware datetime, as written: no rounding, no
    zone change. Strict: anything else raises ValueError (bf's own values are never wrong)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def seconds(instant: datetime | None) -> int | None:
    """An instant as whole seconds since 1970 UTC (the search index's placed instants): they
    compare as its rfc3339 text does (for a four-digit year), which drops the fraction too."""
    return None if instant is None else timegm(instant.astimezone(timezone.utc).timetuple())


@lru_cache(maxsize=65536)   # the same instants are formatted for every listing they appear on
def rfc3339(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
