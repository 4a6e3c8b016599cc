"""Screenshots of the pages (not a check of pixels): home, a note with a preview open and its
local graph, a record at its anchor on its day page, a period, the whole graph, the page not
found, the explorer and the search dialog with results, at 1280 and 375 px, light and dark,
written to tests/artifacts/screens/ (committed; each a viewport, not the whole page, to stay
small). Each asserts that what it shows is on screen, so a broken feature fails here rather than
leaving a blank picture."""
from __future__ import annotations

import pytest

from crawl import ARTIFACTS
from example import opened

SCREENS = ARTIFACTS / "screens"
NOTE = "brain/projects/new-website.html"
SIZES = {1280: 800, 375: 740}
SCALE = {1280: 0.8, 375: 1}   # device pixels per CSS pixel: the 1280 px layout in 1024 px keeps each PNG under 150 KB

pytestmark = pytest.mark.browser


def _home(page, base):
    opened(page, base + "index.html")


def _note(page, base):
    opened(page, base + NOTE)
    page.locator("aside.side").scroll_into_view_if_needed()
    page.locator("section.graph svg.graph-svg").wait_for()
    page.evaluate("document.querySelector('section.graph').scrollIntoView({block: 'start'})")
    page.locator("section.backlinks a").first.hover()
    page.locator("#bf-preview").wait_for()


def _record(page, base):
    opened(page, base + "brain/memories/chat/2026-11-12.html#chat~3a2026-11-12-relaunch-scope")


def _period(page, base):
    opened(page, base + "brain/2026-W48.html")


def _graph(page, base):
    opened(page, base + "graph.html")
    page.locator("canvas.graph-whole").wait_for()


def _not_found(page, base):
    opened(page, base + "404.html")
    page.locator("main h1").wait_for()


def _explorer(page, base):
    opened(page, base + NOTE)
    page.locator("[data-bf-explorer]").click()
    page.locator("#bf-explorer a[aria-current=page]").wait_for()


def _search(page, base):
    opened(page, base + NOTE)
    page.keyboard.press("Control+k")
    page.locator("dialog.quick-search-dialog").wait_for()
    page.keyboard.type("launch")
    page.locator("dialog.quick-search-dialog li[role=option]").first.wait_for()


VIEWS = {"home": _home, "note-preview-graph": _note, "record": _record, "period": _period,
         "graph": _graph, "not-found": _not_found, "explorer": _explorer, "search-dialog": _search}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", list(SIZES))
def test_screenshots(chromium, full_site, serve_site, width, scheme):
    base = serve_site(full_site, "/")
    context = chromium.new_context(viewport={"width": width, "height": SIZES[width]},
                                 device_scale_factor=SCALE[width], color_scheme=scheme)
    SCREENS.mkdir(parents=True, exist_ok=True)
    try:
        for name, show in VIEWS.items():
            page = context.new_page()
            show(page, base)
            page.wait_for_timeout(300)   # let the relative dates and fonts settle before the picture
            path = SCREENS / f"{name}-{width}-{scheme}.png"
            page.screenshot(path=str(path))
            assert 5_000 < path.stat().st_size < 150_000
            page.close()
    finally:
        context.close()
