"""What tests/browser/test_pages_ready*.py share: the example built for a base URL, and one whole
crawl of it (docs/site.md#publish-on-github-pages). The project build (under /my-repo/) and the
default one (at /) are crawled from two files, so the suite's two workers take one each."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from crawl import crawl

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


def crawls_clean(site: Path, prefix: str, serve_site, page) -> None:
    """Every page of `site`, served under `prefix`, crawled in Chromium with zero broken links,
    scripts, styles, JSON or images, no console errors and no other origin, every "Show more" and
    "JSON reply" pressed."""
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
