"""The search dialog of every page (site/quicksearch.js): Ctrl-K or "/" opens it, pagefind answers
as you type, arrow keys move, Enter opens the result, Escape closes; results show the item's kind,
source and date (<time datetime> with the instant, and a relative date from the reader's clock)."""
from __future__ import annotations

from pathlib import Path

import pytest

from crawl import screenshot

NOW = "2026-12-02T12:00:00Z"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"
NOTE = "brain/projects/new-website.html"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from builder.build import build
    out = tmp_path_factory.mktemp("quick") / "site"
    build([EXAMPLE], out, now=NOW, pagefind=True)
    return out


@pytest.fixture
def watched(page):
    """The page, recording console errors, answers >= 400 and requests leaving 127.0.0.1 (all three
    end up in page.errors). Chromium's own /favicon.ico request is not the site's."""
    page.errors = []
    page.on("console", lambda msg: page.errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("response", lambda r: page.errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico") else None)
    page.on("request", lambda r: None if r.url.startswith("http://127.0.0.1") else page.errors.append("external " + r.url))
    return page


def _open_dialog(page, base, key):
    """Go to a note page and press `key` there; returns the dialog, open."""
    page.goto(base + NOTE)
    page.wait_for_function("window.bf !== undefined")
    assert page.locator("dialog.quick-search-dialog").count() == 0   # nothing of the dialog before it is asked for
    page.keyboard.press(key)
    dialog = page.locator("dialog.quick-search-dialog")
    dialog.wait_for(state="visible")
    return dialog


def test_ctrl_k_type_arrow_enter_opens_the_note(watched, site, serve_site):
    base = serve_site(site, "/my-repo/")
    page = watched
    dialog = _open_dialog(page, base, "Control+K")
    assert page.evaluate("document.activeElement.getAttribute('role')") == "combobox"
    page.keyboard.type("careers")
    first = dialog.locator("li[role=option]").first
    first.wait_for()
    assert first.locator("a").inner_text() == "Careers page"
    assert first.locator(".meta").inner_text().startswith("note · project · ")
    time = first.locator("time")
    assert time.get_attribute("datetime") == "2026-12-02T09:30:00Z" and time.inner_text() == "2 Dec 2026"
    relative = page.evaluate("async (t) => (await import(bf.root + '_bf/dates.js')).relativeTime(t)",
                             "2026-12-02T09:30:00Z")
    assert relative and f"({relative})" in first.locator(".meta").inner_text()   # against the reader's clock
    assert first.get_attribute("aria-selected") == "false"
    page.keyboard.press("ArrowDown")
    assert first.get_attribute("aria-selected") == "true"
    assert page.evaluate("document.activeElement.getAttribute('aria-activedescendant')") == first.get_attribute("id")
    screenshot(page, "search-dialog", full_page=False)
    page.keyboard.press("Enter")
    page.wait_for_url("**/brain/projects/careers-page.html")
    assert page.errors == []


def test_records_open_at_their_anchor_and_arrow_up_wraps(watched, site, serve_site):
    base = serve_site(site, "/")
    page = watched
    _open_dialog(page, base, "/")                                      # "/" opens it too
    page.keyboard.type("salary")
    options = page.locator("dialog li[role=option]")
    options.first.wait_for()
    records = page.locator("dialog li[role=option]", has=page.locator("a[href*='memories/']"))
    assert records.count() >= 1
    record = records.first
    assert record.locator(".meta").inner_text().startswith("record · brief · ")
    href = record.locator("a").get_attribute("href")
    assert "#" in href                                                 # the record's anchor on its day page
    page.keyboard.press("ArrowUp")                                     # from the input: to the last option
    last = options.nth(options.count() - 1)
    assert last.get_attribute("aria-selected") == "true"
    assert page.errors == []


def test_escape_closes_and_the_search_page_keeps_its_slash(watched, site, serve_site):
    base = serve_site(site, "/")
    page = watched
    dialog = _open_dialog(page, base, "Control+K")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("document.querySelector('dialog.quick-search-dialog').open") is False
    page.goto(base + "search.html")
    page.wait_for_selector("#pagefind input")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.closest('#pagefind') !== null")
    assert page.locator("dialog.quick-search-dialog").count() == 0
    assert page.errors == []


def test_relative_time_reads_the_clock_it_is_given(page, site, serve_site):
    base = serve_site(site, "/")
    page.goto(base + NOTE)
    said = page.evaluate("""async () => {
        const { relativeTime } = await import(bf.root + '_bf/dates.js')
        const now = Date.parse('2026-12-05T12:00:00Z')
        return [relativeTime('2026-12-02T09:30:00Z', now), relativeTime('2026-12-05T11:59:30Z', now),
                relativeTime('2026-12-05T14:00:00Z', now), relativeTime('not a date', now)]
    }""")
    assert said == ["3 days ago", "just now", "in 2 hours", ""]


def _slow_phone(page):
    """Lighthouse's phone: 150 ms round trips, 1.6 Mbit/s down, a 4x CPU slowdown (CDP)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8,
                                                  "uploadThroughput": 750e3 / 8})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})


def test_keys_typed_right_after_slash_land_in_the_field_on_a_slow_phone(watched, site, serve_site):
    base = serve_site(site, "/")
    page = watched
    page.goto(base + NOTE)
    page.wait_for_function("window.bf !== undefined")
    _slow_phone(page)
    page.keyboard.press("/")
    page.keyboard.type("careers")        # at once: quicksearch.js has not loaded yet
    field = page.locator("dialog.quick-search-dialog input[type=search]")
    assert field.is_visible() and field.input_value() == "careers"
    first = page.locator("dialog.quick-search-dialog li[role=option]").first
    first.wait_for(timeout=30_000)
    assert field.input_value() == "careers" and first.locator("a").inner_text() == "Careers page"
    assert page.errors == []


def _careers_without_pagefind(page, site, serve_site) -> list[str]:
    """On a note page of `site` (built without pagefind), Ctrl-K and "careers" typed: the titles
    the dialog shows once it answers."""
    page.goto(serve_site(site, "/") + NOTE)
    page.wait_for_function("window.bf !== undefined")
    page.keyboard.press("Control+K")
    page.keyboard.type("careers")
    page.locator("dialog.quick-search-dialog li[role=option]").first.wait_for()
    return page.locator("dialog.quick-search-dialog li[role=option] > a").all_inner_texts()


def test_without_pagefind_the_dialog_searches_with_bfs_engine(watched, example_site, serve_site):
    page = watched
    _careers_without_pagefind(page, example_site, serve_site)
    reply = page.evaluate("async () => await bf.search('careers', {limit: 8})")
    shown = page.locator("dialog.quick-search-dialog li[role=option] > a").all_inner_texts()
    assert shown == [it["title"] for it in reply["items"]] and shown[0] == "Careers page"
    assert page.locator("dialog.quick-search-dialog .status").inner_text().startswith(f"{reply['total']} result")
    # the one miss: the dialog asks for pagefind's bundles first, as the search page does
    assert [e for e in page.errors if not e.endswith("/pagefind/bundles.json")] == []


def test_a_file_that_does_not_load_is_named_and_the_results_stay(page, example_site, serve_site):
    """Without pagefind the dialog searches with bf's engine: when a file it reads fails on the
    way (a route aborts the item texts), the status says which, and the results of the query
    before stay, links that work."""
    shown = _careers_without_pagefind(page, example_site, serve_site)
    page.route("**/_bf/search/brain/notes/*.json.gz", lambda route: route.abort())
    page.route("**/_bf/search/brain/records/*/x/*.json.gz", lambda route: route.abort())
    page.keyboard.type(" launch")
    status = page.locator("dialog.quick-search-dialog .status")
    page.wait_for_function("document.querySelector('dialog.quick-search-dialog .status').textContent.startsWith('Search failed')")
    assert " did not load " in status.inner_text() and "The results shown are for the query before." in status.inner_text()
    assert page.locator("dialog.quick-search-dialog li[role=option] > a").all_inner_texts() == shown
    page.keyboard.press("Enter")
    page.wait_for_url("**/careers*")
