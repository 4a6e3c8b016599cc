"""builder/kernel/times.py: the one parser of instants, lenient for what people write, strict for what bf wrote."""
from datetime import datetime, timedelta, timezone

import pytest

from builder.kernel.times import from_rfc3339, parse_instant


def test_from_rfc3339_keeps_the_instant_as_written():
    dt = from_rfc3339("2026-03-01T10:00:00.250+02:00")
    assert dt.utcoffset() == timedelta(hours=2) and dt.microsecond == 250000
    assert from_rfc3339("2026-03-01T08:00:00Z") == datetime(2026, 3, 1, 8, tzinfo=timezone.utc)


@pytest.mark.parametrize("text", ["", "yesterday", "2026-13-01T00:00:00Z"])
def test_from_rfc3339_refuses_what_bf_never_writes(text):
    with pytest.raises(ValueError):
        from_rfc3339(text)


@pytest.mark.parametrize("text, expected", [
    ("2026-03-01t08:00:00z", "2026-03-01 08:00:00+00:00"),     # lower-case RFC 3339 letters
    ("2026-03-01T10:00:00.9+02:00", "2026-03-01 08:00:00+00:00"),   # to UTC, whole seconds
    ("2026-03-01", "2026-02-28 23:00:00+00:00"),               # a bare date: midnight in the zone
    ("not a time", "None"),
])
def test_parse_instant_is_lenient(text, expected):
    assert str(parse_instant(text, "Europe/Paris")) == expected
