"""Periods at the edges of the calendar are invalid input, never a traceback."""
from datetime import datetime, timezone

import pytest

from builder.kernel.errors import InvalidInput
from builder.kernel.periods import parse_period

AS_OF = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)


@pytest.mark.parametrize("ref, tz", [("9999-W52", "UTC"), ("9999-12-31", "UTC"), ("9999", "UTC"),
                                     ("0001", "Asia/Tokyo")])
def test_calendar_edges_are_invalid_periods(ref, tz):
    with pytest.raises(InvalidInput, match=f"invalid period: {ref}"):
        parse_period(ref, tz, AS_OF)
