"""bf serve: preview a built site on localhost, rebuilding when a watched brain changes (docs/serve.md).

The site is served under its base_url (as GitHub Pages would) and a missing file answers with
404.html. Served HTML gets a tiny script (LIVE) that follows the server-sent events of EVENTS:
after every build, each open page learns whether its own bytes changed (it then reloads,
keeping its scroll position), whether the build failed (an error banner, the last good
site still served) and what its problems left out of the site (a notice; a page gone with
them stays as it last built). Script and endpoint exist only in `bf serve`: files on disk stay as built.
"""
from __future__ import annotations

import hashlib
import http.server
import json
import os
import re
import sys
import threading
import urllib.parse
from collections import deque
from functools import partial
from pathlib import Path

from . import MANIFEST
from .kernel.errors import IndexMissing
from .watch import Rebuilder, WatchBuilds, left_out, watch_brains

EVENTS = "/.bf-serve/events"   # a dot folder: never a path of a built site
PING_EVERY = 15                # seconds of silence before a keep-alive (finds closed pages)
STOP_WAIT = 5                  # seconds Ctrl-C waits for the build running (else recover() cleans up)
# The page keeps its own scroll position across the reload (sessionStorage), with the browser's
# restoration off until then: browsers differ in whether and when they restore after reload().
LIVE = """<script>/* bf serve: live preview */
(() => { const cfg = %s, key = "bf-serve-scroll:" + location.pathname, saved = sessionStorage.getItem(key);
  if (saved !== null) { sessionStorage.removeItem(key);   /* set by the reload below */
    const restore = () => scrollTo(0, Number(saved)); restore();
    addEventListener("load", () => { restore(); setTimeout(() => { history.scrollRestoration = "auto"; }); }, {once: true}); }
  let banner = null;
  const show = (error) => {
    if (!error) { if (banner) banner.remove(); banner = null; return; }
    if (!banner) { banner = document.createElement("div"); banner.id = "bf-serve-error"; banner.setAttribute("role", "alert");
      banner.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:2147483647;margin:0;padding:.6em 1em;" +
        "background:#b00020;color:#fff;font:14px/1.4 system-ui,sans-serif;white-space:pre-wrap";
      document.body.append(banner); }
    banner.textContent = "bf serve: the rebuild failed; this is the last good site.\\n" + error; };
  let notice = null;
  const tell = (left) => {
    if (!left || !left.length) { if (notice) notice.remove(); notice = null; return; }
    if (!notice) { notice = document.createElement("div"); notice.id = "bf-serve-notice"; notice.setAttribute("role", "status");
      notice.style.cssText = "position:fixed;bottom:0;left:0;right:0;z-index:2147483647;margin:0;padding:.6em 1em;" +
        "background:#7a4b00;color:#fff;font:14px/1.4 system-ui,sans-serif;white-space:pre-wrap";
      document.body.append(notice); }
    notice.textContent = "bf serve: left out of the site (a page gone with it shows as it last built):\\n" + left.join("\\n"); };
  const events = new EventSource(cfg.events + "?path=" + encodeURIComponent(location.pathname) + "&sha=" + cfg.sha);
  events.onmessage = (message) => { const state = JSON.parse(message.data);
    document.documentElement.dataset.bfServeBuild = state.build; show(state.error); tell(state.left_out);
    if (state.reload) { events.close(); history.scrollRestoration = "manual";
      sessionStorage.setItem(key, String(scrollY)); location.reload(); } }; })();
</script>"""


def read_manifest(out: Path) -> dict:
    try:
        manifest = json.loads((Path(out) / MANIFEST).read_bytes())
        return manifest if isinstance(manifest, dict) else {}
    except (OSError, ValueError):
        return {}


def site_prefix(out: Path) -> str:
    """The first brain's base_url from the manifest ("/" when there is none)."""
    try:
        base = (read_manifest(out).get("brains") or [{}])[0].get("base_url") or "/"
    except AttributeError:
        base = "/"
    return "/" + base.strip("/") + "/" if base.strip("/") else "/"


# base.html's footer: the build instant in words ("as of 2 Dec 2026, 13:00"), which masking the
# instants alone leaves in.
RANGE = re.compile(r"bytes=(\d+)-(\d*)")   # one range, what the search asks (docs/site.md#search-data)
AS_OF = re.compile(rb'<span data-bf-asof>as of <time datetime="[^"]*">[^<]*</time></span>')


class Live:
    """What open pages follow: a generation bumped by every build outcome, the last failure
    (None after a good build), and the build instants seen. Every page shows its build's
    instant ("as of"), so a page's bytes are compared with those instants masked: a rebuild
    that only moves the clock reloads only pages whose content depends on it."""

    def __init__(self):
        self.cond = threading.Condition()
        self.generation, self.error, self.closed = 0, None, False
        self.left_out: tuple[str, ...] = ()   # the last good build's problems that left something out
        self.instants: deque[bytes] = deque(maxlen=64)

    def publish(self, report, error: str | None) -> None:
        with self.cond:
            self.generation += 1
            self.error = error
            if report is not None:
                self.left_out = tuple(left_out(getattr(report, "problems", ())))
            self.cond.notify_all()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def wait(self, generation: int, timeout: float) -> None:
        with self.cond:
            self.cond.wait_for(lambda: self.generation != generation or self.closed, timeout)

    def saw(self, instant) -> None:
        with self.cond:
            if isinstance(instant, str) and instant and instant.encode() not in self.instants:
                self.instants.append(instant.encode())

    def digest(self, page: bytes) -> str:
        with self.cond:
            instants = list(self.instants)
        for instant in instants:
            page = page.replace(instant, b"")
        return hashlib.sha256(AS_OF.sub(b"", page)).hexdigest()[:32]


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves a site under `prefix`; with `live`, HTML gets LIVE and EVENTS streams. Without it
    (the tests' server, tests/support/httpserver.py) every file is served as built."""
    # Pinned rather than left to the machine's mimetypes tables (/etc/mime.types).
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json",
                      ".wasm": "application/wasm", ".svg": "image/svg+xml", ".woff2": "font/woff2"}

    def __init__(self, *args, prefix: str, live: Live | None, **kwargs):
        self.prefix, self.live = prefix, live
        super().__init__(*args, **kwargs)

    def do_GET(self):  # noqa: N802
        self._serve(head=False)

    def do_HEAD(self):  # noqa: N802
        self._serve(head=True)

    def _locate(self, path: str) -> tuple[int, Path | str | None]:
        """Where a URL path leads: (200, file), (301, new location) or (404, None)."""
        if not path.startswith(self.prefix):
            return (301, self.prefix) if urllib.parse.unquote(path) in ("/", self.prefix.rstrip("/")) else (404, None)
        file = Path(self.translate_path("/" + path[len(self.prefix):]))
        page = file.with_name(file.name + ".html")
        if not path.endswith("/") and page.is_file():   # GitHub Pages serves x.html at /x too
            return 200, page
        if file.is_dir():
            if not path.endswith("/"):
                return 301, path + "/"
            file = file / "index.html"
        return (200, file) if file.is_file() else (404, None)

    def _page(self, path: str) -> bytes | None:
        """The HTML a browser gets for `path` before the script is added: 404.html when missing,
        None when that is missing too."""
        status, where = self._locate(path)
        file = where if status == 200 else Path(self.directory) / "404.html"
        try:
            return file.read_bytes()
        except OSError:
            return None

    def _serve(self, head: bool) -> None:
        path, sep, query = self.path.partition("?")
        if path == EVENTS and not head and self.live:
            return self._events(urllib.parse.parse_qs(query))
        status, where = self._locate(path)
        if status == 301:
            return self._redirect(where)
        if status == 404 or (self.live and where.suffix == ".html"):
            page = self._page(path)
            body = b"404 not found\n" if page is None else self._inject(page)
            return self._send(status, body, "text/html; charset=utf-8", head)
        asked = RANGE.fullmatch(self.headers.get("Range") or "")
        if asked and not head:
            return self._part(where, int(asked[1]), int(asked[2]) if asked[2] else None)
        self.path = "/" + path[len(self.prefix):] + sep + query
        return super().do_HEAD() if head else super().do_GET()

    def _part(self, file: Path, start: int, last: int | None) -> None:
        """The bytes start..last of `file`, as a static host answers a Range request: a search
        fetches one text of a file of gzip members so, and a candidate's row of a vectors file of
        megabytes (docs/site.md#search-data): those bytes alone are read."""
        with open(file, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            last = size - 1 if last is None else min(last, size - 1)
            if start > last:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                return self.end_headers()
            fh.seek(start)
            data = fh.read(last - start + 1)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(file)))
        self.send_header("Content-Range", f"bytes {start}-{last}/{size}")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _inject(self, page: bytes) -> bytes:
        if not self.live:
            return page
        self.live.saw(read_manifest(Path(self.directory)).get("as_of"))   # read after the page: same build or newer
        config = json.dumps({"events": EVENTS, "sha": self.live.digest(page)})
        script = (LIVE % config.replace("<", "\\u003c")).encode("utf-8")
        at = page.rfind(b"</body>")
        return page[:at] + script + page[at:] if at >= 0 else page + script

    def _events(self, params: dict) -> None:
        """Server-sent events for one open page: a message on connect and after every build outcome
        (or a build made by another `bf build`, seen by its manifest), until the page must reload."""
        path, sha = params.get("path", [""])[0], params.get("sha", [""])[0]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        sent, quiet = None, 0
        try:
            while True:
                with self.live.cond:
                    generation, error, closed, left = self.live.generation, self.live.error, self.live.closed, self.live.left_out
                if closed:
                    return
                manifest = read_manifest(Path(self.directory))
                self.live.saw(manifest.get("as_of"))
                state = (manifest.get("build_id"), error, left)
                if state != sent:
                    # a page whose note a problem left out stays as it last built, the notice on it
                    gone = bool(left) and self._locate(path)[0] == 404
                    reload = not gone and self.live.digest(self._page(path) or b"") != sha
                    message = {"build": state[0], "error": error, "left_out": list(left), "reload": reload}
                    self.wfile.write(b"data: " + json.dumps(message).encode("utf-8") + b"\n\n")
                    sent, quiet = state, 0
                    if reload:
                        return
                elif quiet >= PING_EVERY:
                    self.wfile.write(b": ping\n\n")
                    quiet = 0
                self.live.wait(generation, 1.0)   # a build by this server wakes it at once
                quiet += 1
        except (BrokenPipeError, ConnectionResetError):   # the page was closed or navigated away
            return

    def _redirect(self, location: str) -> None:
        self.send_response(301)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, status: int, body: bytes, ctype: str, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")   # a preview must never show an old build
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002 - quiet: rebuilds report on stderr instead
        pass


class PreviewServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    live: Live | None = None

    def server_close(self) -> None:
        if self.live:
            self.live.close()   # ends every event stream
        super().server_close()


def make_server(out: Path, port: int, host: str = "127.0.0.1", live: Live | None = None) -> PreviewServer:
    prefix, live = site_prefix(out), live or Live()
    handler = partial(Handler, directory=str(Path(out).resolve()), prefix=prefix, live=live)
    server = PreviewServer((host, port), handler)
    server.prefix, server.live = prefix, live
    return server


def serve(out: Path, port: int = 8000, watch: list[Path] | None = None, base_url: str | None = None) -> None:
    out, live, stop = Path(out), Live(), threading.Event()
    rebuilder = worker = None
    if watch:
        builds = WatchBuilds(watch, out, base_url)
        rebuilder = Rebuilder(builds.build, lambda report, error: (live.publish(report, error), builds.state.settle()),
                              later=builds.index)
        # Watching starts before the first build, so an edit made during it queues a rebuild.
        threading.Thread(target=watch_brains, args=(watch, out, rebuilder.request, stop, rebuilder.log),
                         daemon=True, name="bf-watch").start()
        rebuilder.first()
        # in the build thread, before it takes a save (off the server's start): the first rebuild stages into it
        worker = threading.Thread(target=lambda: (builds.prepare(), rebuilder.run()), daemon=True, name="bf-rebuild")
        worker.start()
    try:
        if not (out / MANIFEST).is_file():
            raise IndexMissing(str(out))
        server = make_server(out, port, live=live)
        host, real_port = server.server_address[:2]
        print(f"bf serve: http://{host}:{real_port}{server.prefix} (Ctrl-C stops)", file=sys.stderr, flush=True)
        try:
            server.serve_forever(poll_interval=0.2)
        finally:
            server.server_close()
    finally:
        stop.set()
        if rebuilder:
            rebuilder.stop()   # an indexing build stops at once and moves its staging folder away
            worker.join(STOP_WAIT)
