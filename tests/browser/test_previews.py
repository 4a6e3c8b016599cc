"""Link previews (issue 19, item 1; site/preview.js): hovering or focusing a link to a note, a
section, a record or an identity shows a popover with the target's title, a type/source/date line
and its opening text, read from the site's replies; Escape dismisses it; touch-only devices get
none (the module is not even loaded)."""
from __future__ import annotations

import pytest

from builder.emit.days import stamp
from builder.query.site import open_site
from example import opened, page_of
from test_parity import python_read   # tests/browser is on sys.path (rootdir-less imports)

NOTE = "brain/projects/new-website.html"


pytestmark = pytest.mark.browser


def _preview(page):
    box = page.locator("#bf-preview")
    box.wait_for(state="visible")
    return box


def _previewed(page, site, selector: str, ref: str, action: str):
    """Hover or focus the first link matching `selector`: the link, its preview (titled as the
    reply of `ref` is) and that reply."""
    link = page.locator(selector).first
    getattr(link, action)()
    box = _preview(page)
    want = python_read(open_site(site), ref, {})
    assert box.locator(".preview-title").inner_text() == want["title"]
    return link, box, want


def test_hovering_a_note_link_previews_the_note(page, example_site, serve_site):
    opened(page, serve_site(example_site, "/my-repo/") + NOTE)
    link, box, _ = _previewed(page, example_site, '.body a.internal[href="../concepts/style-guide.html"]',
                              "concepts/style-guide.md", "hover")
    assert box.locator(".meta").inner_text().startswith("note")
    assert len(box.locator(".excerpt").inner_text()) > 40 and "---" not in box.locator(".excerpt").inner_text()
    assert link.get_attribute("aria-describedby") == "bf-preview"
    page.mouse.move(0, 0)
    box.wait_for(state="hidden")
    assert link.get_attribute("aria-describedby") is None


def test_focusing_a_record_link_previews_the_record_and_escape_dismisses(page, example_site, serve_site):
    opened(page, serve_site(example_site, "/") + NOTE)
    link, box, want = _previewed(page, example_site, 'section.backlinks a[href$="#chat~3a2026-11-12-relaunch-scope"]',
                                 "chat:2026-11-12-relaunch-scope", "focus")
    when = stamp(want["record"]["time"], "Europe/Berlin")
    assert box.locator(".meta").inner_text() == f"record · chat · {when} · person:alice"
    assert want["record"]["text"][:30] in box.locator(".excerpt").inner_text()
    page.keyboard.press("Escape")
    box.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.getAttribute('href')") == link.get_attribute("href")


def test_links_name_their_targets(page, example_site, serve_site):
    base = serve_site(example_site, "/my-repo/")
    opened(page, base + NOTE)
    said = page.evaluate("""async (hrefs) => {
        const { linkTarget } = await import(bf.root + '_bf/preview.js')
        return Promise.all(hrefs.map((h) => linkTarget(bf.root, h)))
    }""", ["../concepts/style-guide.html#colour-palette", "../memories/chat/2026-11-12.html#chat~3a2026-11-12-relaunch-scope",
           "../person/alice.html", "../person/alice.html#rel~author", "new-website.html#goals",
           "../../search.html", "https://example.com/x.html", "../actions/launch-checklist/diagram.png",
           "../concepts/caf%C3%A9-men%C3%BC.html", "../actions/launch-checklist.html",
           "../" + page_of(example_site, "actions/launch-checklist").removeprefix("brain/")])
    assert said == [{"brain": "brain", "ref": "concepts/style-guide.md#colour-palette"},
                    {"brain": "brain", "ref": "chat:2026-11-12-relaunch-scope"},
                    {"brain": "brain", "ref": "person:alice"}, {"brain": "brain", "ref": "person:alice"},
                    None, None, None, None,
                    {"brain": "brain", "ref": "concepts/café-menü.md"},       # the page names its ref:
                    {"brain": "brain", "ref": "actions/launch-checklist.md"},   # the note kept the path,
                    {"brain": "brain", "ref": "actions/launch-checklist"}]      # its folder moved


def test_identity_and_section_previews(page, example_site, serve_site):
    base = serve_site(example_site, "/")
    opened(page, base + NOTE)
    page.locator('.body a.internal[href$="#colour-palette"]').first.hover()
    box = _preview(page)
    assert box.locator(".meta").inner_text().startswith("section of concepts/style-guide.md")
    page.goto(base + "brain/memories/chat/2026-11-12.html")   # a record's author
    page.wait_for_function("window.bf !== undefined")
    page.locator('#main a[href$="person/alice.html"]').first.hover()
    box = _preview(page)
    assert box.locator(".meta").inner_text().startswith("identity · ")


def test_touch_only_devices_get_no_previews(chromium, example_site, serve_site):
    context = chromium.new_context(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(serve_site(example_site, "/") + NOTE)
        page.wait_for_function("window.bf !== undefined")
        assert page.evaluate("matchMedia('(hover: hover)').matches") is False
        page.locator('.body a.internal').first.focus()
        page.wait_for_timeout(400)   # longer than a preview takes to show where hovering exists
        assert page.locator("#bf-preview").count() == 0
    finally:
        context.close()


def test_graph_nodes_preview_their_notes(page, example_site, serve_site):
    opened(page, serve_site(example_site, "/") + NOTE)
    page.locator("aside.side").scroll_into_view_if_needed()
    node = page.locator('section.graph a.hop-1[href$="/concepts/style-guide.html"]')
    node.hover()                                   # an SVG link: its href is no string
    assert _preview(page).locator(".preview-title").inner_text() == "Style guide"
