"""Days as pages word them (emit/days.py): the task due badge and search-card dates, always
against the build instant's day, never the viewer's clock."""
from __future__ import annotations

from datetime import date

import pytest

from builder.emit.days import day_words, due_badge, full_date, local_day

TODAY = date(2026, 12, 2)


@pytest.mark.parametrize("day, words", [
    (date(2026, 12, 2), "today"),
    (date(2026, 12, 3), "tomorrow"),
    (date(2026, 12, 1), "yesterday"),
    (date(2026, 12, 10), "10 Dec"),
    (date(2026, 3, 4), "4 Mar"),
    (date(2027, 1, 8), "8 Jan 2027"),       # another year than the build's says which
    (date(2025, 12, 2), "2 Dec 2025"),
])
def test_day_words(day, words):
    assert day_words(day, TODAY) == words


def test_year_edges_are_relative_words_across_new_year():
    assert day_words(date(2027, 1, 1), date(2026, 12, 31)) == "tomorrow"
    assert day_words(date(2026, 12, 31), date(2027, 1, 1)) == "yesterday"


def test_due_badge_is_a_time_element_worded_against_the_build_day():
    assert due_badge("2026-12-03", False, TODAY) == (
        '<span class="badge due" data-bf-asof>due '
        '<time datetime="2026-12-03" title="2026-12-03">tomorrow</time></span>')
    assert ">due <time" in due_badge("2026-12-02", False, TODAY)           # due today is not late


def test_only_an_open_task_past_its_day_is_overdue():
    late = due_badge("2026-11-20", False, TODAY)
    assert 'class="badge due overdue"' in late and ">was due <time" in late and ">20 Nov</time>" in late
    done = due_badge("2026-11-20", True, TODAY)
    assert "overdue" not in done and ">due <time" in done


def test_search_card_dates_are_days_in_the_brains_zone():
    assert full_date(date(2026, 10, 5)) == "5 Oct 2026"
    assert local_day("2026-10-05T08:15:00Z", "UTC") == date(2026, 10, 5)
    assert local_day("2026-10-05T23:30:00Z", "Europe/Berlin") == date(2026, 10, 6)
    assert local_day("2026-10-05", "Europe/Berlin") == date(2026, 10, 5)
