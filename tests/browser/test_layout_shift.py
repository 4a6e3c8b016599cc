"""Pages that do not move as they load, measured in Chromium with a
PerformanceObserver('layout-shift') on one small brain built once: a note with a Mermaid diagram,
maths and callouts, a Chinese note and home — and on the example site the graph, search with
pagefind's results, a source and an identity — at 1280×800 and 390×844, shift by at most 0.05
(Lighthouse's CLS budget); on a phone the header is one row of at most 64 px and a diagram scrolls
sideways instead of shrinking its text."""
from __future__ import annotations

import pytest

from builder.kernel.pageurls import page_file
from example import EXAMPLE_NOW, SCRIPTS_BRAIN as NOTES, served_brain

pytestmark = pytest.mark.browser

NOW = EXAMPLE_NOW
# every shift not caused by the reader, summed from the page's first moment
SHIFTS = """() => { window.__shift = 0; new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value })
  .observe({ type: 'layout-shift', buffered: true }) }"""
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    yield from served_brain(tmp_path_factory.mktemp("shift"), NOTES, NOW)


def _loaded(page, url, ready):
    page.add_init_script("(" + SHIFTS + ")()")
    page.goto(url)
    page.wait_for_function("window.bf !== undefined")
    for selector in ready:                 # what draws late has drawn
        page.locator(selector).first.wait_for(state="attached")
    page.wait_for_timeout(300)             # a shift is reported after the frame that made it
    return page.evaluate("window.__shift")


@pytest.mark.parametrize("size", list(SIZES))
def test_pages_do_not_move_as_they_load(chromium, base, size):
    context = chromium.new_context(viewport=SIZES[size])
    try:
        for ref, ready in (("notes/diagram.md", ["pre.mermaid.drawn", ".math-display > math"]),
                           ("notes/zh.md", ["section.graph svg.graph-svg"]), ("home", [])):
            page = context.new_page()
            shift = _loaded(page, base + page_file("brain", ref), ready)
            assert shift <= 0.05, (ref, shift)
            if size == "phone":
                assert page.locator("header.top").bounding_box()["height"] <= 64, ref
            page.close()
    finally:
        context.close()


# pages drawn after they load: the whole graph, pagefind's results (filters beside them on a wide
# screen, below them on a phone), instants given their relative form ("· 3 days ago") in a source's
# facts and an identity's lists
LATE = {"graph.html": ["canvas.graph-whole"], "search.html?q=launch": [".pagefind-ui__result-title"],
        "brain/memories/brief.html": ["time[data-ago]"], "brain/person/alice.html": ["time[data-ago]"]}


@pytest.mark.parametrize("size", list(SIZES))
def test_pages_drawn_after_they_load_do_not_move(chromium, full_site, serve_site, size):
    base_url = serve_site(full_site, "/")
    context = chromium.new_context(viewport=SIZES[size])
    try:
        shifts = {}
        for path, ready in LATE.items():
            page = context.new_page()
            shifts[path] = _loaded(page, base_url + path, ready)
            page.close()
        assert all(shift <= 0.05 for shift in shifts.values()), shifts
    finally:
        context.close()


def test_a_diagram_scrolls_on_a_phone_instead_of_shrinking(chromium, base):
    page = chromium.new_page(viewport=SIZES["phone"])
    try:
        page.goto(base + page_file("brain", "notes/diagram.md"))
        diagram = page.locator("pre.mermaid.drawn")
        diagram.wait_for()
        width, inner, scale = diagram.evaluate("""(pre) => { const svg = pre.querySelector('svg')
            return [pre.clientWidth, pre.scrollWidth, svg.getBoundingClientRect().width / svg.viewBox.baseVal.width] }""")
        assert inner > width                       # wider than the phone: it scrolls
        assert scale >= 0.8, scale                 # its 16 px text drawn at 13 px or more, not ~7 px
    finally:
        page.close()
