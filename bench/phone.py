"""Search as a person on a phone waits for it (issue 63), for bench/run.py: the built site served
over HTTP (gzip, as a static host sends it) to Chromium with Lighthouse's phone conditions set
by CDP (150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up, a 4x CPU slowdown), the cache off
and a fresh browser context per query, so each is a cold page load.

Queries: the first of the query mix's (bench/mix.py) frequent, rare and three-word queries, 4 + 3
+ 3 = 10 by default. For each:
- the scoped search page (`search.html?q=…&mode=scoped`, bf's own engine): time from navigation
  to its first result and to its final list, the bytes received by each moment (every response,
  prefetches too: CDP Network.loadingFinished encodedDataLength, headers included), and the
  layout shift summed up to the final list (CLS);
- the search dialog on a note page, once the page has loaded: time from "/" to its field, and,
  having waited for the field and typed the query at once, from the last keystroke to its first
  result.
Times are read in the page (performance.now(), a MutationObserver an init script sets), not by
the driver's polling. p50 and max over the queries are reported; `phone_runs` lists each."""
from __future__ import annotations

import gzip
import http.server
import json
import os
import re
import statistics
import threading
import urllib.parse
from pathlib import Path

CHROMIUM = os.environ.get("BF_CHROMIUM", "/usr/bin/chromium")
QUERIES = (4, 3, 3)   # how many of the mix's frequent, rare and three-word queries
TIMEOUT_MS = 180_000
PHONE = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
CPU_SLOWDOWN = 4
RANGE = re.compile(r"bytes=(\d+)-(\d*)")
COMPRESS = {".html", ".js", ".css", ".json", ".svg", ".txt", ".xml"}   # a .gz file is sent as it is
KEYS = [f"phone_{what}_{stat}" for what in ("scoped_first_result_s", "scoped_final_list_s", "scoped_first_result_kb",
                                            "scoped_final_list_kb", "dialog_field_s", "dialog_first_result_s")
        for stat in ("p50", "max")] + ["phone_scoped_cls_max", "phone_queries"]

# Moments the page reaches, in ms since navigation. The scoped list is final when its status is
# said (not "Searching…") and the list is not aria-busy; the dialog's first result counts only
# once the field holds the whole query (after its last input event).
WATCH = """(() => {
  const t = window.__bfPhone = { first: null, final: null, error: null, slash: null, field: null,
                                 lastInput: null, dialogFirst: null, query: null, cls: 0 }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput && t.final === null) t.cls += e.value
  }).observe({ type: 'layout-shift', buffered: true })
  document.addEventListener('keydown', (e) => { if (e.key === '/' && t.slash === null) t.slash = performance.now() }, true)
  document.addEventListener('input', () => { t.lastInput = performance.now() }, true)
  const check = () => {
    const now = performance.now()
    const list = document.querySelector('#scoped-results')
    const status = document.querySelector('#scoped-status')
    if (list && t.first === null && list.querySelector('li')) t.first = now
    if (status && t.final === null && status.textContent && !status.textContent.startsWith('Searching') &&
        list.getAttribute('aria-busy') !== 'true') {
      t.final = now
      if (status.classList.contains('error')) t.error = status.textContent
    }
    const dialog = document.querySelector('dialog.quick-search-dialog')
    if (!dialog) return
    const field = dialog.querySelector('input')
    if (t.field === null && dialog.open && field) t.field = now
    if (t.dialogFirst === null && t.query !== null && field && field.value === t.query &&
        dialog.querySelector('li[role=option]')) t.dialogFirst = now
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
})()"""


class _Handler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the site's files, gzip-compressed where a static host would."""
    protocol_version = "HTTP/1.1"   # kept-alive connections, as a browser gets from a host
    root: Path
    cache: dict

    def do_GET(self):  # noqa: N802
        self._send(head=False)

    def do_HEAD(self):  # noqa: N802
        self._send(head=True)

    def _send(self, head: bool) -> None:
        rel = urllib.parse.unquote(self.path.partition("?")[0]).lstrip("/")
        file = (self.root / rel).resolve()
        if file.is_dir():
            file = file / "index.html"
        if not file.is_relative_to(self.root) or not file.is_file():
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body, encoded = self.cache.get(file, (None, False))
        if body is None:
            body = file.read_bytes()
            encoded = file.suffix in COMPRESS
            if encoded:
                body = gzip.compress(body, 6, mtime=0)
            self.cache[file] = (body, encoded)
        asked = RANGE.fullmatch(self.headers.get("Range") or "")
        if asked and not encoded and not head:   # as a static host answers (a search's item texts)
            last = min(int(asked[2]) if asked[2] else len(body) - 1, len(body) - 1)
            self.send_response(206)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Range", f"bytes {asked[1]}-{last}/{len(body)}")
            self.send_header("Content-Length", str(last - int(asked[1]) + 1))
            self.end_headers()
            self.wfile.write(body[int(asked[1]):last + 1])
            return
        self.send_response(200)
        types = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css",
                 ".json": "application/json", ".svg": "image/svg+xml", ".wasm": "application/wasm"}
        self.send_header("Content-Type", types.get(file.suffix, "application/octet-stream"))
        if encoded:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass   # a browser closing a connection early


def serve(site: Path) -> tuple[_Server, str]:
    handler = type("Handler", (_Handler,), {"root": Path(site).resolve(), "cache": {}})
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def phone_queries(site: Path, counts=QUERIES) -> list[str]:
    """The first `counts` frequent, rare and three-word queries of the mix (bench/mix.py)."""
    from .mix import query_mix
    mix = query_mix(site)
    picked = []
    for kind, n in enumerate(counts):
        picked += [q for q, _ in mix[kind * 20:(kind + 1) * 20][:n]]
    return picked


def note_page(site: Path, query: str) -> str:
    """The page of the first note `query` finds in the site's first brain."""
    from builder.kernel.pageurls import page_file
    from builder.query.site import open_site
    from builder.query.search import search
    brain = json.loads((Path(site) / "_bf" / "manifest.json").read_bytes())["brains"][0]
    items = search(open_site(str(site)), query, limit=20, mode="lexical",
                   brains=[brain["name"]])["items"]
    ref = next(it["ref"].partition("#")[0] for it in items if it["kind"] != "record")   # a section: its note
    return page_file(brain["name"], ref, brain.get("moved"))


class _Bytes:
    """Every response body of a page (CDP), by the time it finished, as the page's clock reads it."""

    def __init__(self, cdp):
        self.done: list[tuple[float, int]] = []   # (monotonic s, encoded bytes)
        self.origin: tuple[float, float] | None = None   # the document request's (monotonic, wall) s
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.loadingFinished", lambda e: self.done.append((e["timestamp"], e["encodedDataLength"])))

    def _sent(self, event):
        if self.origin is None and event.get("type") == "Document":
            self.origin = (event["timestamp"], event["wallTime"])

    def by(self, time_origin_ms: float, at_ms: float) -> float:
        """KB received by `at_ms` after the page's time origin (epoch ms)."""
        mono, wall = self.origin
        until = mono + ((time_origin_ms + at_ms) / 1000 - wall)
        return round(sum(n for t, n in self.done if t <= until) / 1000, 1)


def _phone_page(browser):
    context = browser.new_context(viewport={"width": 412, "height": 823}, is_mobile=True, has_touch=True,
                                  device_scale_factor=1.75)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", PHONE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, page, _Bytes(cdp)


def _scoped(browser, base: str, query: str) -> dict:
    context, page, got = _phone_page(browser)
    try:
        page.goto(base + "search.html?" + urllib.parse.urlencode({"q": query, "mode": "scoped"}), wait_until="commit")
        page.wait_for_function("window.__bfPhone && window.__bfPhone.final !== null", polling=250)
        t = page.evaluate("({...window.__bfPhone, origin: performance.timeOrigin})")
        if t["error"] or t["first"] is None:
            raise RuntimeError(f"the scoped search of {query!r} showed no result: {t['error'] or 'an empty list'}")
        return {"query": query, "first_s": round(t["first"] / 1000, 3), "final_s": round(t["final"] / 1000, 3),
                "first_kb": got.by(t["origin"], t["first"]), "final_kb": got.by(t["origin"], t["final"]),
                "cls": round(t["cls"], 4)}
    finally:
        context.close()


def _dialog(browser, base: str, page_path: str, query: str) -> dict:
    context, page, _ = _phone_page(browser)
    try:
        page.goto(base + page_path, wait_until="load")
        page.wait_for_function("window.bf !== undefined", polling=100)
        page.keyboard.press("/")
        page.locator("dialog.quick-search-dialog input").wait_for(state="visible")
        page.evaluate("(q) => { window.__bfPhone.query = q }", query)
        page.keyboard.type(query)
        page.wait_for_function("window.__bfPhone.dialogFirst !== null", polling=250)
        t = page.evaluate("window.__bfPhone")
        return {"query": query, "field_s": round((t["field"] - t["slash"]) / 1000, 3),
                "first_s": round((t["dialogFirst"] - t["lastInput"]) / 1000, 3)}
    finally:
        context.close()


def _stats(out: dict, key: str, values: list[float]) -> None:
    out[f"{key}_p50"] = round(statistics.median(values), 3)
    out[f"{key}_max"] = round(max(values), 3)


def phone_search(site: Path, counts=QUERIES, log=lambda msg: None) -> dict:
    """The `phone_*` fields (see the module's docstring) for the built site `site`."""
    from playwright.sync_api import sync_playwright
    if not Path(CHROMIUM).is_file():
        raise RuntimeError(f"no Chromium at {CHROMIUM} (BF_CHROMIUM)")
    queries = phone_queries(site, counts)
    page_path = note_page(site, queries[0])
    server, base = serve(site)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                               "--disable-quic", "--no-first-run", "--disable-component-update"])
            try:
                scoped, dialog = [], []
                for q in queries:
                    scoped.append(_scoped(browser, base, q))
                    log(f"phone: scoped {q!r}: {scoped[-1]}")
                for q in queries:
                    dialog.append(_dialog(browser, base, page_path, q))
                    log(f"phone: dialog {q!r}: {dialog[-1]}")
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    out = {"phone_queries": len(queries)}
    for key, runs, field in (("scoped_first_result_s", scoped, "first_s"), ("scoped_final_list_s", scoped, "final_s"),
                             ("scoped_first_result_kb", scoped, "first_kb"), ("scoped_final_list_kb", scoped, "final_kb"),
                             ("dialog_field_s", dialog, "field_s"), ("dialog_first_result_s", dialog, "first_s")):
        _stats(out, f"phone_{key}", [r[field] for r in runs])
    out["phone_scoped_cls_max"] = max(r["cls"] for r in scoped)
    out["phone_runs"] = {"scoped": scoped, "dialog": dialog}
    return out


def phone_report(site: Path, counts=QUERIES, log=lambda msg: None) -> dict:
    """phone_search's fields, or each null with the reason it failed."""
    try:
        return phone_search(site, counts, log)
    except Exception as exc:   # no Chromium, no Playwright, a page that never answered: a reason
        why = f"phone measurement failed: {type(exc).__name__}: {exc}"
        return {"null_reasons": {key: why for key in KEYS}, **{key: None for key in KEYS}}
