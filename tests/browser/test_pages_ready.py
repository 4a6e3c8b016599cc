"""GitHub Pages readiness (docs/site.md#publish-on-github-pages): a build with --base-url /my-repo/ served under /my-repo/,
and a default build served at /, crawled page by page in Chromium with zero broken links,
scripts, styles, JSON or images, no console errors and no other origin, every "Show more" and
"JSON reply" pressed; .nojekyll is written and 404.html works under the prefix."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from crawl import crawl

pytestmark = pytest.mark.browser

NOW = "2026-12-02T12:00:00Z"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"


def escaped_pages(report) -> list[str]:
    """Visited page paths holding a "~" escape (docs/site.md: readable page paths)."""
    paths = [unquote(urlsplit(url).path) for url in report["visited"]]
    return [p for p in paths if "~" in p and "/_bf/" not in p and "/pagefind/" not in p]


def built(tmp_path_factory, base_url):
    from builder.build import build
    out = tmp_path_factory.mktemp("pages") / "site"
    build([EXAMPLE], out, now=NOW, base_url=base_url, pagefind=True)
    return out


@pytest.fixture(scope="module")
def project_site(tmp_path_factory):
    return built(tmp_path_factory, "/my-repo/")


@pytest.fixture(scope="module")
def root_site(tmp_path_factory):
    return built(tmp_path_factory, None)


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
@pytest.mark.parametrize("which, prefix", [("project_site", "/my-repo/"), ("root_site", "/")])
def test_every_page_crawls_clean(which, prefix, request, serve_site, page):
    site = request.getfixturevalue(which)
    base = serve_site(site, prefix)
    report = crawl(page, base, prefix, settle_ms=2_000, expand=True)
    # Every page of the site is reachable by links from the home page (404.html excepted).
    pages = [p for p in Path(site).rglob("*.html") if p.name != "404.html"]
    assert report["pages"] == len(pages), sorted(set(map(str, pages)) - set(report["visited"]))[:10]
    assert report["broken"] == []
    assert report["console_errors"] == []
    assert report["external"] == []
    assert escaped_pages(report) == []
    # Every "Show more" and "JSON reply" button was pressed and answered (site/page.js, bf.read).
    assert report["expand_errors"] == []
    offers = sum(p.read_text(encoding="utf-8").count("data-bf-json=") for p in pages)
    assert report["expanded"] > offers > 50
