"""Pages that do not move as they load (issue 64), measured in Chromium with a
PerformanceObserver('layout-shift') on one small brain built once: a note with a Mermaid diagram,
maths and callouts, a Chinese note and home, at 1280×800 and 390×844, shift by at most 0.05
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
        for ref, ready in (("notes/diagram.md", ["pre.mermaid.drawn", ".katex"]),
                           ("notes/zh.md", ["section.graph svg.graph-svg"]), ("home", [])):
            page = context.new_page()
            shift = _loaded(page, base + page_file("brain", ref), ready)
            assert shift <= 0.05, (ref, shift)
            if size == "phone":
                assert page.locator("header.top").bounding_box()["height"] <= 64, ref
            page.close()
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
