"""Human dates (issue 19, item 6): pages show "3 Dec 2026, 09:14" in the brain's timezone inside
<time datetime="INSTANT">, and bf.js adds the relative form from the reader's clock; the browser's
absolute form (site/dates.js stamp) equals the build's (builder/emit/days.py stamp)."""
from __future__ import annotations

import pytest

from builder.emit.days import stamp
from example import EXAMPLE_NOW, opened

pytestmark = pytest.mark.browser

INSTANTS = ["2026-11-10T09:00:00Z", "2026-03-29T00:59:59Z", "2026-03-29T01:00:00Z", "2026-12-31T23:30:00-05:00",
            "2027-01-01T00:05:00+14:00"]
ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Kiritimati"]


def test_the_browser_writes_dates_as_the_build_does(page, example_site, serve_site):
    opened(page, serve_site(example_site, "/") + "brain/home.html")
    said = page.evaluate("""async ([instants, zones]) => {
        const { stamp } = await import(bf.root + '_bf/dates.js')
        return zones.map((tz) => instants.map((t) => stamp(t, tz)))
    }""", [INSTANTS, ZONES])
    assert said == [[stamp(t, tz) for t in INSTANTS] for tz in ZONES]
    assert said[1][0] == "10 Nov 2026, 10:00"


def test_a_note_shows_its_date_absolute_then_relative(page, example_site, serve_site):
    page.goto(serve_site(example_site, "/") + "brain/projects/new-website.html")
    modified = page.locator(".note .meta time")
    assert modified.get_attribute("datetime") == "2026-11-10T09:00:00Z"
    assert modified.inner_text() == "10 Nov 2026, 10:00"             # Europe/Berlin, the brain's zone
    ago = page.locator(".note .meta time + .ago")
    ago.wait_for()
    relative = page.evaluate("async (t) => (await import(bf.root + '_bf/dates.js')).relativeTime(t)",
                             "2026-11-10T09:00:00Z")
    assert relative.endswith("ago") and ago.inner_text().strip() == "· " + relative      # the reader's clock, not NOW
    assert modified.get_attribute("title") == "2026-11-10T09:00:00Z"
    assert page.locator("footer time").count() == 0      # a note does not depend on the build instant
    page.goto(serve_site(example_site, "/") + "brain/home.html")
    footer = page.locator("footer time")                  # home is computed against it, and says so
    assert footer.inner_text() == "2 Dec 2026, 13:00" and footer.get_attribute("datetime") == EXAMPLE_NOW


def test_scoped_search_results_show_human_dates(page, example_site, serve_site):
    page.goto(serve_site(example_site, "/") + "search.html?q=standup&mode=scoped")
    first = page.locator("li.result.kind-record time").first
    first.wait_for()
    instant = first.get_attribute("datetime")
    assert first.inner_text() == stamp(instant, "Europe/Berlin")
    assert first.locator("xpath=following-sibling::span[@class='ago']").count() == 1
