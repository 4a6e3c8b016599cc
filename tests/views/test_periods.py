"""docs/replies.md#periods, docs/brain.md#times: placement, period pages, DST-safe calendar bounds, relative periods."""
import pytest


def refs_of(reply):
    return [i["ref"] for i in reply["items"]]


def test_record_placed_by_event_time_not_edit(views_read):
    assert "chat:edited" in refs_of(views_read("2026-11-20"))
    assert "chat:edited" not in refs_of(views_read("today"))


def test_edited_record_appears_in_changed(views_read):
    changed = views_read("home")["sections"]["changed"]["items"]
    first = changed[0]
    assert first["ref"] == "chat:edited" and first["modified"] == "2026-12-02T10:00:00Z"
    assert set(first) <= {"brain", "ref", "uri", "title", "modified", "review"}


def test_placed_by_observation_only_without_event_time(views_read):
    assert "chat:observed-only" in refs_of(views_read("2026-12-01"))


def test_records_with_neither_time_stay_out_of_periods_but_are_undated(views_read):
    assert "chat:nothing" not in refs_of(views_read("2026"))
    undated = refs_of(views_read("memories/chat/undated"))
    assert undated == ["chat:observed-only", "chat:nothing"]


def test_future_event_counts_only_once_it_happens(views_read):
    assert "chat:future" not in refs_of(views_read("2026-12"))
    assert views_read("2026-12-10")["total"] == 0
    upcoming = [i["ref"] for i in views_read("home")["sections"]["upcoming"]["items"]]
    assert "chat:future" in upcoming


def test_observation_never_creates_upcoming(views_read):
    upcoming = [i["ref"] for i in views_read("home")["sections"]["upcoming"]["items"]]
    assert upcoming == ["actions/do.md", "chat:future", "events/party.md"]   # soonest first


def test_items_newest_first_with_start_end_counts(views_read):
    reply = views_read("2026-10")
    placed = [i["placed"] for i in reply["items"]]
    assert placed == sorted(placed, reverse=True)
    assert reply["start"] == "2026-09-30T22:00:00Z" and reply["end"] == "2026-10-31T23:00:00Z"
    assert reply["page"] == "period" and reply["period"] == "month"
    assert {"source": "chat", "count": 3} in reply["counts"]


def test_low_priority_source_counts_but_leaves_items(views_read):
    reply = views_read("today")
    assert {"source": "brief", "count": 1, "priority": "low"} in reply["counts"]
    assert "brief:today" not in refs_of(reply)


def test_dst_day_has_25_hours_and_week_boundary(views_read):
    day = views_read("2026-10-25")
    assert (day["start"], day["end"]) == ("2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z")
    assert refs_of(day) == ["chat:dst-b", "chat:dst-a"]
    w43, w44 = views_read("2026-W43"), views_read("2026-W44")
    assert w43["end"] == "2026-10-25T23:00:00Z" == w44["start"]
    assert "chat:dst-c" in refs_of(w44) and "chat:dst-c" not in refs_of(w43)


def test_month_boundary_in_local_time(views_read):
    assert "chat:month-edge" in refs_of(views_read("2026-11"))
    assert "chat:month-edge" not in refs_of(views_read("2026-10"))


def test_empty_period_is_a_page_with_the_same_shape(views_read):
    empty, full = views_read("2031-02"), views_read("2026-10")
    assert empty["items"] == [] and empty["total"] == 0
    assert set(empty) == set(full)


def test_relative_periods(views_read):
    for ref in ("today", "yesterday", "7d", "30d", "12d"):
        reply = views_read(ref)
        assert reply["page"] == "period"
    twelve = views_read("12d")
    assert twelve["start"] == "2026-11-20T12:00:00Z" and twelve["end"] == "2026-12-02T12:00:00Z"
    assert "chat:after" in refs_of(twelve) and "chat:edited" not in refs_of(twelve)


def test_invalid_period_exits_2(views_site, bf):
    code, _, err = bf("read", "2026-13", "--site", views_site)
    assert code == 2 and "invalid period: 2026-13" in err
