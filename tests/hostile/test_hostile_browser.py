"""Headless Chromium over the hostile site: no script of the brain's ever runs (docs/brain.md#braintoml, `allow_html`).

Every HTML page of the site is opened; after load, `window.__pwned` (what every payload sets) is
unset, no dialog fired, and the DOM holds no event-handler attribute, no javascript:/data:/vbscript:
URL, no frame or plugin element, and no script but the site's own.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import pytest

from builder.kernel import refs

pytestmark = pytest.mark.browser

TRAP = """
window.__dialogs = [];
for (const k of ['alert', 'confirm', 'prompt', 'print']) {
  window[k] = (...a) => { window.__dialogs.push(k); window.__pwned = 'dialog:' + k };
}
"""

AUDIT = r"""() => {
  const bad = [];
  const urlAttrs = ['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'poster', 'background', 'cite', 'content'];
  for (const el of document.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (['iframe', 'frame', 'object', 'embed', 'base', 'applet'].includes(tag)) bad.push('element ' + tag);
    if (tag === 'meta' && (el.getAttribute('http-equiv') || '').toLowerCase() === 'refresh') bad.push('meta refresh');
    if (tag === 'style' && el.closest('body')) bad.push('style element in body');
    for (const a of el.attributes) {
      const name = a.name.toLowerCase();
      const value = a.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
      if (name.startsWith('on')) bad.push(tag + ' ' + name);
      if (name === 'srcdoc') bad.push(tag + ' srcdoc');
      const pagefindForm = tag === 'form' && value === 'javascript:void(0);' && el.closest('.pagefind-ui');   // pagefind's own
      // Open Graph's text properties hold a page's title and description, and bf-ref the page's ref: never a URL (og:url stays checked)
      const ogText = tag === 'meta' && (/^og:(title|description|site_name|type)$/.test(el.getAttribute('property') || '') ||
        el.getAttribute('name') === 'bf-ref');
      if (urlAttrs.includes(name) && /^(javascript|vbscript|data):/.test(value) && !pagefindForm && !ogText) bad.push(tag + ' ' + name + '=' + a.value.slice(0, 40));
    }
  }
  for (const s of document.scripts) {
    const own = s.src && /\/(_bf|pagefind)\//.test(new URL(s.src).pathname);   // the site's runtime
    const data = s.type === 'application/json';
    if (!own && !data) bad.push('script ' + (s.src || s.textContent.slice(0, 40)));
    if (data) { try { JSON.parse(s.textContent) } catch (e) { bad.push('torn JSON script') } }
  }
  return {bad, pwned: window.__pwned === undefined ? null : String(window.__pwned), dialogs: window.__dialogs};
}"""


def _pages(site: Path) -> list[str]:
    """Every HTML page but the folder pages deep in the 60-level chain (d4/… hold no hostile
    text, only folder names; visiting 56 of them would double the test's time)."""
    return sorted(rel for rel in (p.relative_to(site).as_posix() for p in site.rglob("*.html"))
                  if not rel.startswith("brain/d0/d1/d2/d3/d4") or rel.endswith("deep.html"))


SHOWN = re.compile(r'<article class="record"><h2 [^>]*\bid="([^"]+)">')


def _audit(page, url: str) -> dict:
    page.goto(url, wait_until="load")
    return page.evaluate(AUDIT)


def test_no_brain_script_runs_on_any_page(hostile, page, serve_site):
    site = hostile["site"]
    base = serve_site(site)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.add_init_script(TRAP)
    pages = _pages(site)
    assert len(pages) >= len(hostile["expected"]["notes"])
    # Records have no page of their own: each is shown once, on its day (or undated) page.
    shown = Counter(a for rel in pages for a in SHOWN.findall((site / rel).read_text(encoding="utf-8")))
    assert {r: shown[refs.record_anchor(r)] for r in hostile["expected"]["records"]} == \
        {r: 1 for r in hostile["expected"]["records"]}
    failures = {}
    for rel in pages:
        result = _audit(page, base + quote(rel))
        if result["bad"] or result["pwned"] or result["dialogs"]:
            failures[rel] = result
    assert failures == {}, json.dumps(failures, indent=1)[:4000]
    assert dialogs == []


def test_json_reply_of_hostile_pages_is_shown_as_text(hostile, page, serve_site):
    """The "JSON reply" button of every page showing hostile records puts their text on the page
    as text (site/page.js renders replies with text nodes)."""
    site = hostile["site"]
    base = serve_site(site)
    page.add_init_script(TRAP)
    days = [rel for rel in _pages(site) if "/memories/" in rel]
    assert days
    for rel in days:
        page.goto(base + quote(rel), wait_until="load")
        page.locator("button[data-bf-json]").click()
        page.wait_for_selector("#bf-json-reply pre")
        result = page.evaluate(AUDIT)
        assert result["bad"] == [] and result["pwned"] is None and result["dialogs"] == [], (rel, result)
        shown = json.loads(page.locator("#bf-json-reply pre").inner_text())
        assert shown["uri"] == page.locator("button[data-bf-json]").get_attribute("data-bf-json")


@pytest.fixture(scope="module")
def hostile_pagefind(hostile, tmp_path_factory) -> Path:
    """The hostile brain built with pagefind, for the full-text search tab."""
    from builder.build import build
    out = tmp_path_factory.mktemp("hostile-pf") / "site"
    build([hostile["brain"]], out, now="2026-12-02T12:00:00Z", pagefind=True)
    return out


QUERIES = ["pwned script", "onerror", "Payload", "iframe javascript", "evil", "ontoggle details"]


@pytest.mark.parametrize("mode", ["fulltext", "scoped"])
def test_search_page_shows_hostile_excerpts_as_text(hostile_pagefind, page, serve_site, mode):
    site = hostile_pagefind
    assert (site / "search.html").is_file(), "the build wrote no search.html"
    base = serve_site(site)
    page.add_init_script(TRAP)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    results = ".pagefind-ui__result" if mode == "fulltext" else "#scoped-results:not([aria-busy]) li"
    shown_any = 0
    for query in QUERIES:
        extra = "&mode=scoped" if mode == "scoped" else ""
        _audit(page, base + "search.html?q=" + quote(query) + extra)
        try:
            page.wait_for_selector(results, timeout=5_000)
        except Exception:     # no hit for this query: the page must still be clean
            pass
        page.wait_for_timeout(100)    # let every result (and any injected handler) render
        result = page.evaluate(AUDIT)
        assert result["bad"] == [] and result["pwned"] is None and result["dialogs"] == [], (query, result)
        text = " ".join(page.locator(results).all_inner_texts())
        shown_any += any(marker in text for marker in ("<script", "onerror", "<iframe", "ontoggle", "<img"))
    assert shown_any, "no hostile excerpt was shown as text"
    if mode == "fulltext":
        # Filter labels (tags, types, folders, sources from the brain) read as the text they are.
        labels = page.evaluate("() => [...document.querySelectorAll('.pagefind-ui__filter-label')].map(e => e.textContent)")
        assert any("<script>window.__pwned=1</script>" in label for label in labels), labels
    assert dialogs == []
