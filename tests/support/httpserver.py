"""The tests' static server: `bf serve`'s own Handler and PreviewServer (builder/serve.py),
without its live-preview script, serving a built site on 127.0.0.1 under a URL prefix, like
GitHub Pages.

    with StaticServer(site_dir, prefix="/my-repo/") as server:
        server.base_url            # "http://127.0.0.1:PORT/my-repo/"
        server.url("notes/a.html") # base_url + "notes/a.html"

- Only paths under the prefix are served; anything else is a 404, so an absolute link that
  forgot `base_url` (`/notes/a.html`) shows up as broken. `/` and the bare prefix
  (`/my-repo`) redirect to `/my-repo/`, as `bf serve` does.
- A missing file answers 404 with the site's `404.html` as body when the site has one
  (GitHub Pages does the same), else a short text.
- `server.requests` keeps `(method, path, status)` tuples.
- Each server runs in a daemon thread on a free port; `close()` stops it.
"""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path

from builder.serve import Handler, PreviewServer

__all__ = ["StaticServer"]


class _LoggingHandler(Handler):
    def __init__(self, *args, requests: list, **kwargs):
        self.requests = requests
        super().__init__(*args, **kwargs)

    def log_request(self, code="-", size="-"):
        parts = self.requestline.split(" ")
        self.requests.append((self.command, parts[1] if len(parts) > 1 else "", int(code)))


class _Server(PreviewServer):
    def handle_error(self, request, client_address):
        pass  # a browser closing a connection early is not a test failure


class StaticServer:
    """A static file server for `root` under `prefix` on a random free port."""

    def __init__(self, root: Path | str, prefix: str = "/", host: str = "127.0.0.1"):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise FileNotFoundError(f"not a folder: {self.root}")
        self.prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
        self.requests: list[tuple[str, str, int]] = []
        handler = partial(_LoggingHandler, directory=str(self.root), prefix=self.prefix, live=None,
                          requests=self.requests)
        self._httpd = _Server((host, 0), handler)
        self.host, self.port = self._httpd.server_address[:2]
        self.origin = f"http://{self.host}:{self.port}"
        self.base_url = self.origin + self.prefix
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"static-{self.port}", daemon=True)
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
