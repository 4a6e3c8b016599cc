"""Explorer and contents (issue 19, item 3): a collapsible folder tree from one per-site file
(`_bf/explorer.json.gz`, fetched only when the reader opens the explorer, never inside a page),
and the note's outline as a table of contents beside the text on wide screens with the section
being read marked (site/explorer.js, site/contents.js)."""
from __future__ import annotations

import pytest

from builder.brain import load
from example import EXAMPLE, opened

NOTE = "brain/projects/new-website.html"

pytestmark = pytest.mark.browser


def _explorer_requests(serve_site):
    return [r for r in serve_site.servers[-1].requests if "explorer.json" in r[1]]


def test_the_explorer_is_a_tree_of_every_note_loaded_once(page, example_site, serve_site):
    opened(page, serve_site(example_site, "/my-repo/") + NOTE)
    assert page.locator("#bf-explorer").count() == 0 and _explorer_requests(serve_site) == []
    assert "explorer.json" not in (example_site / NOTE).read_text()     # the tree is never in a page
    button = page.locator("[data-bf-explorer]")
    button.click()
    tree = page.locator("#bf-explorer ul.tree")
    tree.wait_for()
    assert button.get_attribute("aria-expanded") == "true"
    current = tree.locator("a[aria-current=page]")
    assert current.inner_text() == "New website"                       # its folder opened to show it
    concepts = tree.locator("details", has=page.locator("summary", has_text="concepts")).first
    assert not concepts.evaluate("d => d.open")
    concepts.locator("summary").focus()
    page.keyboard.press("Enter")                                       # folders open by keyboard
    concepts.locator(":scope > ul > li > a").first.wait_for()
    titles = concepts.locator(":scope > ul > li > a").all_inner_texts()
    brain = load(EXAMPLE)
    assert titles == [brain.notes[r].title for r in sorted(brain.notes) if r.startswith("concepts/") and r.count("/") == 1]
    concepts.locator(":scope > ul > li > a").first.click()
    page.wait_for_url("**/concepts/*.html")
    page.locator("#bf-explorer ul.tree a[aria-current=page]").wait_for()  # left open: it opens again by itself
    assert len(_explorer_requests(serve_site)) <= 2    # once per page view, then the browser's cache
    button = page.locator("[data-bf-explorer]")
    button.click()
    page.locator("#bf-explorer").wait_for(state="hidden")
    assert button.get_attribute("aria-expanded") == "false"


def test_every_note_is_in_the_tree(page, example_site, serve_site):
    opened(page, serve_site(example_site, "/") + NOTE)
    page.locator("[data-bf-explorer]").click()
    page.locator("#bf-explorer ul.tree").wait_for()
    page.evaluate("""async () => {   // open every folder, those inside the ones just opened too
        for (let closed; (closed = document.querySelectorAll('#bf-explorer details:not([open])')).length;) {
            closed.forEach((d) => { d.open = true })
            await new Promise((resolve) => setTimeout(resolve, 50))   // toggle events fill the folders
        }
    }""")
    hrefs = page.eval_on_selector_all("#bf-explorer a", "as => as.map((a) => a.getAttribute('href'))")
    assert len(hrefs) == len(load(EXAMPLE).notes) == len(set(hrefs))
    for href in hrefs[:5]:
        assert page.request.get(href).status == 200


def test_contents_sit_beside_the_text_and_mark_the_section_read(page, example_site, serve_site):
    opened(page, serve_site(example_site, "/") + NOTE)
    toc = page.locator("nav.toc")
    article = page.locator("article.note").bounding_box()
    assert toc.bounding_box()["x"] >= article["x"] + article["width"]     # beside, at 1280 px
    page.locator("#decision").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('decision').scrollIntoView({block: 'start'})")
    page.wait_for_function("document.querySelector('nav.toc a[aria-current=location]')?.hash === '#decision'")
    page.evaluate("window.scrollTo(0, document.getElementById('decision').offsetTop + 60)")  # inside it, its heading gone
    page.wait_for_function("document.querySelector('nav.toc a[aria-current=location]')?.hash === '#decision'")
    assert toc.bounding_box()["y"] >= 0                                  # sticky: still in view
    # each listed heading links to itself (added by contents.js: the page's HTML holds no "§")
    assert "§" not in (example_site / NOTE).read_text(encoding="utf-8")
    anchors = page.eval_on_selector_all("article.note h2 > a.anchor:first-child", "as => as.map((a) => [a.getAttribute('href'), a.parentElement.id])")
    assert len(anchors) >= 3 and all(href == "#" + heading for href, heading in anchors)


def test_on_a_phone_contents_follow_the_text(page, example_site, serve_site):
    page.set_viewport_size({"width": 375, "height": 800})
    opened(page, serve_site(example_site, "/") + NOTE)
    article = page.locator("article.note").bounding_box()
    assert page.locator("nav.toc").bounding_box()["y"] >= article["y"] + article["height"]
