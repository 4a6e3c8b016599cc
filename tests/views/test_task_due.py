"""Task due markers (docs/brain.md#tasks): replies keep the day as `due` and drop the marker from the text;
pages show the day as a <time> badge worded against the build instant in the brain's zone."""
from __future__ import annotations

import re

import pytest

from views_brain import write

# 23:30 UTC is already 3 December in Berlin: the badges' "today" is the brain's day.
NOW = "2026-12-02T23:30:00Z"
FILES = {
    "brain.toml": 'name = "td"\ntimezone = "Europe/Berlin"\n',
    "projects/p.md": ("---\nmodified: 2026-11-30T10:00:00Z\n---\n# P\n\n"
                      "- [ ] ship 📅 2026-12-04\n"
                      "- [ ] call due:2026-12-03 about pricing\n"
                      "- [ ] slipped 📅 2026-12-02\n"
                      "- [ ] late 📅 2026-12-01\n"
                      "- [x] finished 📅 2026-11-01\n"
                      "- [ ] next year 📅 2027-01-08\n"),
}
BADGES = {   # task text → (badge class, lead word, day, words)
    "ship": ("due", "due", "2026-12-04", "tomorrow"),
    "call about pricing": ("due", "due", "2026-12-03", "today"),
    "slipped": ("due overdue", "was due", "2026-12-02", "yesterday"),
    "late": ("due overdue", "was due", "2026-12-01", "1 Dec"),
    "finished": ("due", "due", "2026-11-01", "1 Nov"),
    "next year": ("due", "due", "2027-01-08", "8 Jan 2027"),
}


def badge(text: str) -> str:
    cls, lead, day, words = BADGES[text]
    return (f'<span class="badge {cls}" data-bf-asof>{lead} '
            f'<time datetime="{day}" title="{day}">{words}</time></span>')


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from builder.build import build
    tmp = tmp_path_factory.mktemp("task-due")
    build([write(tmp / "td", FILES)], tmp / "site", now=NOW, pagefind=False)
    return tmp / "site"


@pytest.fixture(scope="module")
def read(site):
    from builder.query.read import read as read_reply
    from builder.query.site import open_site
    return lambda ref: read_reply(open_site(site), ref)


def shown(html: str) -> str:
    """A page without its <meta> tags (pagefind's excerpt meta quotes the raw Markdown)."""
    return re.sub(r"<meta [^>]*>", "", html)


def test_note_reply_tasks_lose_the_marker_and_keep_due(read):
    tasks = read("projects/p.md")["tasks"]
    assert [(t["text"], t["due"]) for t in tasks] == [(text, BADGES[text][2]) for text in BADGES]


def test_home_reply_task_titles_lose_the_marker_and_keep_due(read):
    s = read("home")["sections"]
    assert [(t["title"], t["due"]) for t in s["tasks"]["items"]] == [
        (text, BADGES[text][2]) for text in BADGES if text != "finished"]
    upcoming = [(i["title"], i["due"]) for i in s["upcoming"]["items"] if i["kind"] == "task"]
    assert upcoming == [("ship", "2026-12-04"), ("next year", "2027-01-08")]


def test_note_page_shows_badges_in_the_body_once(site):
    page = shown((site / "td" / "projects" / "p.html").read_text())
    assert "📅" not in page and "due:2026" not in page
    for text in BADGES:
        assert page.count(badge(text)) == 1, text           # in the body's task list; no side list repeats it
    assert f' call {badge("call about pricing")} about pricing</li>' in page   # in place, words around it


def test_home_page_shows_badges_for_tasks_and_upcoming_tasks(site):
    page = shown((site / "td" / "home.html").read_text())
    assert "📅" not in page and "due:2026" not in page
    assert page.count(badge("ship")) == 2 and page.count(badge("next year")) == 2   # upcoming and tasks
    assert page.count(badge("late")) == 1 and badge("finished") not in page         # only open tasks
