"""Browser fixtures: a static server under a URL prefix and headless Chromium.

Fixtures
- `serve_site(root, prefix="/") -> str`: serves `root` on 127.0.0.1 (free
  port, background thread) under `prefix`, returns the base URL
  (`http://127.0.0.1:PORT/my-repo/`); stopped after the test. The server
  object is `serve_site.servers[-1]` (its `.requests` log).
- `chromium` (session): a Playwright `Browser` on /usr/bin/chromium.
- `browser_context` / `page`: a fresh context and page per test.
- `example_site` (module): examples/brain built at EXAMPLE_NOW without pagefind;
  `opened(page, url)` goes there and waits for bf.js.
Helpers in tests/support: `crawl(page, start_url, prefix)`,
`screenshot(page, name)`, `StaticServer`. Tests here are skipped, with the
reason, when /usr/bin/chromium is missing, and fail instead when CI=true
(tests/support/tools.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

SUPPORT = Path(__file__).resolve().parents[1] / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))

from httpserver import StaticServer  # noqa: E402
from tools import need  # noqa: E402
from example import EXAMPLE, EXAMPLE_NOW  # noqa: E402

CHROMIUM = os.environ.get("BF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def serve_site():
    servers: list[StaticServer] = []

    def serve(root, prefix: str = "/") -> str:
        server = StaticServer(root, prefix)
        servers.append(server)
        return server.base_url

    serve.servers = servers
    yield serve
    for server in servers:
        server.close()


@pytest.fixture(scope="module")   # per module: a live Playwright loop would break later asyncio tests (MCP)
def chromium():
    need(CHROMIUM, "apt-get install chromium; browser tests need it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_context(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.fixture
def page(browser_context):
    page = browser_context.new_page()
    page.set_default_timeout(15_000)
    yield page
    page.close()



def _example(tmp_path_factory, pagefind: bool):
    from builder.build import build
    out = tmp_path_factory.mktemp("example") / "site"
    build([EXAMPLE], out, now=EXAMPLE_NOW, pagefind=pagefind)
    return out


@pytest.fixture(scope="module")
def example_site(tmp_path_factory):
    """examples/brain built at EXAMPLE_NOW, without pagefind: for tests of the pages' own behaviour."""
    return _example(tmp_path_factory, pagefind=False)


@pytest.fixture(scope="module")
def full_site(tmp_path_factory):
    """The same with its pagefind bundles: the search page and dialog draw pagefind's results."""
    return _example(tmp_path_factory, pagefind=True)
