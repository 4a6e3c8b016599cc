"""In Chromium, neither bf's engine nor pagefind's UI finds a note the owner kept private
(docs/brain.md#publishing), while both find the public one."""
from __future__ import annotations

import pytest

from test_publishing import NOW, brain_files, write_brain

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from builder.build import build
    tmp = tmp_path_factory.mktemp("private-browser")
    build([write_brain(tmp / "brain", brain_files())], tmp / "site", now=NOW, pagefind=True)
    return tmp / "site"


def test_bf_engine_and_pagefind_find_no_private_note(page, site, serve_site):
    base = serve_site(site, "/")
    page.goto(base + "search.html")
    page.wait_for_function("window.bf !== undefined")
    refs = page.evaluate("""async () => {
        const out = {};
        for (const q of ['frobnitz', 'salary', 'quuxtitle', 'snorklewick', 'hushsource', 'tomatoes'])
            out[q] = (await bf.search(q)).items.map((it) => it.ref);
        return out;
    }""")
    assert "public.md" in refs.pop("tomatoes") and all(v == [] for v in refs.values()), refs
    for query in ("frobnitz", "quuxtitle"):
        page.goto(base + f"search.html?q={query}")
        page.wait_for_function("(q) => (document.querySelector('.pagefind-ui__message') || {}).textContent"
                               "?.startsWith('No results for ' + q)", arg=query)   # pagefind's own words
        assert page.locator(".pagefind-ui__result").count() == 0
    page.goto(base + "search.html?q=tomatoes")
    page.wait_for_selector(".pagefind-ui__result-link")
    assert "/brain/public.html" in page.eval_on_selector_all(".pagefind-ui__result-link", "els => els.map(a => a.pathname)")
