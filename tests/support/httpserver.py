"""Serve a built site on 127.0.0.1 under a URL prefix, like GitHub Pages.

    with StaticServer(site_dir, prefix="/my-repo/") as server:
        server.base_url            # "http://127.0.0.1:PORT/my-repo/"
        server.url("notes/a.html") # base_url + "notes/a.html"

- Only paths under the prefix are served; everything else is a 404, so an
  absolute link that forgot `base_url` (`/notes/a.html`) shows up as broken.
- The bare prefix without its slash (`/my-repo`) redirects to `/my-repo/`.
- A missing file answers 404 with the site's `404.html` as body when the
  site has one (GitHub Pages does the same), else a short text.
- Logs are silent; `server.requests` keeps `(method, path, status)` tuples.
- Each server runs in a daemon thread on a free port; `close()` stops it.
"""

from __future__ import annotations

import http.server
import threading
import urllib.parse
from functools import partial
from pathlib import Path

__all__ = ["StaticServer", "serve"]

EXTRA_TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".svg": "image/svg+xml",
    ".woff2": "font/woff2",
    ".pagefind": "application/octet-stream",
    ".pf_meta": "application/octet-stream",
    ".pf_index": "application/octet-stream",
    ".pf_filter": "application/octet-stream",
    ".pf_fragment": "application/octet-stream",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **EXTRA_TYPES}
    server_version = "bf-test"
    sys_version = ""

    def __init__(self, *args, prefix: str, owner: "StaticServer", **kwargs):
        self.prefix = prefix
        self.owner = owner
        super().__init__(*args, **kwargs)

    # -- routing ------------------------------------------------------------
    def _route(self) -> bool:
        """Strip the prefix from self.path; False when the request is outside it."""
        path, sep, query = self.path.partition("?")
        if self.prefix != "/" and urllib.parse.unquote(path) == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix + (sep + query if sep else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not path.startswith(self.prefix):
            self._not_found()
            return False
        self.path = "/" + path[len(self.prefix):] + (sep + query if sep else "")
        return True

    def do_GET(self):  # noqa: N802
        if self._route():
            super().do_GET()

    def do_HEAD(self):  # noqa: N802
        if self._route():
            super().do_HEAD()

    def send_error(self, code, message=None, explain=None):
        if code == 404:
            self._not_found()
        else:
            super().send_error(code, message, explain)

    def _not_found(self):
        page = Path(self.directory) / "404.html"
        body = page.read_bytes() if page.is_file() else b"404 not found\n"
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8" if page.is_file() else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    # -- quiet logs -----------------------------------------------------------
    def log_request(self, code="-", size="-"):
        try:
            code = int(code)
        except (TypeError, ValueError):
            pass
        parts = self.requestline.split(" ")
        self.owner.requests.append((self.command, parts[1] if len(parts) > 1 else "", code))

    def log_message(self, format, *args):  # noqa: A002
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass  # a browser closing a connection early is not a test failure


class StaticServer:
    """A static file server for `root` under `prefix` on a random free port."""

    def __init__(self, root: Path | str, prefix: str = "/", host: str = "127.0.0.1"):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise FileNotFoundError(f"not a folder: {self.root}")
        prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
        self.prefix = prefix
        self.requests: list[tuple[str, str, int]] = []
        handler = partial(_Handler, directory=str(self.root), prefix=prefix, owner=self)
        self._httpd = _Server((host, 0), handler)
        self.host, self.port = self._httpd.server_address[:2]
        self.origin = f"http://{self.host}:{self.port}"
        self.base_url = self.origin + prefix
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name=f"static-{self.port}", daemon=True)
        self._thread.start()

    def url(self, path: str = "") -> str:
        return self.base_url + path.lstrip("/")

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "StaticServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def serve(root: Path | str, prefix: str = "/") -> StaticServer:
    """Start serving `root` under `prefix`; call `.close()` when done."""
    return StaticServer(root, prefix)
