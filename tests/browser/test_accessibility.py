"""Accessibility: axe-core (vendored: tests/vendor/axe-core-*.min.js, its licence beside it) finds
no serious or critical violation on any page kind of the example site, in light and in dark, at a
desktop's width and a phone's, nor on a note with a drawn diagram, maths and callouts, a Chinese
note and an Arabic one; none with the explorer, the local graph, a link preview and the search
dialog open; and the home page and a note page work by keyboard alone."""
from __future__ import annotations

from pathlib import Path

import pytest

from builder.kernel.pageurls import page_file
from example import EXAMPLE_NOW, SCRIPTS_BRAIN, opened, served_brain

AXE = next((Path(__file__).resolve().parents[1] / "vendor").glob("axe-core-*.min.js"))
NOTE = "brain/projects/new-website.html"
PAGES = {   # one of each kind docs/site.md#pages lists
    "home": "index.html", "note": NOTE, "day (records)": "brain/memories/chat/2026-11-12.html",
    "undated": "brain/memories/chat/undated.html", "folder": "brain/projects.html", "tag": "brain/tags/website.html",
    "identity": "brain/person/alice.html", "source": "brain/memories/chat.html", "memories": "brain/memories.html",
    "period": "brain/2026-11.html", "rolling period": "brain/7d.html", "search": "search.html?q=launch&mode=scoped",
    "graph": "graph.html", "not found": "404.html",
}
SERIOUS = ("serious", "critical")
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

pytestmark = pytest.mark.browser


def violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    page.add_script_tag(path=str(AXE))
    # label-content-name-mismatch is experimental in axe 4.10: asked for by name (WCAG 2.5.3)
    found = page.evaluate("""async () => (await axe.run(document, { resultTypes: ['violations'],
        rules: { 'label-content-name-mismatch': { enabled: true } } })).violations""")
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in SERIOUS]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violations_on_any_page_kind(chromium, example_site, serve_site, scheme, size):
    base = serve_site(example_site, "/")
    context = chromium.new_context(viewport=SIZES[size], color_scheme=scheme)
    try:
        page = context.new_page()
        found = {}
        for kind, path in PAGES.items():
            opened(page, base + path)
            found[kind] = violations(page)
        assert found == {kind: [] for kind in PAGES}
    finally:
        context.close()


@pytest.fixture(scope="module")
def scripts_base(tmp_path_factory):
    yield from served_brain(tmp_path_factory.mktemp("a11y-scripts"), SCRIPTS_BRAIN, EXAMPLE_NOW)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violations_on_a_diagram_and_in_other_scripts(chromium, scripts_base, scheme, size):
    context = chromium.new_context(viewport=SIZES[size], color_scheme=scheme)
    try:
        page = context.new_page()
        found = {}
        for ref in ("notes/diagram.md", "notes/zh.md", "notes/ar.md"):
            opened(page, scripts_base + page_file("brain", ref))
            if ref == "notes/diagram.md":
                page.wait_for_function("document.documentElement.dataset.bfDiagrams === 'drawn'")
            found[ref] = violations(page)
        assert found == {ref: [] for ref in found}
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violations_with_everything_open(chromium, example_site, serve_site, scheme):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    try:
        page = opened(context.new_page(), serve_site(example_site, "/") + NOTE)
        page.locator("[data-bf-explorer]").click()
        page.locator("#bf-explorer ul.tree").wait_for()
        page.locator("aside.side").scroll_into_view_if_needed()
        page.locator("section.graph svg.graph-svg").wait_for()
        page.locator('.body a.internal[href="../concepts/style-guide.html"]').first.hover()
        page.locator("#bf-preview").wait_for()
        assert violations(page) == []
    finally:
        context.close()


def test_home_and_a_note_by_keyboard_alone(page, example_site, serve_site):
    base = serve_site(example_site, "/")
    opened(page, base + "index.html")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"           # first stop: skip to content
    page.keyboard.press("Enter")
    reached = []
    for _ in range(12):                                                          # into the page's own links
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.closest('#main') !== null"))
    assert any(reached)
    page.keyboard.press("Control+k")
    page.locator("dialog.quick-search-dialog").wait_for(state="visible")
    assert page.evaluate("document.activeElement.getAttribute('role')") == "combobox"
    page.keyboard.press("Escape")
    page.locator("dialog.quick-search-dialog").wait_for(state="hidden")

    opened(page, base + NOTE)
    for _ in range(60):                                                          # tab to the first link in the text
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.body a.internal')"):
            break
    else:
        pytest.fail("no link in the note's text is reachable by Tab")
    preview = page.locator("#bf-preview")
    preview.wait_for(state="visible")                                            # focus opens its preview
    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    preview.wait_for(state="visible")
    page.keyboard.press("/")                                                     # and the search dialog
    page.locator("dialog.quick-search-dialog").wait_for(state="visible")


SIX = {"home": "index.html", "note": NOTE, "period": "brain/2026-11.html", "folder": "brain/projects.html",
       "day": "brain/memories/chat/2026-11-12.html", "search": "search.html?q=launch"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_six_page_kinds_with_pagefind_and_the_graph_have_no_serious_violation_nor_console_error(
        chromium, full_site, serve_site, scheme):
    base = serve_site(full_site, "/")
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    errors = []
    try:
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        found = {}
        for kind, path in SIX.items():
            opened(page, base + path)
            if kind == "note":
                page.locator("aside.side").scroll_into_view_if_needed()
                page.locator("section.graph svg.graph-svg a").first.wait_for()
            if kind == "search":
                page.locator(".pagefind-ui__result").first.wait_for()
            found[kind] = violations(page)
        assert found == {kind: [] for kind in SIX} and errors == []
    finally:
        context.close()
