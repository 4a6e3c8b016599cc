"""Crawl a served site in a Playwright page and report what is broken.

    report = crawl(page, server.base_url, "/my-repo/")
    assert report["broken"] == [], report["broken"]
    assert report["console_errors"] == []

`crawl` starts at `start_url` and visits every page reachable by `<a href>`
that has the start URL's origin and a path under `prefix`. On every visited
page it records:

- failed requests of anything the page loads — documents, scripts,
  stylesheets, images, fonts, fetch/XHR (JSON replies, pagefind chunks):
  an HTTP status >= 400, or a network failure (status 0);
- `<a href>` targets on the same origin (under the prefix or not: a link that
  escapes the prefix is exactly the GitHub Pages bug), checked once each;
- `src`/`href` of `img`, `script`, `link`, `source`, `iframe`, `video`,
  `audio` that the browser did not request itself (lazy images, alternate
  JSON links);
- console errors and uncaught exceptions (except Chromium's automatic
  `/favicon.ico` request at the origin root);
- requests to any other origin (the site must make none).

With `expand=True`, the crawler also presses what bf.js adds to a page before
collecting its links: every "Show more" button (`[data-bf-more]`) until the
listing is whole, and the "JSON reply" button (`[data-bf-json]`); what they
load is checked like the rest, their links are crawled too, and a button that
shows an error instead of items or a reply is listed in `expand_errors`.

The report is a dict:
    pages           number of pages visited (HTML documents rendered)
    broken          [(from_page, url, status)] — status 0 = network failure
    console_errors  [(page, text)]
    external        [(page, url)] requests or links to other origins
                    (links to other origins are listed, never fetched)
    visited         [url] in visiting order
    failures        {url: failure text} for network failures
    expanded        number of buttons pressed (expand=True)
    expand_errors   [(page, text)] of buttons that showed an error

`screenshot(page, name)` saves a PNG into tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import re
import time
from collections import deque
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

__all__ = ["crawl", "screenshot", "ARTIFACTS"]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

_SKIP_SCHEMES = ("javascript:", "mailto:", "tel:", "data:", "blob:", "about:")
_RESOURCE_SELECTOR = (
    "img[src], script[src], link[href], source[src], iframe[src], video[src], audio[src], "
    "video[poster], input[type=image][src]"
)
_RESOURCE_JS = """els => els.map(e => {
  if (e.tagName === 'LINK') return e.href;
  if (e.tagName === 'VIDEO' && e.hasAttribute('poster') && !e.hasAttribute('src')) return e.poster;
  return e.src;
})"""


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _page_key(url: str) -> str:
    """`dir/index.html` and `dir/` are one page."""
    return url[: -len("index.html")] if url.endswith("/index.html") else url


def _normalize_prefix(prefix: str | None, start_url: str) -> str:
    if prefix is None:
        path = urlsplit(start_url).path
        prefix = path[: path.rfind("/") + 1]
    elif "://" in prefix:
        prefix = urlsplit(prefix).path
    return "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"


_EXPAND_JS = """async () => {
  const errors = []
  let pressed = 0
  // page.js shows its buttons as it wires them: press none before (a loaded machine may lag)
  const t = Date.now()
  while (document.querySelector('[data-bf-more][hidden], .json-offer[hidden]') && Date.now() - t < 10000) {
    await new Promise((r) => setTimeout(r, 20))
  }
  for (let round = 0; round < 1000; round++) {
    const button = document.querySelector('[data-bf-more]:not([disabled])')
    if (!button) break
    const status = button.parentElement.querySelector('.status')
    const before = button.dataset.next
    button.click()
    pressed++
    const t0 = Date.now()
    while (document.contains(button) && button.dataset.next === before && !/Could not/.test(status.textContent) && Date.now() - t0 < 10000) {
      await new Promise((r) => setTimeout(r, 20))
    }
    if (/Could not/.test(status.textContent) || (document.contains(button) && button.dataset.next === before)) {
      errors.push('show more: ' + (status.textContent || 'no answer'))
      break
    }
  }
  const json = document.querySelector('[data-bf-json]')
  if (json) {
    json.click()
    pressed++
    const t0 = Date.now()
    while (!document.querySelector('#bf-json-reply') && Date.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 20))
    const box = document.querySelector('#bf-json-reply')
    if (!box || box.querySelector('.error') || !box.querySelector('pre')) errors.push('json reply: ' + (box ? box.textContent : 'none shown'))
    else JSON.parse(box.querySelector('pre').textContent)
  }
  return [pressed, errors]
}"""


def crawl(page, start_url: str, prefix: str | None = None, *, max_pages: int = 100_000,
          settle_ms: int = 5_000, expand: bool = False) -> dict:
    """Visit every internal page reachable from `start_url`; see the module doc.

    `prefix` is a path (`/my-repo/`) or a base URL; default: the folder of
    `start_url`. After each page's `load`, the crawler waits (at most
    `settle_ms`) until no request is in flight, so fetches made by scripts
    are seen.
    """
    origin = _origin(start_url)
    prefix = _normalize_prefix(prefix, start_url)

    state = {"current": None, "leaving": False}
    inflight: set = set()
    requested: set[str] = set()
    broken: list[tuple] = []
    broken_seen: set[tuple] = set()
    console_errors: list[tuple[str, str]] = []
    external: list[tuple[str, str]] = []
    external_seen: set[tuple] = set()
    failures: dict[str, str] = {}
    expanded = 0
    expand_errors: list[tuple[str, str]] = []

    def add_broken(src, url, status):
        key = (src, url, status)
        if key not in broken_seen:
            broken_seen.add(key)
            broken.append(key)

    def add_external(src, url):
        key = (src, url)
        if key not in external_seen:
            external_seen.add(key)
            external.append(key)

    def is_ours(url: str) -> bool:
        return _origin(url) == origin

    def on_request(req):
        inflight.add(req)
        url = req.url
        if url.startswith(_SKIP_SCHEMES):
            return
        requested.add(urldefrag(url)[0])
        if not is_ours(url):
            add_external(state["current"], url)

    answered: set = set()

    def on_response(resp):
        # a response is enough: a body nobody reads never "finishes"
        inflight.discard(resp.request)
        answered.add(resp.request)
        if resp.status >= 400 and is_ours(resp.url):
            add_broken(state["current"], resp.url, resp.status)

    def on_finished(req):
        inflight.discard(req)

    def on_failed(req):
        inflight.discard(req)
        if state["leaving"] or req.url.startswith(_SKIP_SCHEMES):
            return
        # Chromium aborts the body of an answered HEAD fetch (bf.js checks a brain's files that
        # way): its response was seen and judged above.
        if req in answered and req.method == "HEAD":
            return
        failures[req.url] = req.failure or "failed"
        if is_ours(req.url):
            add_broken(state["current"], req.url, 0)

    def on_console(msg):
        # Chromium's own /favicon.ico request (outside any project prefix) is
        # not the site's doing; a declared icon is checked as a <link>.
        if msg.type == "error" and (msg.location or {}).get("url") != origin + "/favicon.ico":
            console_errors.append((state["current"], msg.text))

    def on_pageerror(err):
        console_errors.append((state["current"], f"uncaught: {err}"))

    handlers = {
        "request": on_request, "response": on_response, "requestfinished": on_finished,
        "requestfailed": on_failed, "console": on_console, "pageerror": on_pageerror,
    }
    for event, fn in handlers.items():
        page.on(event, fn)

    status_cache: dict[str, tuple[int, str]] = {}

    def check(url: str) -> tuple[int, str]:
        """(status, content type) of a same-origin URL, following redirects."""
        if url not in status_cache:
            try:
                resp = page.request.head(url, max_redirects=10)
                if resp.status in (405, 501):
                    resp = page.request.get(url, max_redirects=10)
                status_cache[url] = (resp.status, resp.headers.get("content-type", ""))
            except Exception as exc:  # network failure
                failures[url] = str(exc).splitlines()[0]
                status_cache[url] = (0, "")
        return status_cache[url]

    def settle():
        deadline = time.monotonic() + settle_ms / 1000
        quiet_rounds = 0
        while time.monotonic() < deadline and quiet_rounds < 2:
            page.wait_for_timeout(25)
            quiet_rounds = quiet_rounds + 1 if not inflight else 0

    start = urldefrag(start_url)[0]
    queue: deque[tuple[str, str | None]] = deque([(start, None)])
    queued = {_page_key(start)}
    visited: list[str] = []
    try:
        while queue and len(visited) < max_pages:
            url, referrer = queue.popleft()
            status, ctype = check(url)
            if status == 0 or status >= 400:
                add_broken(referrer, url, status)
                continue
            if "html" not in ctype:
                continue
            # Leave the previous page first, so its aborted requests are not
            # blamed on this one and this page's failures are not ignored.
            state["leaving"] = True
            page.goto("about:blank")
            inflight.clear()
            state["leaving"] = False
            state["current"] = url
            page.goto(url, wait_until="load")
            visited.append(url)
            settle()
            if expand:
                pressed, errors = page.evaluate(_EXPAND_JS)
                expanded += pressed
                expand_errors.extend((url, e) for e in errors)
                settle()

            links = page.eval_on_selector_all(
                "a[href]", "els => els.map(e => new URL(e.getAttribute('href'), document.baseURI).href)")  # SVG <a> too
            for href in links:
                if not href or href.startswith(_SKIP_SCHEMES):
                    continue
                target = urldefrag(href)[0]
                if not is_ours(target):
                    add_external(url, target)
                    continue
                if urlsplit(target).path.startswith(prefix):
                    if _page_key(target) not in queued:
                        queued.add(_page_key(target))
                        queue.append((target, url))
                else:  # same origin, outside the prefix: check, never crawl
                    status, _ = check(target)
                    if status == 0 or status >= 400:
                        add_broken(url, target, status)

            for src in page.eval_on_selector_all(_RESOURCE_SELECTOR, _RESOURCE_JS):
                if not src or src.startswith(_SKIP_SCHEMES):
                    continue
                target = urldefrag(src)[0]
                if not is_ours(target):
                    add_external(url, target)
                elif target not in requested:
                    status, _ = check(target)
                    if status == 0 or status >= 400:
                        add_broken(url, target, status)
    finally:
        state["leaving"] = True
        for event, fn in handlers.items():
            page.remove_listener(event, fn)

    return {
        "pages": len(visited),
        "broken": broken,
        "console_errors": console_errors,
        "external": external,
        "visited": visited,
        "failures": failures,
        "expanded": expanded,
        "expand_errors": expand_errors,
    }


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of `page` as tests/artifacts/<name>.png and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "page"
    path = ARTIFACTS / (safe if safe.endswith(".png") else safe + ".png")
    page.screenshot(path=str(path), full_page=full_page)
    return path
