"""The site in a browser: navigation, the "/" key, phone width, dark mode, the search page
(both modes) and screenshots of the main page kinds into tests/artifacts/ (docs/site.md#pages)."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from crawl import screenshot

NOW = "2026-12-02T12:00:00Z"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from builder.build import build
    out = tmp_path_factory.mktemp("site") / "site"
    build([EXAMPLE], out, now=NOW, pagefind=True)
    return out


@pytest.fixture
def base(site, serve_site):
    return serve_site(site, "/")


def test_header_links_and_breadcrumbs(page, base):
    page.goto(base + "brain/projects/new-website.html")
    nav = page.locator("header.top nav a")
    assert nav.all_inner_texts() == ["Home", "Search", "Memories", "Graph"]
    crumbs = page.locator("nav.crumbs a").all_inner_texts()
    assert crumbs[:2] == ["home", "projects"]
    page.locator("nav.crumbs a", has_text="projects").click()
    assert page.url.endswith("brain/projects.html")
    page.locator("header.top nav a", has_text="Memories").click()
    assert page.url.endswith("brain/memories.html")
    page.locator("header.top nav a", has_text="Home").click()
    assert page.url.endswith("brain/home.html")


def test_slash_focuses_the_search_box(page, base):
    page.goto(base + "brain/projects/new-website.html")
    page.wait_for_function("window.bf !== undefined")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.name") == "q"
    page.keyboard.type("pricing")
    assert page.evaluate("document.activeElement.value") == "pricing"   # "/" was not typed


def test_readable_on_a_phone_and_in_dark_mode(chromium, site, serve_site):
    base = serve_site(site, "/")
    for scheme in ("light", "dark"):
        context = chromium.new_context(viewport={"width": 375, "height": 740}, color_scheme=scheme)
        page = context.new_page()
        page.goto(base + "brain/projects/new-website.html")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"horizontal scroll at 375 px ({width} px)"
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(21, 23, 26)") == (scheme == "dark"), background
        screenshot(page, f"note-375px-{scheme}", full_page=False)
        context.close()


def test_screenshots_of_the_main_pages(page, base):
    for name, path in [("home", "index.html"), ("note", "brain/projects/new-website.html"),
                       ("period", "brain/2026-W49.html"), ("day", "brain/memories/chat/2026-10-25.html")]:
        page.goto(base + path)
        assert page.locator("main h1").count() >= 1
        screenshot(page, name)


# A result of the reply: the page shows the lexical ranking's first items while the list is aria-busy.
FINAL = "#scoped-results:not([aria-busy]) li"


def test_scoped_search_renders_results_as_text(page, base):
    page.goto(base + "search.html?mode=scoped&q=pricing+page&scope=memories")
    page.wait_for_selector(FINAL)
    status = page.locator("#scoped-status").inner_text()
    n = page.locator("#scoped-results li").count()
    assert status.startswith(f"{n} result") and "in memories" in status
    assert page.locator("#scoped-results mark").count() > 0
    assert page.locator("#scoped-results .badge").first.inner_text().startswith("record")
    # a record is found where it is shown: an anchor on its source's day page
    hrefs = page.eval_on_selector_all("#scoped-results li.kind-record > a", "els => els.map(a => a.href)")
    assert hrefs and all(re.search(r"/brain/memories/[a-z]+/(\d{4}-\d{2}-\d{2}|undated)\.html#[a-z]+~3a", h) for h in hrefs), hrefs
    screenshot(page, "search-results")
    page.locator("#scoped-results li.kind-record > a").first.click()
    page.wait_for_url(hrefs[0])
    assert page.locator(f'h2[id="{hrefs[0].partition("#")[2]}"]').count() == 1
    page.go_back()
    page.wait_for_selector(FINAL)
    page.fill("#scoped-q", "zzzqqq")
    page.fill("#scoped-scope", "memories/brief")
    page.click("#scoped-form button")
    page.wait_for_function("document.querySelector('#scoped-status').textContent.startsWith('No items')")
    assert "memories/brief" in page.locator("#scoped-status").inner_text()
    assert page.locator("#scoped-sources li").count() >= 1
    page.fill("#scoped-scope", "memories/breif")
    page.click("#scoped-form button")
    page.wait_for_function("document.querySelector('#scoped-status').classList.contains('error')")
    assert "did you mean memories/brief?" in page.locator("#scoped-status").inner_text()


def test_scoped_search_shows_the_ranking_first_and_keeps_a_list_under_the_pointer(page, base):
    """Titles, links and kinds show while the excerpts' files load (the list aria-busy, the status
    saying how many); a list the pointer is on keeps its order when the reply comes, and gets its excerpts."""
    held, hold = [], [True]
    page.route("**/_bf/search/brain/notes/*.json.gz", lambda route: held.append(route) if hold[0] else route.continue_())
    page.goto(base + "search.html?mode=scoped&q=launch+checklist")
    page.locator("#scoped-results[aria-busy=true] li").first.wait_for()
    early = page.eval_on_selector_all("#scoped-results li", "els => els.map(li => li.dataset.uri)")
    assert page.locator("#scoped-results .excerpt:not(.pending)").count() == 0
    assert page.locator("#scoped-status").inner_text().startswith(f"The first {len(early)} result")
    page.hover("#scoped-results li:nth-child(2) > a")
    hold[0] = False
    for route in held:
        route.continue_()
    page.wait_for_selector(FINAL)
    shown = page.eval_on_selector_all("#scoped-results li", "els => els.map(li => li.dataset.uri)")
    assert shown[:len(early)] == early
    assert page.locator("#scoped-results .excerpt:not(.pending)").count() > 0
    assert page.locator("#scoped-status").inner_text().startswith("10 results")


def test_a_file_that_does_not_load_is_named_and_the_ranking_stays(page, base):
    """A text file that fails on the way (a route aborts it, as a dropped connection would): the
    status says which file, as an error, and the ranking's first items stay, links that work;
    asked again, the search finishes."""
    held, hold = [], [True]
    page.route("**/_bf/search/brain/notes/*.json.gz", lambda route: held.append(route) if hold[0] else route.abort())
    page.goto(base + "search.html?mode=scoped&q=launch+checklist")
    page.locator("#scoped-results[aria-busy=true] li").first.wait_for()
    early = page.eval_on_selector_all("#scoped-results li > a", "els => els.map(a => a.href)")
    hold[0] = False
    for route in held:
        route.abort()
    page.wait_for_function("document.querySelector('#scoped-status').classList.contains('error')")
    status = page.locator("#scoped-status").inner_text()
    assert re.search(r"_bf/search/brain/notes/\d+\.json\.gz did not load", status), status
    assert "the results shown are the ranking's first" in status
    assert page.locator("#scoped-results[aria-busy]").count() == 0
    assert page.eval_on_selector_all("#scoped-results li > a", "els => els.map(a => a.href)") == early
    page.goto(early[0])
    assert page.locator("main h1").count() == 1
    page.go_back()
    page.unroute("**/_bf/search/brain/notes/*.json.gz")
    page.click("#scoped-form button")
    page.wait_for_selector(FINAL)
    assert page.locator("#scoped-status").inner_text().startswith("10 results")


def test_a_host_that_ignores_range_requests_gives_the_same_reply(page, base, site, serve_site):
    """An item's text is a gzip member its file's other bytes need not come with, and a
    candidate's vector a row of its group's rows (Range requests); a host that ignores Range
    sends the whole file, and the reply is the same."""
    query = "pricing page launch"
    page.goto(base + "search.html")
    page.wait_for_function("window.bf !== undefined")
    ranged = page.evaluate("async (q) => (await bf.search(q)).items", query)
    parts = [path for _, path, code in serve_site.servers[-1].requests if code == 206]
    assert any("/notes/" in p for p in parts) and any("/x/" in p for p in parts)
    assert any(p.endswith("/vectors/0/rows.bin") for p in parts)
    whole = []

    def ignore_range(route):
        whole.append(route.request.url)
        route.fulfill(status=200, body=(site / unquote(route.request.url.partition(base)[2])).read_bytes(),
                      headers={"Content-Type": "application/gzip"})
    for pattern in ("**/_bf/search/brain/notes/*.json.gz", "**/_bf/search/brain/records/*/x/*.json.gz",
                    "**/_bf/search/brain/vectors/*/rows.bin"):
        page.route(pattern, ignore_range)
    page.reload()
    page.wait_for_function("window.bf !== undefined")
    assert page.evaluate("async (q) => (await bf.search(q)).items", query) == ranged
    assert whole and any(it["excerpt"] for it in ranged) and any(it["similarity"] is not None for it in ranged)
    assert any(url.endswith("/rows.bin") for url in whole)
    assert {it["kind"] for it in ranged} >= {"note", "record"}


def test_scoped_search_links_each_note_at_its_page(page, base, site):
    """bf.js finds a result's page as the build placed it: the page it links names that ref."""
    page.goto(base + "search.html?mode=scoped&q=launch+checklist")
    page.wait_for_selector(FINAL + ".kind-note")
    found = page.evaluate("""async () => (await bf.search('launch checklist')).items
        .filter((it) => it.kind === 'note').map((it) => it.ref)""")
    hrefs = page.eval_on_selector_all("#scoped-results li.kind-note > a", "els => els.map(a => a.pathname)")
    shown = [re.search(r'<meta name="bf-ref" content="([^"]*)">', (site / unquote(h).lstrip("/"))
                       .read_text("utf-8"))[1] for h in hrefs]
    assert shown == found[:len(shown)] and "actions/launch-checklist.md" in shown


def test_full_text_search_uses_pagefind(page, base):
    page.goto(base + "search.html?q=pricing")
    page.wait_for_selector(".pagefind-ui__result", timeout=15_000)
    assert page.locator(".pagefind-ui__result").count() > 0
    assert page.locator(".pagefind-ui__filter-name, .pagefind-ui__filter-panel").count() >= 1
    # records come from their day pages; no listing, period, tag or home page is a result
    links = page.eval_on_selector_all(".pagefind-ui__result-link", "els => els.map(a => a.href)")
    assert links and not [u for u in links if re.search(r"/brain/(\d{4}[-\dW]*|home|memories|tags/.*|memories/[a-z]+)\.html", u)], links
    screenshot(page, "search-fulltext")


def test_the_search_page_asks_only_for_the_shown_tabs_files(page, base):
    """Full text: pagefind's UI files hinted at once, at low priority, and the scoped search's
    modules not until the reader heads for its tab; the scoped mode: its modules and first
    files (templates/search.html), not pagefind's."""
    fetched = []
    page.on("request", lambda r: fetched.append(r.url))
    hints = "rel => [...document.querySelectorAll(`link[rel=${rel}]`)].map(l => l.getAttribute('href'))"
    page.goto(base + "search.html?q=pricing")
    page.wait_for_selector(".pagefind-ui__result", timeout=15_000)
    assert sorted(page.evaluate(hints, "preload")) == ["pagefind/bundles.json", "pagefind/pagefind-ui.css",
                                                       "pagefind/pagefind-ui.js"]
    assert page.evaluate("[...document.querySelectorAll('link[rel=preload]')].every(l => l.fetchPriority === 'low')")
    assert page.evaluate(hints, "modulepreload") == []
    assert not [u for u in fetched if u.endswith("/engine/search.js")]
    page.hover("#tab-scoped")
    assert "_bf/engine/search.js" in page.evaluate(hints, "modulepreload")
    fetched.clear()
    page.goto(base + "search.html?mode=scoped&q=pricing")
    page.wait_for_selector("#scoped-results li")
    assert "_bf/engine/search.js" in page.evaluate(hints, "modulepreload")
    first = page.evaluate(hints, "preload")   # the scoped search's first files, asked with the page
    assert "_bf/manifest.json" in first and not [h for h in first if h.startswith("pagefind/")]
    assert not [u for u in fetched if "pagefind-ui" in u]


def test_full_text_result_cards_read_as_text(page, base):
    """Cards show a day as people write it, no thumbnail column (pages carry no images) and no
    'Excerpt:' tag repeating the excerpt."""
    page.goto(base + "search.html?q=pricing")
    page.wait_for_selector(".pagefind-ui__result-tag")
    # every card has loaded its data once none is a loading placeholder
    page.wait_for_function("!document.querySelector('.pagefind-ui__result .pagefind-ui__loading')")
    text = "\n".join(page.locator(".pagefind-ui__result").all_inner_texts())
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", text), text       # no raw instant
    tags = page.locator(".pagefind-ui__result-tag").all_inner_texts()
    assert tags and all(re.fullmatch(r"(Date|Modified): \d{1,2} [A-Z][a-z]{2} \d{4}", t.strip()) for t in tags), tags
    assert page.locator(".pagefind-ui__result-thumb, .pagefind-ui__result-image").count() == 0
    screenshot(page, "search-result-cards")


def test_search_page_asks_before_downloading_many_vectors(page, base):
    """The vector arm first reads every group's centres: where those pass 1 MB as
    stored (here: the vectors meta made to claim 2.5 MB) the page searches by words and offers the
    semantic arm by name and size; choosing it runs hybrid search for real."""
    def big(route):
        meta = route.fetch().json()
        meta["fixed"] = 2_500_000
        route.fulfill(json=meta)
    page.route("**/_bf/search/brain/vectors/meta.json", big)
    page.goto(base + "search.html?mode=scoped&q=how+do+we+charge+customers")
    button = page.locator("#scoped-status button.meaning")
    button.wait_for()
    assert button.inner_text() == "Also search by meaning (downloads 2.5 MB once)"
    lexical = page.evaluate("async () => (await window.bf.search('how do we charge customers', {mode: 'lexical'})).items.map(i => i.ref)")
    shown = page.eval_on_selector_all("#scoped-results li > a", "els => els.map(a => a.textContent)")
    assert len(shown) == len(lexical)
    button.click()
    page.wait_for_url("**arm=hybrid**")
    page.unroute("**/_bf/search/brain/vectors/meta.json")
    page.reload()                     # the engine's cached meta was the made-up one
    page.wait_for_selector(FINAL)
    assert page.locator("#scoped-status button.meaning").count() == 0
    hybrid = page.evaluate("async () => (await window.bf.search('how do we charge customers')).arms")
    assert hybrid == ["lexical", "vector"]
    assert "Pricing" in " ".join(page.eval_on_selector_all("#scoped-results li > a", "els => els.map(a => a.textContent)"))


def test_on_a_phone_search_results_come_before_the_filters(page, base):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + "search.html?q=pricing")
    page.wait_for_selector(".pagefind-ui__result", timeout=15_000)
    first = page.locator(".pagefind-ui__result").first.bounding_box()["y"]
    assert first < page.locator(".pagefind-ui__filter-panel").bounding_box()["y"]
    assert first < 844                     # the first result is in the first screen
