"""bf serve: preview a built site on localhost, rebuilding when a watched brain changes (SPEC §8).

The site is served under its base_url (as GitHub Pages would), a missing file answers with
404.html, and HTML pages get a tiny script that polls the manifest's build_id and reloads
when a rebuild lands. That script exists only in the served bytes: files on disk stay as built.
"""
from __future__ import annotations

import http.server
import json
import sys
import threading
import urllib.parse
from functools import partial
from pathlib import Path

from . import MANIFEST
from .errors import BfError, IndexMissing
from .fingerprint import changed, fingerprint

POLL_SECONDS = 0.5
RELOAD = """<script>/* bf serve: reload when the site is rebuilt */
(() => { let seen = null; const url = %s;
  setInterval(async () => { try {
    const id = (await (await fetch(url, {cache: 'no-store'})).json()).build_id;
    if (seen !== null && id !== seen) location.reload(); seen = id; } catch (e) {} }, 1000) })();
</script>"""


def site_prefix(out: Path) -> str:
    """The first brain's base_url from the manifest ("/" when there is none)."""
    try:
        brains = json.loads((out / MANIFEST).read_bytes()).get("brains") or [{}]
        base = brains[0].get("base_url") or "/"
    except (OSError, ValueError, AttributeError):
        base = "/"
    return "/" + base.strip("/") + "/" if base.strip("/") else "/"


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".json": "application/json", ".wasm": "application/wasm"}

    def __init__(self, *args, prefix: str, **kwargs):
        self.prefix = prefix
        super().__init__(*args, **kwargs)

    def do_GET(self):  # noqa: N802
        self._serve(head=False)

    def do_HEAD(self):  # noqa: N802
        self._serve(head=True)

    def _serve(self, head: bool) -> None:
        path, sep, query = self.path.partition("?")
        if not path.startswith(self.prefix):
            if urllib.parse.unquote(path) in ("/", self.prefix.rstrip("/")):
                return self._redirect(self.prefix)
            return self._send(404, self._not_found(), "text/html; charset=utf-8", head)
        self.path = "/" + path[len(self.prefix):] + sep + query
        file = Path(self.translate_path(self.path))
        if file.is_dir():
            if not path.endswith("/"):
                return self._redirect(path + "/")
            file = file / "index.html"
        if not file.is_file():
            return self._send(404, self._not_found(), "text/html; charset=utf-8", head)
        if file.suffix == ".html":
            return self._send(200, self._inject(file.read_bytes()), "text/html; charset=utf-8", head)
        return super().do_HEAD() if head else super().do_GET()

    def _inject(self, body: bytes) -> bytes:
        script = (RELOAD % json.dumps(self.prefix + MANIFEST).replace("<", "\\u003c")).encode("utf-8")
        at = body.rfind(b"</body>")
        return body[:at] + script + body[at:] if at >= 0 else body + script

    def _not_found(self) -> bytes:
        page = Path(self.directory) / "404.html"
        return self._inject(page.read_bytes()) if page.is_file() else b"404 not found\n"

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


class Watcher:
    """Rebuilds `out` from `brains` when their fingerprint changes; `check()` does one poll."""

    def __init__(self, brains: list[Path], out: Path, base_url: str | None = None, log=None):
        self.brains, self.out, self.base_url = [Path(b) for b in brains], Path(out), base_url
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.seen: dict[str, dict] = {}

    def _prints(self) -> dict[str, dict]:
        return {str(b): fingerprint(b) for b in self.brains}

    def check(self) -> bool:
        """Rebuild when anything changed since the last poll (or on the first poll); True if rebuilt."""
        now = self._prints()
        if self.seen and all(not changed(self.seen[k], v) for k, v in now.items()):
            return False
        first = not self.seen
        self.seen = now
        from .build import build
        try:
            report = build(self.brains, self.out, base_url=self.base_url, pagefind=True)
        except BfError as exc:
            self.log(f"bf serve: build failed: {exc.message}")
            return False
        self.log(f"bf serve: {'built' if first else 'rebuilt'} {report.files} files ({report.reused} unchanged), build {report.build_id}")
        return True

    def run(self, stop: threading.Event) -> None:
        while not stop.wait(POLL_SECONDS):
            self.check()


def make_server(out: Path, port: int, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    prefix = site_prefix(out)
    handler = partial(Handler, directory=str(Path(out).resolve()), prefix=prefix)
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.prefix = prefix
    return server


def serve(out: Path, port: int = 8000, watch: list[Path] | None = None, base_url: str | None = None) -> None:
    out = Path(out)
    stop = threading.Event()
    if watch:
        watcher = Watcher(watch, out, base_url)
        watcher.check()
        threading.Thread(target=watcher.run, args=(stop,), daemon=True, name="bf-watch").start()
    if not (out / MANIFEST).is_file():
        raise IndexMissing(str(out))
    server = make_server(out, port)
    host, real_port = server.server_address[:2]
    print(f"bf serve: http://{host}:{real_port}{server.prefix} (Ctrl-C stops)", file=sys.stderr, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        stop.set()
        server.server_close()
