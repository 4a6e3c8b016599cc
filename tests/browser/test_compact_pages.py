"""Pages of a site that writes files per item (docs/site.md#pages), in Chromium under a sub-path: "Show more"
loads a listing's next page with bf.read and renders it like the static items, the "JSON reply"
button shows the page's reply, 404.html sends old record, offset and relation URLs to their new
place, and bf.js places records on the same day pages as the build."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from builder.brain import load
from builder.emit.html import ref_url
from builder.emit.listing_pages import _item_fragment
from builder.emit.urls import record_page_ref, relative
from builder.kernel.pageurls import page_file

pytestmark = pytest.mark.browser

NOW = "2026-12-02T12:00:00Z"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"
PREFIX = "/my-repo/"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from builder.build import build
    out = tmp_path_factory.mktemp("compact") / "site"
    build([EXAMPLE], out, now=NOW, base_url=PREFIX, pagefind=False)
    return out


@pytest.fixture(scope="module")
def brain():
    return load(EXAMPLE)


@pytest.fixture
def base(site, serve_site):
    return serve_site(site, PREFIX)


def python_read(site, ref, **options):
    from builder.query.read import read
    from builder.query.site import open_site
    return read(open_site(site), ref, **options)


SAME_ITEMS = """async ([start, expected]) => {
  const items = [...document.querySelectorAll('[data-bf-list] ul.items > li')].slice(start)
  const t = document.createElement('template')
  t.innerHTML = expected.join('')
  const { relativize } = await import(bf.root + '_bf/dates.js') // what bf.js adds to the static items
  relativize(t.content)
  const want = [...t.content.children]
  // the link focused after loading may be showing its preview (preview.js): that is no part of the item
  const absolute = (li) => { const a = li.querySelector('a'); a.setAttribute('href', new URL(a.getAttribute('href'), location.href).href); a.removeAttribute('aria-describedby'); li.normalize(); return li }
  return items.length === want.length && items.every((li, i) => absolute(li.cloneNode(true)).isEqualNode(absolute(want[i])))
}"""


def test_show_more_appends_the_next_page_like_the_static_items(page, base, site, brain):
    page.goto(base + "brain/2026.html")
    button = page.locator("[data-bf-more]")
    button.wait_for(state="visible")
    assert page.locator("[data-bf-list] ul.items > li").count() == 50
    second = python_read(site, "2026", offset=50)
    assert second["offset"] == 50 and second["next_offset"] is None and len(second["items"]) == 6
    button.focus()                           # keyboard: the button is reachable and Enter loads
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('[data-bf-list] ul.items > li').length === 56")
    assert page.locator("[data-bf-more]").count() == 0          # nothing left to load
    target = page_file("brain", "2026")
    expected = [parts[0] + relative(target, ref_url(brain, it["ref"])) + parts[1]
                for it in second["items"] for parts in [_item_fragment(it, brain.config.timezone)]]
    assert page.evaluate(SAME_ITEMS, [50, expected])
    # focus moves to the first new item, so a keyboard reader carries on from there
    assert page.evaluate("document.activeElement.textContent") == second["items"][0]["title"]
    # every new link reaches a page, a record's link its anchor there
    for href in page.eval_on_selector_all("[data-bf-list] ul.items > li a", "els => els.slice(50).map(a => a.href)"):
        assert href.startswith(base)
        page_url, _, anchor = href.partition("#")
        assert page.request.get(page_url).status == 200
        if anchor:
            assert f'id="{anchor}"' in page.request.get(page_url).text()


LONG = {"brain.toml": 'name = "long"\ntimezone = "UTC"\n[sources.chat]\ntitle = "Chat"\n[identities]\n"person:zed" = ["Zed"]\n',
        **{f"memories/chat/m{i:03d}.json": json.dumps({"text": f"Message {i} about the launch.", "author": "person:zed",
                                                       "time": f"2026-11-{1 + i % 3:02d}T{i % 24:02d}:{i % 60:02d}:00Z"})
           for i in range(120)}}


def test_show_more_reads_a_relation_list_and_a_day_page_holds_every_record(page, tmp_path, serve_site):
    """120 records by one author: the identity's own list shows the first 50; its `author` list,
    whose items are all among them, shows none until asked, then loads through bf.read(ref, {rel}),
    50 at a time; each day page shows all of its 40 records, uncapped."""
    from builder.build import build
    root = tmp_path / "long"
    for rel, text in LONG.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    build([root], out, now=NOW, pagefind=False)
    day = (out / "long/memories/chat/2026-11-01.html").read_text(encoding="utf-8")
    assert day.count('<article class="record"') == 40
    base = serve_site(out, PREFIX)
    page.goto(base + "long/person/zed.html")
    more = page.locator('section.relation [data-bf-more][data-rel="author"]')
    more.wait_for(state="visible")
    items = 'section.relation ul.items > li'
    assert page.locator(items).count() == 0
    assert page.locator('section.listing > .list ul.items > li').count() == 50
    for total in (50, 100, 120):
        more.click()
        page.wait_for_function(f"document.querySelectorAll('{items}').length === {total}")
    assert more.count() == 0
    want = [it["title"] for offset in (0, 50, 100) for it in python_read(out, "person:zed", rel="author", offset=offset)["items"]]
    assert page.locator(items + " > a").all_inner_texts() == want


def test_json_button_shows_the_reply(page, base, site):
    page.goto(base + "brain/memories/chat/2026-10-25.html")
    button = page.locator("button[data-bf-json]")
    button.wait_for(state="visible")
    assert button.get_attribute("aria-expanded") == "false"
    button.click()
    page.wait_for_selector("#bf-json-reply pre")
    shown = json.loads(page.locator("#bf-json-reply pre").inner_text())
    assert shown == page.evaluate("window.bf.read('bf://brain/memories/chat/2026-10-25')")
    assert shown["ref"] == "memories/chat/2026-10-25" and len(shown["items"]) == 3
    assert button.get_attribute("aria-expanded") == "true"
    download = page.locator("#bf-json-reply a[download]")
    assert download.get_attribute("href").startswith("blob:")
    button.click()                                             # and hides it again
    assert page.locator("#bf-json-reply").count() == 0


@pytest.mark.parametrize("old, new", [
    ("brain/chat~3a2026-10-25-staging-0230-cet.html", "brain/memories/chat/2026-10-25.html#chat~3a2026-10-25-staging-0230-cet"),
    ("brain/chat~3awho-owns-the-domain~3f.html", None),           # placed by the record's read, as the build does
    ("brain/chat~3aorphan-snippet.html", "brain/memories/chat/undated.html#chat~3aorphan-snippet"),
    ("brain/2026~~o50.html", "brain/2026.html"),
    ("brain/person~3abob~~r~~author.html", "brain/person/bob.html#rel~author"),
    ("brain/person~3abob~~r~~author~~o50.html", "brain/person/bob.html#rel~author"),
])
def test_404_sends_old_urls_to_their_new_place(page, base, brain, old, new):
    if new is None:
        rec = brain.records["chat:who-owns-the-domain?"]
        new = page_file("brain", record_page_ref(rec, brain.config.timezone)) + "#chat~3awho-owns-the-domain~3f"
    response = page.goto(base + old)
    assert response.status == 404
    page.wait_for_url(base + new)
    anchor = new.partition("#")[2]
    if anchor:
        assert page.locator(f'[id="{anchor}"]').count() == 1


def test_404_leaves_a_missing_page_alone(page, base):
    page.goto(base + "brain/chat~3ano-such-record.html")
    page.wait_for_function("window.bf !== undefined")
    page.wait_for_timeout(500)
    assert page.url == base + "brain/chat~3ano-such-record.html"
    assert page.locator("h1").inner_text() == "Not found"


def test_bf_js_places_records_like_the_build(page, base, brain):
    """site/links.js recordPath equals emit/urls.py for every record of the example brain (the
    night the clocks go back included)."""
    page.goto(base + "brain/home.html")
    page.wait_for_function("window.bf !== undefined")
    records = [[ref, rec.source, (rec.time or rec.observed).isoformat() if rec.placed else None]
               for ref, rec in brain.records.items()]
    got = page.evaluate("""async (records) => {
      const links = await import(window.bf.root + '_bf/links.js')
      return records.map(([ref, source, placed]) => links.recordPath(null, 'brain', ref, source, placed, 'Europe/Berlin'))
    }""", records)
    assert got == [ref_url(brain, ref) for ref, _, _ in records]
