"""GitHub Pages readiness (docs/site.md#publish-on-github-pages): a build with --base-url /my-repo/ served under /my-repo/
(and, in test_pages_ready_root.py, a default build served at /), crawled page by page in Chromium with zero broken links,
scripts, styles, JSON or images, no console errors and no other origin, every "Show more" and
"JSON reply" pressed; .nojekyll is written and 404.html works under the prefix."""
from __future__ import annotations

import pytest

from pages_ready import built, crawls_clean

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def project_site(tmp_path_factory):
    return built(tmp_path_factory, "/my-repo/")


def test_nojekyll_and_site_pages_exist(project_site):
    assert (project_site / ".nojekyll").is_file()
    for name in ("index.html", "search.html", "404.html", "_bf/bf.js", "_bf/bf.css", "pagefind/pagefind-ui.js"):
        assert (project_site / name).is_file(), name


def test_404_works_under_the_prefix(project_site, serve_site, page):
    base = serve_site(project_site, "/my-repo/")
    failed = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 and not r.url.endswith("/nope/deep/page.html") else None)
    response = page.goto(base + "nope/deep/page.html")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Not found"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"  # bf.css loaded
    page.wait_for_function("window.bf !== undefined")                                             # bf.js loaded
    hrefs = page.eval_on_selector_all("main a", "els => els.map(e => e.getAttribute('href'))")
    assert hrefs and all(h.startswith("/my-repo/") for h in hrefs), hrefs
    page.locator("main a", has_text="Go home").click()
    assert page.url == base + "brain/home.html"
    assert failed == []


@pytest.mark.slow
def test_every_page_crawls_clean_under_the_prefix(project_site, serve_site, page):
    crawls_clean(project_site, "/my-repo/", serve_site, page)
