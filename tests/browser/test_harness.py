"""Self-test of the browser harness: server under a prefix, crawler, screenshots."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from crawl import crawl, screenshot
from httpserver import StaticServer

pytestmark = pytest.mark.browser

PREFIX = "/my-repo/"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="stylesheet" href="{up}style.css"><script src="{up}app.js" defer></script></head>
<body><h1>{title}</h1>
<nav><a href="{up}index.html">Home</a> <a href="{up}notes/a.html#top">A</a> <a href="{up}notes/b.html">B</a>
<a href="https://example.org/elsewhere">elsewhere</a> <a href="mailto:x@example.org">mail</a></nav>
{extra}
</body></html>
"""


def write_tree(root: Path, *, bad: bool = False) -> Path:
    (root / "notes").mkdir(parents=True)
    (root / "style.css").write_text("body { font-family: sans-serif; }\n")
    (root / "app.js").write_text("document.documentElement.dataset.ready = 'yes';\n")
    (root / "index.html").write_text(PAGE.format(title="Home", up="", extra=""))
    (root / "notes" / "a.html").write_text(PAGE.format(title="A", up="../", extra=""))
    extra = '<img src="../missing.png" alt="gone">' if bad else ""
    (root / "notes" / "b.html").write_text(PAGE.format(title="B", up="../", extra=extra))
    return root


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code


def test_server_serves_only_under_the_prefix(tmp_path):
    root = write_tree(tmp_path / "site")
    with StaticServer(root, PREFIX) as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith(PREFIX)
        assert get(server.url("notes/a.html")) == 200
        assert get(server.url()) == 200  # index.html
        assert get(server.origin + "/notes/a.html") == 404
        assert get(server.origin + "/my-repo") == 200  # redirected to /my-repo/
        assert get(server.url("nope.html")) == 404
        assert ("GET", "/my-repo", 301) in server.requests
        with urllib.request.urlopen(server.url("notes/a.html")) as resp:   # bf serve's handler, without
            assert resp.read() == (root / "notes" / "a.html").read_bytes()  # its live-preview script
    with StaticServer(root) as server:  # at the root too
        assert get(server.origin + "/notes/a.html") == 200


def test_good_tree_has_nothing_broken(tmp_path, serve_site, page):
    base = serve_site(write_tree(tmp_path / "good"), PREFIX)
    report = crawl(page, base, PREFIX)
    assert report["pages"] == 3, report["visited"]
    assert report["broken"] == []
    assert report["console_errors"] == []
    # links to other origins are listed, never fetched
    assert {url for _, url in report["external"]} == {"https://example.org/elsewhere"}


def test_bad_tree_reports_exactly_the_broken_image(tmp_path, serve_site, page):
    base = serve_site(write_tree(tmp_path / "bad", bad=True), PREFIX)
    report = crawl(page, base, PREFIX)
    assert report["pages"] == 3
    assert report["broken"] == [(base + "notes/b.html", base + "missing.png", 404)]
    # Chromium logs the failed load as a console error too
    assert any(p == base + "notes/b.html" and "404" in text for p, text in report["console_errors"])


def test_link_escaping_the_prefix_is_broken(tmp_path, serve_site, page):
    root = write_tree(tmp_path / "site")
    (root / "notes" / "a.html").write_text(PAGE.format(title="A", up="../", extra='<a href="/notes/b.html">abs</a>'))
    base = serve_site(root, PREFIX)
    report = crawl(page, base, PREFIX)
    origin = base[: -len(PREFIX)]
    assert report["broken"] == [(base + "notes/a.html", origin + "/notes/b.html", 404)]


def test_console_errors_and_failed_fetches_are_captured(tmp_path, serve_site, page):
    root = write_tree(tmp_path / "site")
    (root / "app.js").write_text(
        "console.error('boom from app.js');\n"
        "fetch('data/missing.json').then(r => r.status);\n"
        "setTimeout(() => { throw new Error('late failure'); }, 10);\n"
    )
    base = serve_site(root, PREFIX)
    report = crawl(page, base + "notes/a.html", PREFIX)
    assert report["pages"] == 3
    texts = [t for _, t in report["console_errors"]]
    assert texts.count("boom from app.js") == 3
    assert sum("late failure" in t for t in texts) == 3
    assert (base + "index.html", base + "data/missing.json", 404) in report["broken"]
    assert {url for _, url, _ in report["broken"]} == {base + "data/missing.json", base + "notes/data/missing.json"}


def test_screenshot_writes_a_png(tmp_path, serve_site, page):
    base = serve_site(write_tree(tmp_path / "site"), PREFIX)
    page.goto(base)
    path = screenshot(page, "harness self-test")
    assert path.parent.name == "artifacts" and path.name == "harness_self-test.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
